/** The sparse Matrix Market reader: structure of every field and symmetry, the real fixture, and one-line errors naming file and line. */
import { describe, expect, it } from "vitest";
import { parseSparseMatrixMarket, readSparseMatrixFile } from "../../src/io/sparse-matrix-read.js";
import { errorOf } from "../helpers/errors.js";
import { tempDir } from "../helpers/temp-dir.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const FIXTURE = new URL("../fixtures/matrices/west0479.mtx", import.meta.url).pathname;

/** Row r's columns, as lists. */
function rowsOf(s: ReturnType<typeof parseSparseMatrixMarket>): number[][] {
  return Array.from({ length: s.rows }, (_, r) => Array.from(s.colIndex.subarray(s.rowStart[r]!, s.rowStart[r + 1]!)));
}

describe("parseSparseMatrixMarket", () => {
  it("reads a general real matrix into sorted compressed rows (comments, blank lines and CRLF skipped)", () => {
    const s = parseSparseMatrixMarket(
      "%%MatrixMarket matrix coordinate real general\r\n% a comment\n\n3 4 4\n1 3 2.5\n1 1 -1e-3\n3 4 0\n2 2 7\n",
    );
    expect([s.rows, s.cols]).toEqual([3, 4]);
    expect(rowsOf(s)).toEqual([[0, 2], [1], [3]]);
  });

  it("mirrors symmetric, skew-symmetric and hermitian files; pattern and complex fields", () => {
    const sym = parseSparseMatrixMarket("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n1 1\n3 1\n3 2\n");
    expect(rowsOf(sym)).toEqual([[0, 2], [2], [0, 1]]);
    const herm = parseSparseMatrixMarket("%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n2 1 1.0 -2\n");
    expect(rowsOf(herm)).toEqual([[1], [0]]);
  });

  it("reads the real fixture west0479 (479 x 479, 1910 entries)", () => {
    const s = readSparseMatrixFile(FIXTURE);
    expect([s.rows, s.cols, s.rowStart[s.rows]]).toEqual([479, 479, 1910]);
    expect(s.source).toBe(FIXTURE);
  });

  it("refuses bad input in one line naming the file and the line", () => {
    const f = "a.mtx";
    const cases: [string, RegExp][] = [
      ["", /^sparse-matrix: a\.mtx: the input is empty$/],
      ["%%MatrixMarket matrix array real general\n2 2\n", /a\.mtx:line 1: only 'matrix coordinate'/],
      ["hello\n", /a\.mtx:line 1: not a Matrix Market file/],
      ["%%MatrixMarket matrix coordinate real banana\n", /line 1: the symmetry must be/],
      ["%%MatrixMarket matrix coordinate real general\n% c\n", /line 2: missing the size line/],
      ["%%MatrixMarket matrix coordinate real general\n2 2\n", /line 2: the size line must be/],
      [
        "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n",
        /line 3: row index '3' must be an integer in 1\.\.2/,
      ],
      ["%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n", /line 3: 'x' is not a number \(column 3\)/],
      ["%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", /line 3: an entry must have 3 fields/],
      ["%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n", /line 4: more entries than the 1/],
      [
        "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n",
        /line 3: the size line announces 2 entries but the file has 1/,
      ],
      [
        "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n",
        /line 3: entry \(1, 2\) is above the diagonal/,
      ],
      ["%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n", /line 2: a symmetric matrix must be square/],
    ];
    for (const [text, re] of cases) {
      const e = errorOf(() => parseSparseMatrixMarket(text, f));
      expect(e.message).toMatch(re);
      expect(e.message).not.toContain("\n");
    }
  });

  it("names a missing file", () => {
    expect(errorOf(() => readSparseMatrixFile("/nonexistent/x.mtx")).message).toBe(
      "sparse-matrix: /nonexistent/x.mtx: no such file",
    );
  });
});

describe("parseSparseMatrixMarket, memory", () => {
  it("refuses up front a size line whose rows, columns or entries would not fit the memory budget", () => {
    const e = errorOf(() =>
      parseSparseMatrixMarket("%%MatrixMarket matrix coordinate real general\n200000000 200000000 0\n", "big.mtx", {
        maxMemory: 1 << 30,
      }),
    );
    expect(e.message).toMatch(/^sparse-matrix: big\.mtx: .*200000000 x 200000000 matrix/);
  });
});

describe("readSparseMatrixFile, memory: the text is charged too", () => {
  // 65536 entries of a 1024 x 1024 matrix: the entries alone take about 1 MiB, the text held while they are read
  // (its bytes, its string, its lines) about 4 MiB more; a file of 3.3 million lines took 5.6 x its size past the check
  const text =
    "%%MatrixMarket matrix coordinate real general\n1024 1024 65536\n" +
    Array.from({ length: 65536 }, (_, k) => `${(k >> 6) + 1} ${(k & 63) * 16 + 1} 1.5\n`).join("");
  const MiB = 1 << 20;

  it("refuses the lines with the entries at the size line, past a budget the entries alone fit", () => {
    expect(parseSparseMatrixMarket(text, "m.mtx", { maxMemory: 8 * MiB }).colIndex.length).toBe(65536);
    expect(errorOf(() => parseSparseMatrixMarket(text, "m.mtx", { maxMemory: 2 * MiB })).message).toMatch(
      /^sparse-matrix: m\.mtx: the 1024 x 1024 matrix of 65536 entries the size line announces, read from its 65539 lines needs about 4\.49 MiB, past the memory budget of 2 MiB/,
    );
  });

  it("refuses a file whose bytes and text pass the budget before reading it", () => {
    const d = tempDir("sparse-read");
    writeFileSync(join(d, "m.mtx"), text);
    expect(errorOf(() => readSparseMatrixFile(join(d, "m.mtx"), { maxMemory: MiB })).message).toBe(
      `sparse-matrix: ${join(d, "m.mtx")}: reading the ${text.length}-byte file needs about ${(
        (2 * text.length) /
        MiB
      ).toFixed(2)} MiB, past the memory budget of 1 MiB (raise it with the option maxMemory (bytes), e.g. 2M)`,
    );
  });
});
