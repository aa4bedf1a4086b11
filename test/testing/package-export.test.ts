/** commplan/testing as a user imports it: the subpath export of package.json, from dist/, with its own fast-check re-exported. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;

describe("the commplan/testing export", () => {
  it("package.json exports ./testing with its types, and lists fast-check as a peer (and a dev dependency)", () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
      exports: { [k: string]: unknown };
      peerDependencies: { [k: string]: string };
      devDependencies: { [k: string]: string };
    };
    expect(pkg.exports["./testing"]).toEqual({ types: "./dist/testing/index.d.ts", import: "./dist/testing/index.js" });
    expect(pkg.peerDependencies["fast-check"]).toBe(pkg.devDependencies["fast-check"]);
  });

  it("imports from dist (built by npm test first) and finds a buggy planner's 3-node counterexample", () => {
    const script = `
      const kit = await import("commplan/testing");
      const main = await import("commplan");
      const twoToZero = ({ p }) => ({ stages: [{ steps: [{ transfers: Array.from({ length: p - 1 }, (_, i) => ({ src: i + 1, dst: 0, size: 1 })) }] }] });
      const all = (n) => kit.matrixFromRows(Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j === 0 && i > 0 ? 1 : 0))));
      const r = kit.fc.check(kit.plannerProperty(twoToZero, { matrices: kit.fc.integer({ min: 2, max: 6 }).map(all) }), { seed: 1 });
      console.log(JSON.stringify({ failed: r.failed, check: r.errorInstance.check, p: r.counterexample[0].p, leaks: "plannerProperty" in main }));`;
    const out = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }),
    ) as object;
    expect(out).toEqual({ failed: true, check: "node-contention", p: 3, leaks: false });
  });
});
