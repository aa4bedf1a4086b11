/** The Matrix Market reader's byte path (plain decimal entry lines) reads exactly what its string path reads, and hands every other line to it. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseMatrixText } from "../../src/io/matrix-read.js";
import { entry, matrixFromEntries } from "../../src/model/matrix.js";
import { isCommplanError } from "../../src/model/errors.js";

const HEAD = "%%MatrixMarket matrix coordinate integer general\n";

describe("Matrix Market entry lines", () => {
  it("blanks, tabs, CRLF, comments and long values give the same matrix as the entries they spell", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat({ max: 2 ** 40 }), fc.constantFrom(" ", "\t", "  ", " \t")), {
          maxLength: 30,
        }),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        (p, raw, eol, comments) => {
          const seen = new Set<number>();
          const entries: [number, number, number][] = [];
          for (const [a, b, v] of raw) {
            const i = a % p,
              j = b % p;
            if (seen.has(i * p + j)) continue;
            seen.add(i * p + j);
            entries.push([i, j, v]);
          }
          const lines = entries.map(([i, j, v], k) => {
            const sep = raw[k]![3];
            const value = k % 5 === 4 ? `0000000000000000${v}` : String(v); // past 15 digits: the string path
            return `${k % 3 === 0 ? " " : ""}${i + 1}${sep}${j + 1}${sep}${value}${k % 4 === 1 ? " " : ""}`;
          });
          const body = lines.flatMap((l, k) => (comments && k % 2 === 0 ? ["% c", l, ""] : [l]));
          const text = HEAD + `${p} ${p} ${entries.length}` + eol + body.join(eol) + eol;
          const got = parseMatrixText(text, { format: "mtx" });
          const want = matrixFromEntries(p, entries);
          expect(got.sparse).toBeDefined();
          for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) expect(entry(got, i, j)).toBe(entry(want, i, j));
        },
      ),
      { seed: 16, numRuns: 200 },
    );
  });

  it("a line the byte path refuses is reported by the string path, with its line", () => {
    const cases: [string, RegExp][] = [
      ["2 2 1\n1 3 4\n", /line 3: index \(1, 3\) is outside 1\.\.2/],
      ["2 2 1\n1 2 -4\n", /line 3: .*-4/],
      ["2 2 1\n1 2 4 5\n", /line 3: an entry must be 'i j value'/],
      ["2 2 1\n1 2 4\n2 1 4\n", /line 4: more entries than the 1/],
      ["2 2 2\n1 2 4\n1 2 5\n", /line 4: entry \(1, 2\) appears twice/],
      ["2 2 1\n1 2 4x\n", /line 3: .*4x/],
    ];
    for (const [body, re] of cases) {
      try {
        parseMatrixText(HEAD + body, { format: "mtx", file: "m.mtx" });
        throw new Error(`accepted: ${body}`);
      } catch (e) {
        expect(isCommplanError(e), String(e)).toBe(true);
        expect((e as Error).message).toMatch(re);
      }
    }
  });
});
