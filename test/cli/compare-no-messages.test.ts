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
  it("says what is true at P = 1 (every plan costs nothing) and at P > 1 (plans differ by their barriers)", async () => {
    const d = tempDir("compare-zero-p");
    const one = join(d, "p1.json"),
      eight = join(d, "p8.json");
    writeFileSync(one, JSON.stringify({ format: "commplan.matrix/v1", p: 1, rows: [[5]] }));
    expect((await run("gen", "zero", "--p", "8", "-o", eight)).code).toBe(0);
    const times = async (m: string): Promise<Set<string>> => {
      const r = await run("compare", m, "--machine", "t3d-004", ...ALGORITHMS, "--json");
      const rows = (JSON.parse(r.out) as { rows: { blockingUs: number; nonblockingUs: number }[] }).rows;
      return new Set(rows.map((x) => `${x.blockingUs} ${x.nonblockingUs}`));
    };
    expect(await times(one)).toEqual(new Set(["0 0"]));
    expect((await times(eight)).size).toBeGreaterThan(1);
    expect(NO_MESSAGES_TEXT).toContain(
      "at P > 1 they would differ only by their empty stages' barriers, at P = 1 not at all",
    );
    const text = await run("compare", one, "--machine", "t3d-004", ...ALGORITHMS);
    expect(text.out.trimEnd().split("\n")[1]).toBe(NO_MESSAGES_TEXT);
  });

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
