import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isCommplanError, type CommplanError } from "../../../src/model/errors.js";
import { matrixFromRows, type CommMatrix } from "../../../src/model/matrix.js";
import { parseMatrixText, readMatrixFile, sniffMatrixFormat } from "../../../src/patterns/files/matrix-read.js";
import { matrixToCsvText, matrixToJsonText } from "../../../src/patterns/files/matrix-write.js";
import { matrixArb } from "../../helpers/arbitraries.js";

const dir = mkdtempSync(join(tmpdir(), "commplan-matrix-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function errorOf(f: () => unknown): CommplanError {
  try {
    f();
  } catch (e) {
    if (isCommplanError(e)) return e;
    throw e;
  }
  throw new Error("expected a CommplanError");
}

const same = (a: CommMatrix, b: CommMatrix): void => {
  expect([a.p, a.elementBytes]).toEqual([b.p, b.elementBytes]);
  expect(Array.from(a.data)).toEqual(Array.from(b.data));
};

const withBytes = (m: CommMatrix, elementBytes: number): CommMatrix => ({ ...m, elementBytes });

describe("matrix files: round trips", () => {
  it("JSON dense, sparse and automatic", () => {
    fc.assert(
      fc.property(matrixArb({ maxP: 12 }), fc.integer({ min: 1, max: 64 }), fc.constantFrom(true, false, undefined), (m0, eb, sparse) => {
        const m = withBytes(m0, eb);
        const text = matrixToJsonText(m, sparse === undefined ? {} : { sparse });
        expect(sniffMatrixFormat(text)).toBe("json");
        expect(text.includes('"entries"')).toBe(sparse ?? Array.from(m.data).filter((v) => v !== 0).length / (m.p * m.p) < 0.25);
        same(parseMatrixText(text), m);
      }),
      { numRuns: 100 },
    );
  });

  it("CSV", () => {
    fc.assert(
      fc.property(matrixArb({ maxP: 12 }), (m) => {
        const text = matrixToCsvText(m);
        expect(sniffMatrixFormat(text)).toBe("csv");
        same(parseMatrixText(text, { file: "m.csv" }), m);
      }),
      { numRuns: 100 },
    );
  });

  it("reads files and stdin-style paths through readMatrixFile", () => {
    const m = matrixFromRows([[0, 3], [4, 0]], { elementBytes: 22 });
    const f = join(dir, "m.json");
    writeFileSync(f, matrixToJsonText(m));
    same(readMatrixFile(f), m);
    const c = join(dir, "m.data");
    writeFileSync(c, "# a comment\n0, 3\n 4 ,0 \n\n");
    same(readMatrixFile(c), withBytes(m, 8));
    same(readMatrixFile(c, { elementBytes: 22 }), m);
  });
});

describe("matrix files: formats", () => {
  it("sniffs the format from the content, not the name", () => {
    expect(sniffMatrixFormat('  {"format":1}')).toBe("json");
    expect(sniffMatrixFormat("%%MatrixMarket matrix coordinate integer general\n")).toBe("mtx");
    expect(sniffMatrixFormat("1,2\n3,4\n")).toBe("csv");
    expect(parseMatrixText("\ufeff1,2\n3,4\n").data).toEqual(new Float64Array([1, 2, 3, 4]));
  });

  it("reads CSV with comments, spaces, CRLF and a blank last line", () => {
    const m = parseMatrixText("# sends\r\n 0 , 1,2\r\n3,0,5\r\n# mid\r\n6, 7 ,0\r\n\r\n", { file: "m.csv" });
    expect(Array.from(m.data)).toEqual([0, 1, 2, 3, 0, 5, 6, 7, 0]);
    expect(m.elementBytes).toBe(8);
  });

  it("reads Matrix Market coordinate integer, real and pattern", () => {
    const int = parseMatrixText("%%MatrixMarket matrix coordinate integer general\n% comment\n3 3 2\n1 2 5\n3 1 7\n");
    expect(Array.from(int.data)).toEqual([0, 5, 0, 0, 0, 0, 7, 0, 0]);
    const real = parseMatrixText("%%MatrixMarket matrix coordinate real general\n2 2 1\n2 2 4.0\n", { format: "mtx" });
    expect(Array.from(real.data)).toEqual([0, 0, 0, 4]);
    const pattern = parseMatrixText("%%MatrixMarket MATRIX Coordinate Pattern General\n2 2 2\n1 2\n2 1\n");
    expect(Array.from(pattern.data)).toEqual([0, 1, 1, 0]);
  });
});

describe("matrix files: every error is a CommplanError with the place", () => {
  const json = (body: string): string => `{"format":"commplan.matrix/v1",${body}}`;

  it("malformed JSON names line and column", () => {
    const e = errorOf(() => parseMatrixText('{\n"format": "commplan.matrix/v1",\n"p": 2,\n"rows": [[1,2],[3,]]\n}', { file: "m.json" }));
    expect(e.code).toBe("BAD_INPUT");
    expect(e.message).toBe("matrix: m.json:line 4: invalid JSON: unexpected ']' (expected a value) (column 19)");
    expect(e.place).toEqual({ file: "m.json", line: 4 });
    expect(errorOf(() => parseMatrixText('{"format": "commplan.matrix/v1",\n"p": 2', { file: "m.json" })).message).toMatch(/^matrix: m\.json:line 2: invalid JSON: unexpected end of input/);
  });

  it("JSON schema and meaning errors name the field", () => {
    const cases: [string, string, RegExp][] = [
      ["wrong format", '{"format":"commplan.schedule/v1","p":1,"rows":[[0]]}', /^matrix: m\.json: \/format is "commplan\.schedule\/v1", expected "commplan\.matrix\/v1"$/],
      ["negative", json('"p":2,"rows":[[0,-1],[0,0]]'), /\/rows\/0\/1 must be >= 0/],
      ["fractional", json('"p":2,"rows":[[0,1.5],[0,0]]'), /\/rows\/0\/1 must be integer/],
      ["p = 0", json('"p":0,"entries":[]'), /\/p must be >= 1/],
      ["empty rows", json('"p":1,"rows":[]'), /\/rows must NOT have fewer than 1 items/],
      ["both forms", json('"p":1,"rows":[[0]],"entries":[]'), /exactly one of 'rows' and 'entries'/],
      ["neither form", json('"p":1'), /exactly one of 'rows' and 'entries'/],
      ["non-square", json('"p":2,"rows":[[0,1,2],[0,0,0]]'), /^matrix: m\.json: row 0 has 3 entries, expected 2 \(the matrix must be square\)$/],
      ["p and rows disagree", json('"p":3,"rows":[[0,1],[0,0]]'), /\/rows has 2 rows but p = 3/],
      ["entry out of range", json('"p":2,"entries":[[0,2,1]]'), /^matrix: m\.json: entries\[0\]: j = 2 is not a node index in 0\.\.1$/],
      ["entry twice", json('"p":2,"entries":[[0,1,1],[0,1,2]]'), /entries\[1\]: entry \(0, 1\) appears twice/],
      ["entry of 2", json('"p":2,"entries":[[0,1]]'), /\/entries\/0 must NOT have fewer than 3 items/],
      ["unknown key", json('"p":1,"rows":[[0]],"x":1'), /must NOT have additional properties \('x'\)/],
    ];
    for (const [name, text, re] of cases) {
      const e = errorOf(() => parseMatrixText(text, { file: "m.json" }));
      expect(e.message, name).toMatch(re);
      expect(e.place.file, name).toBe("m.json");
      expect(e.code, name).toBe(name === "wrong format" ? "BAD_FORMAT" : "BAD_INPUT");
    }
  });

  it("CSV errors name the line and column", () => {
    const cases: [string, string][] = [
      ["0,1,2\n3,4\n5,6,7\n", "matrix: m.csv:line 2: row has 2 entries, expected 3"],
      ["# c\n0,1\nabc,2\n", "matrix: m.csv:line 3: 'abc' is not a non-negative integer (column 1)"],
      ["0,-1\n1,0\n", "matrix: m.csv:line 1: '-1' is not a non-negative integer (column 2)"],
      ["0,1.5\n1,0\n", "matrix: m.csv:line 1: '1.5' is not a non-negative integer (column 2)"],
      ["0,NaN\n1,0\n", "matrix: m.csv:line 1: 'NaN' is not a non-negative integer (column 2)"],
      ["0,\n1,0\n", "matrix: m.csv:line 1: '' is not a non-negative integer (column 2)"],
      ["0,1,2\n3,4,5\n", "matrix: m.csv:line 2: has 2 rows, expected 3 (the matrix must be square)"],
      ["0,1\n2,3\n4,5\n", "matrix: m.csv:line 3: more than 2 rows: a 2-column matrix must have 2 rows (it must be square)"],
      ["0,99999999999999999\n0,0\n", "matrix: m.csv:line 1: '99999999999999999' exceeds 2^53 - 1 (column 2)"],
      ["", "matrix: m.csv:line 1: the matrix is empty (no rows)"],
      ["# only a comment\n\n", "matrix: m.csv:line 3: the matrix is empty (no rows)"],
    ];
    for (const [text, message] of cases) {
      const e = errorOf(() => parseMatrixText(text, { file: "m.csv" }));
      expect(e.message).toBe(message);
      expect(e.code).toBe("BAD_INPUT");
      expect(e.place.line).toBeGreaterThanOrEqual(1);
    }
  });

  it("Matrix Market errors name the line", () => {
    const h = "%%MatrixMarket matrix coordinate integer general\n";
    const cases: [string, string, string][] = [
      [h + "2 3 0\n", "BAD_INPUT", "matrix: m.mtx:line 2: the matrix is 2 x 3; it must be square"],
      [h + "2 2 2\n1 1 1\n", "BAD_INPUT", "matrix: m.mtx:line 3: the size line announces 2 entries but the file has 1"],
      [h + "2 2 1\n1 1 1\n2 2 1\n", "BAD_INPUT", "matrix: m.mtx:line 4: more entries than the 1 the size line announces"],
      [h + "2 2 1\n3 1 1\n", "BAD_INPUT", "matrix: m.mtx:line 3: index (3, 1) is outside 1..2"],
      [h + "2 2 1\n0 1 1\n", "BAD_INPUT", "matrix: m.mtx:line 3: index (0, 1) is outside 1..2"],
      [h + "2 2 1\n1 1 -4\n", "BAD_INPUT", "matrix: m.mtx:line 3: '-4' is not a non-negative integer (column 3)"],
      [h.replace("integer", "real") + "2 2 1\n1 1 2.5\n", "BAD_INPUT", "matrix: m.mtx:line 3: '2.5' is not an integer: entries count elements (column 3)"],
      [h.replace("integer", "real") + "2 2 1\n1 1 nan\n", "BAD_INPUT", "matrix: m.mtx:line 3: 'nan' is not a number (column 3)"],
      [h + "2 2 2\n1 1 1\n1 1 2\n", "BAD_INPUT", "matrix: m.mtx:line 4: entry (1, 1) appears twice"],
      [h + "0 0 0\n", "BAD_INPUT", "matrix: m.mtx:line 2: a row of 0 entries: p must be a positive integer, got 0"],
      [h, "BAD_INPUT", "matrix: m.mtx:line 2: missing the size line 'P P nnz'"],
      [h.replace("general", "symmetric") + "2 2 0\n", "BAD_FORMAT", "matrix: m.mtx:line 1: only 'general' symmetry is supported, got 'symmetric'"],
      [h.replace("coordinate", "array") + "2 2\n", "BAD_FORMAT", "matrix: m.mtx:line 1: only 'matrix coordinate' Matrix Market files are supported, got 'matrix array'"],
      [h.replace("integer", "complex") + "2 2 0\n", "BAD_FORMAT", "matrix: m.mtx:line 1: the field must be integer, real or pattern, got 'complex'"],
    ];
    for (const [text, code, message] of cases) {
      const e = errorOf(() => parseMatrixText(text, { file: "m.mtx" }));
      expect(e.message).toBe(message);
      expect(e.code).toBe(code);
    }
  });

  it("maps file-system errors to IO", () => {
    const e = errorOf(() => readMatrixFile(join(dir, "x.json")));
    expect(e.code).toBe("IO");
    expect(e.message).toBe(`matrix: ${join(dir, "x.json")}: no such file`);
    expect(errorOf(() => readMatrixFile(dir)).message).toMatch(/: is a directory$/);
  });
});
