/**
 * compare on a matrix with no messages between ranks (all zero, or counts on the diagonal only): no plan moves
 * anything, so none is ranked: the text says so in one line instead of the table, the JSON has no best (its rows are
 * there), and the sweep names no fastest; a matrix with one message is ranked as before.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NO_MESSAGES_TEXT } from "../../src/compare/compare.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const ALGORITHMS = ["--algorithms", "shift,coloring,four-stage,te-direct"];

describe("compare with no messages between ranks", () => {
  it("says so in one line instead of ranking plans by their empty stages' barriers", async () => {
    const d = tempDir("compare-zero");
    const zero = join(d, "z.json"),
      diagonal = join(d, "d.json"),
      one = join(d, "one.json");
    expect((await run("gen", "zero", "--p", "8", "-o", zero)).code).toBe(0);
    writeFileSync(
      diagonal,
      JSON.stringify({
        format: "commplan.matrix/v1",
        p: 3,
        rows: [
          [5, 0, 0],
          [0, 2, 0],
          [0, 0, 0],
        ],
      }),
    );
    for (const m of [zero, diagonal]) {
      const r = await run("compare", m, "--machine", "t3d-004", ...ALGORITHMS);
      expect(r.code, r.err).toBe(0);
      const lines = r.out.trimEnd().split("\n");
      expect(lines).toEqual([
        expect.stringMatching(/^compare on t3d-004 \(.*\): no network traffic$/),
        NO_MESSAGES_TEXT,
      ]);
      const j = await run("compare", m, "--machine", "t3d-004", ...ALGORITHMS, "--json");
      const doc = JSON.parse(j.out) as { best: unknown; rows: unknown[] };
      expect(() => validateWithSchema("compare", doc, "test")).not.toThrow();
      expect(doc.best).toBeNull();
      expect(doc.rows).toHaveLength(4);
    }
    const sweep = await run("compare", zero, "--machine", "t3d-004", ...ALGORITHMS, "--sweep", "1/2..2", "--json");
    const points = (JSON.parse(sweep.out) as { sweep: { points: { best: unknown }[] } }).sweep.points;
    expect(points.map((p) => p.best)).toEqual([null, null, null]);
    // one message between ranks: ranked, the fastest marked
    writeFileSync(
      one,
      JSON.stringify({
        format: "commplan.matrix/v1",
        p: 3,
        rows: [
          [0, 1, 0],
          [0, 0, 0],
          [0, 0, 0],
        ],
      }),
    );
    const ranked = await run("compare", one, "--machine", "t3d-004", ...ALGORITHMS);
    expect(ranked.out).not.toContain("no messages between ranks");
    expect(ranked.out).toMatch(/^\* fastest on the simulated machine: /m);
  });
});
