import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { isCommplanError } from "../../src/model/errors.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import {
  matrixFromEntries,
  matrixFromRows,
  toSparse,
  withElementBytes,
  type CommMatrix,
} from "../../src/model/matrix.js";
import { parseMatrixText, readMatrixFile, sniffMatrixFormat } from "../../src/io/matrix-read.js";
import { matrixToCsvText, matrixToJsonText, matrixToMtxText, writeMatrixFile } from "../../src/io/matrix-write.js";
import { matrixArb } from "../helpers/arbitraries.js";
import { errorOf } from "../helpers/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("matrix-files");

const same = (a: CommMatrix, b: CommMatrix): void => {
  expect([a.p, a.elementBytes]).toEqual([b.p, b.elementBytes]);
  expect(Array.from(a.data)).toEqual(Array.from(b.data));
};

const withBytes = (m: CommMatrix, elementBytes: number): CommMatrix => withElementBytes(m, elementBytes);

const json = (body: string): string => `{"format":"commplan.matrix/v1",${body}}`;
const kinds = ["json", "csv", "mtx"] as const;
const text = (m: CommMatrix, k: (typeof kinds)[number], sparse?: boolean): string =>
  k === "json"
    ? matrixToJsonText(m, sparse === undefined ? {} : { sparse })
    : k === "csv"
      ? matrixToCsvText(m)
      : matrixToMtxText(m);

describe("matrix files: round trips", () => {
  it("JSON dense, sparse and automatic", () => {
    fc.assert(
      fc.property(
        matrixArb({ maxP: 12 }),
        fc.integer({ min: 1, max: 64 }),
        fc.constantFrom(true, false, undefined),
        (m0, eb, sparse) => {
          const m = withBytes(m0, eb);
          const text = matrixToJsonText(m, sparse === undefined ? {} : { sparse });
          expect(sniffMatrixFormat(text)).toBe("json");
          expect(text.includes('"entries"')).toBe(
            sparse ?? (m.sparse !== undefined || Array.from(m.data).filter((v) => v !== 0).length / (m.p * m.p) < 0.25),
          );
          same(parseMatrixText(text), m);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("a sparse matrix writes the bytes of its dense storage in every format, reads back sparse from JSON entries and Matrix Market", () => {
    fc.assert(
      fc.property(matrixArb({ maxP: 12 }), fc.boolean(), (m, asEntries) => {
        const s = toSparse(m);
        expect(matrixToCsvText(s)).toBe(matrixToCsvText(m));
        expect(matrixToMtxText(s)).toBe(matrixToMtxText(m));
        expect(matrixToJsonText(s, { sparse: asEntries })).toBe(matrixToJsonText(m, { sparse: asEntries }));
        expect(matrixToJsonText(s)).toBe(matrixToJsonText(m, { sparse: true }));
        for (const back of [parseMatrixText(matrixToMtxText(s)), parseMatrixText(matrixToJsonText(s))]) {
          expect(back.sparse).toBeDefined();
          same(back, m);
        }
        expect(parseMatrixText(matrixToCsvText(s), { format: "csv" }).sparse).toBeUndefined();
      }),
      { seed: 16, numRuns: 100 },
    );
  });

  it("a dense form of a sparse matrix past P = 16384 is refused (no reader would take it back); the sparse forms are written", () => {
    const m = matrixFromEntries(20000, [[19999, 0, 5]]);
    expect(() => matrixToCsvText(m)).toThrow(/^matrix: CSV is dense \(P x P cells\) and P = 20000 exceeds 16384/);
    expect(() => matrixToJsonText(m, { sparse: false })).toThrow(/the JSON rows form is dense/);
    for (const back of [parseMatrixText(matrixToJsonText(m)), parseMatrixText(matrixToMtxText(m))])
      expect(back.sparse).toEqual(m.sparse);
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
    const m = matrixFromRows(
      [
        [0, 3],
        [4, 0],
      ],
      { elementBytes: 22 },
    );
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
  it("malformed JSON names line and column", () => {
    const e = errorOf(() =>
      parseMatrixText('{\n"format": "commplan.matrix/v1",\n"p": 2,\n"rows": [[1,2],[3,]]\n}', { file: "m.json" }),
    );
    expect(e.code).toBe("BAD_INPUT");
    expect(e.message).toBe("matrix: m.json:line 4: invalid JSON: unexpected ']' (expected a value) (column 19)");
    expect(e.place).toEqual({ file: "m.json", line: 4 });
    expect(
      errorOf(() => parseMatrixText('{"format": "commplan.matrix/v1",\n"p": 2', { file: "m.json" })).message,
    ).toMatch(/^matrix: m\.json:line 2: invalid JSON: unexpected end of input/);
  });

  it("JSON schema and meaning errors name the field", () => {
    const cases: [string, string, RegExp][] = [
      [
        "wrong format",
        '{"format":"commplan.schedule/v1","p":1,"rows":[[0]]}',
        /^matrix: m\.json: \/format is "commplan\.schedule\/v1", expected "commplan\.matrix\/v1"$/,
      ],
      ["negative", json('"p":2,"rows":[[0,-1],[0,0]]'), /\/rows\/0\/1 must be >= 0/],
      ["fractional", json('"p":2,"rows":[[0,1.5],[0,0]]'), /\/rows\/0\/1 must be integer/],
      ["p = 0", json('"p":0,"entries":[]'), /\/p must be >= 1/],
      ["empty rows", json('"p":1,"rows":[]'), /\/rows must NOT have fewer than 1 items/],
      ["both forms", json('"p":1,"rows":[[0]],"entries":[]'), /exactly one of 'rows' and 'entries'/],
      ["neither form", json('"p":1'), /exactly one of 'rows' and 'entries'/],
      [
        "non-square",
        json('"p":2,"rows":[[0,1,2],[0,0,0]]'),
        /^matrix: m\.json:line 1: row 0 has 3 entries, expected 2 \(the matrix must be square\)$/,
      ],
      ["p and rows disagree", json('"p":3,"rows":[[0,1],[0,0]]'), /\/rows has 2 rows but p = 3/],
      [
        "entry out of range",
        json('"p":2,"entries":[[0,2,1]]'),
        /^matrix: m\.json:line 1: entries\[0\]: j = 2 is not a node index in 0\.\.1$/,
      ],
      [
        "p after the rows",
        '{"rows":[[0,1,2],[0,0,0]],"p":2,"format":"commplan.matrix/v1"}',
        /^matrix: m\.json: \/rows has 2 rows but p = 2$|row 0 has 3 entries/,
      ],
      [
        "p after the entries",
        '{"entries":[[0,1,1],[0,1,1]],"format":"commplan.matrix/v1","p":2}',
        /^matrix: m\.json: entries\[1\]: entry \(0, 1\) appears twice$/,
      ],
      [
        "p over the maximum",
        json('"p":16385,"rows":[[0]]'),
        /^matrix: m\.json: p = 16385 exceeds the maximum 16384 of a dense matrix/,
      ],
      ["a key twice", json('"p":1,"p":1,"rows":[[0]]'), /has the key 'p' twice/],
      ["row not an array", json('"p":2,"rows":[[0,1],5]'), /\/rows\/1 must be array/],
      ["entry of 4", json('"p":2,"entries":[[0,1,1,1]]'), /\/entries\/0 must NOT have more than 3 items/],
      ["entry twice", json('"p":2,"entries":[[0,1,1],[0,1,2]]'), /entries\[1\]: entry \(0, 1\) appears twice/],
      ["entry of 2", json('"p":2,"entries":[[0,1]]'), /\/entries\/0 must NOT have fewer than 3 items/],
      ["unknown key", json('"p":1,"rows":[[0]],"x":1'), /must NOT have additional properties \('x'\)/],
      [
        "unknown key with a newline",
        json('"p":1,"rows":[[0]],"a\\nb":1'),
        /^matrix: m\.json: \/ must NOT have additional properties \("a\\nb"\)$/,
      ],
      [
        "a key with a tab and a quote twice",
        json('"p":1,"rows":[[0]],"\\t\'":1,"\\t\'":2'),
        /^matrix: m\.json:line 1: \/ has the key "\\t'" twice$/,
      ],
    ];
    for (const [name, text, re] of cases) {
      const e = errorOf(() => parseMatrixText(text, { file: "m.json" }));
      expect(e.message, name).toMatch(re);
      // eslint-disable-next-line no-control-regex -- a message must hold no control character
      expect(e.message, name).not.toMatch(/[\u0000-\u001f]/);
      expect(e.place.file, name).toBe("m.json");
      expect(e.code, name).toBe(name === "wrong format" ? "BAD_FORMAT" : "BAD_INPUT");
    }
  });
});

describe("matrix files: every error is a CommplanError with the place (continued)", () => {
  it("CSV errors name the line and column", () => {
    const cases: [string, string][] = [
      ["0,1,2\n3,4\n5,6,7\n", "matrix: m.csv:line 2: row has 2 entries, expected 3"],
      ["# c\n0,1\nabc,2\n", "matrix: m.csv:line 3: 'abc' is not a non-negative integer (column 1)"],
      ["0,-1\n1,0\n", "matrix: m.csv:line 1: '-1' is not a non-negative integer (column 2)"],
      ["0,1.5\n1,0\n", "matrix: m.csv:line 1: '1.5' is not a non-negative integer (column 2)"],
      ["0,NaN\n1,0\n", "matrix: m.csv:line 1: 'NaN' is not a non-negative integer (column 2)"],
      ["0,\n1,0\n", "matrix: m.csv:line 1: '' is not a non-negative integer (column 2)"],
      ["0,1,2\n3,4,5\n", "matrix: m.csv:line 2: has 2 rows, expected 3 (the matrix must be square)"],
      [
        "0,1\n2,3\n4,5\n",
        "matrix: m.csv:line 3: more than 2 rows: a 2-column matrix must have 2 rows (it must be square)",
      ],
      ["0,99999999999999999\n0,0\n", "matrix: m.csv:line 1: '99999999999999999' exceeds 2^53 - 1 (column 2)"],
      ["", "matrix: m.csv:line 1: the matrix is empty (no rows)"],
      ["# only a comment\n\n", "matrix: m.csv:line 3: the matrix is empty (no rows)"],
      ["0,\u001b[31m1\n1,0\n", 'matrix: m.csv:line 1: "\\u001b[31m1" is not a non-negative integer (column 2)'],
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
      [
        h + "2 2 1\n1 1 1\n2 2 1\n",
        "BAD_INPUT",
        "matrix: m.mtx:line 4: more entries than the 1 the size line announces",
      ],
      [h + "2 2 1\n3 1 1\n", "BAD_INPUT", "matrix: m.mtx:line 3: index (3, 1) is outside 1..2"],
      [h + "2 2 1\n0 1 1\n", "BAD_INPUT", "matrix: m.mtx:line 3: index (0, 1) is outside 1..2"],
      [h + "2 2 1\n1 1 -4\n", "BAD_INPUT", "matrix: m.mtx:line 3: '-4' is not a non-negative integer (column 3)"],
      [
        h.replace("integer", "real") + "2 2 1\n1 1 2.5\n",
        "BAD_INPUT",
        "matrix: m.mtx:line 3: '2.5' is not an integer: entries count elements (column 3)",
      ],
      [
        h.replace("integer", "real") + "2 2 1\n1 1 nan\n",
        "BAD_INPUT",
        "matrix: m.mtx:line 3: 'nan' is not a number (column 3)",
      ],
      [h + "2 2 2\n1 1 1\n1 1 2\n", "BAD_INPUT", "matrix: m.mtx:line 4: entry (1, 1) appears twice"],
      [
        h + "0 0 0\n",
        "BAD_INPUT",
        "matrix: m.mtx:line 2: the size line gives a 0 x 0 matrix; a matrix needs at least 1 row",
      ],
      [
        h + "2000000 2000000 0\n",
        "BAD_INPUT",
        "matrix: m.mtx:line 2: the size line gives a 2000000 x 2000000 matrix; P is at most 1048576",
      ],
      [
        h + "2 2 5\n",
        "BAD_INPUT",
        "matrix: m.mtx:line 2: the size line announces 5 entries, more than the 4 of a 2 x 2 matrix",
      ],
      [h, "BAD_INPUT", "matrix: m.mtx:line 2: missing the size line 'P P nnz'"],
      [
        h.replace("general", "symmetric") + "2 2 0\n",
        "BAD_FORMAT",
        "matrix: m.mtx:line 1: only 'general' symmetry is supported, got 'symmetric'",
      ],
      [
        h.replace("coordinate", "array") + "2 2\n",
        "BAD_FORMAT",
        "matrix: m.mtx:line 1: only 'matrix coordinate' Matrix Market files are supported, got 'matrix array'",
      ],
      [
        h.replace("integer", "complex") + "2 2 0\n",
        "BAD_FORMAT",
        "matrix: m.mtx:line 1: the field must be integer, real or pattern, got 'complex'",
      ],
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

describe("matrix files: streaming", () => {
  it("reads every format in chunks of 1 to 7 bytes, elementBytes kept, with or without a byte-order mark and an extension", () => {
    fc.assert(
      fc.property(
        matrixArb({ maxP: 9 }),
        fc.integer({ min: 1, max: 64 }),
        fc.constantFrom(...kinds),
        fc.boolean(),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        fc.boolean(),
        (m0, eb, k, sparse, chunkSize, bom, named) => {
          const m = withBytes(m0, eb);
          const f = join(dir, named ? `chunked.${k}` : "chunked");
          writeFileSync(f, (bom ? "\ufeff" : "") + text(m, k, sparse));
          same(readMatrixFile(f, { chunkSize }), m);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a byte-order mark split across the first reads (chunks of 1 and 2 bytes) does not change the format", () => {
    const m = withBytes(
      matrixFromRows([
        [0, 3],
        [4, 0],
      ]),
      22,
    );
    for (const k of kinds) {
      for (const named of [true, false]) {
        const f = join(dir, named ? `bom.${k}` : "bom");
        writeFileSync(f, "\ufeff" + text(m, k));
        for (const chunkSize of [1, 2]) same(readMatrixFile(f, { chunkSize }), m);
      }
    }
  });

  it("a long blank start is held as it came, not joined again at every read; its lines still count", () => {
    const m = matrixFromRows([
      [0, 3],
      [4, 0],
    ]);
    const pad = " ".repeat(1 << 20) + "\n".repeat(1000);
    const joined = vi.spyOn(Buffer, "concat");
    try {
      for (const k of ["json", "csv"] as const) {
        const f = join(dir, "padded"); // no extension: the format comes from the content, after the blanks
        writeFileSync(f, pad + text(m, k));
        joined.mockClear();
        same(readMatrixFile(f, { chunkSize: 4096 }), m);
        // bytes copied by Buffer.concat: the 1 MiB start joined at every 4 KiB read was about 130 MiB
        const copied = joined.mock.calls.reduce((n, [list]) => n + list.reduce((a, b) => a + b.length, 0), 0);
        expect(copied).toBeLessThan(pad.length);
      }
      const bad = join(dir, "padded.csv");
      writeFileSync(bad, pad + "0,1\n1,x\n");
      expect(errorOf(() => readMatrixFile(bad, { chunkSize: 4096 })).message).toMatch(/padded\.csv:line 1002: 'x'/);
    } finally {
      joined.mockRestore();
    }
  });

  it("writes in small pieces, atomically, the same bytes as the one-string writers", async () => {
    const m = withBytes(
      matrixFromRows([
        [0, 3, 0],
        [4, 0, 5],
        [0, 6, 0],
      ]),
      22,
    );
    for (const k of kinds) {
      for (const sparse of [true, false]) {
        const f = join(dir, `pieces-${sparse}.${k}`);
        await writeMatrixFile(m, f, k, { sparse, pieceSize: 3 });
        expect(readFileSync(f, "utf8")).toBe(text(m, k, sparse));
        same(readMatrixFile(f, { chunkSize: 2 }), m);
      }
    }
    const missing = join(dir, "no-such-dir", "m.json");
    await expect(writeMatrixFile(m, missing)).rejects.toThrow(
      `matrix: ${missing}: cannot write: the directory ${dirname(missing)} does not exist`,
    );
    expect(existsSync(join(dir, "no-such-dir"))).toBe(false);
  });
});

describe("matrix files: the format writeMatrixFile infers", () => {
  it("without a format, the one the extension implies as the reader reads it (else JSON); each reads back equal", async () => {
    const m = withBytes(
      matrixFromRows([
        [0, 3, 0],
        [4, 0, 5],
        [0, 6, 0],
      ]),
      4,
    );
    const cases = [
      ["json", "json"],
      ["csv", "csv"],
      ["CSV", "csv"],
      ["mtx", "mtx"],
      ["mm", "mtx"],
      ["txt", "json"],
    ] as const;
    for (const [ext, format] of cases) {
      const f = join(dir, `inferred.${ext}`);
      await writeMatrixFile(m, f);
      expect(readFileSync(f, "utf8"), ext).toBe(text(m, format));
      same(readMatrixFile(f), m);
    }
    // a format given wins over the extension (the reader then reads it as told)
    const f = join(dir, "told.csv");
    await writeMatrixFile(m, f, "json");
    same(readMatrixFile(f, { format: "json" }), m);
  });
});

describe("matrix files: streaming (continued)", () => {
  it("the streaming JSON reader accepts exactly what JSON.parse + ajv + the meaning checks accept", () => {
    // the reference: the whole document parsed, validated with the full schema, then built
    const reference = (t: string): string => {
      try {
        const d = JSON.parse(t) as { p: number; elementBytes?: number; rows?: number[][]; entries?: number[][] };
        validateWithSchema("matrix", d, "matrix");
        if (d.rows !== undefined) {
          if (d.rows.length !== d.p) return "error";
          matrixFromRows(d.rows);
        } else matrixFromEntries(d.p, d.entries ?? []);
        return "ok";
      } catch {
        return "error";
      }
    };
    const parts = [
      '"format":"commplan.matrix/v1"',
      '"format":"x"',
      '"p":2',
      '"p":3',
      '"p":0',
      '"p":1.5',
      '"p":"2"',
      '"elementBytes":4',
      '"elementBytes":0',
      '"rows":[[0,1],[2,3]]',
      '"rows":[[0,1],[2]]',
      '"rows":[[0,-1],[2,3]]',
      '"rows":[[0,1.5],[2,3]]',
      '"rows":[]',
      '"rows":[[0,1],[2,3],[4,5]]',
      '"rows":{}',
      '"rows":[[0,"1"],[2,3]]',
      '"rows":[[0,[1]],[2,3]]',
      '"entries":[[0,1,5]]',
      '"entries":[]',
      '"entries":[[0,2,1]]',
      '"entries":[[0,1,1],[0,1,1]]',
      '"entries":[[0,1]]',
      '"entries":[[0,1,1,1]]',
      '"entries":[[0,1,-1]]',
      '"entries":[{}]',
      '"x":1',
      '"x":{"rows":[[1]]}',
    ];
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...parts), {
          minLength: 1,
          maxLength: 5,
          selector: (x) => x.slice(0, x.indexOf(":")),
        }),
        (picked) => {
          const t = `{${picked.join(",")}}`;
          let got = "ok";
          try {
            parseMatrixText(t, { file: "m.json" });
          } catch (e) {
            if (!isCommplanError(e)) throw e;
            got = "error";
          }
          expect(got, t).toBe(reference(t));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("matrix files: format choice and elementBytes", () => {
  it("the extension decides first, then the content; a surprising choice is named", () => {
    const f = (name: string, body: string): string => {
      const path = join(dir, name);
      writeFileSync(path, body);
      return path;
    };
    expect(errorOf(() => readMatrixFile(f("arr.json", "[[0,1],[1,0]]"))).message).toMatch(
      /arr\.json: not a commplan\.matrix\/v1 document: the top level is not a JSON object$/,
    );
    expect(
      errorOf(() => readMatrixFile(f("j.csv", '{"format":"commplan.matrix/v1","p":1,"rows":[[0]]}'))).message,
    ).toMatch(/j\.csv:line 1: .* \(read as CSV because of the file name's extension\)$/);
    expect(errorOf(() => readMatrixFile(f("guess.txt", "0,1\n1,x\n"))).message).toMatch(
      /guess\.txt:line 2: 'x' is not a non-negative integer \(column 2\) \(read as CSV: the text starts with neither/,
    );
    expect(errorOf(() => readMatrixFile(f("empty.json", ""))).message).toMatch(
      /empty\.json:line 1: invalid JSON: the document is empty/,
    );
    // no extension, no content: nothing to guess from
    expect(errorOf(() => readMatrixFile(f("empty.txt", ""))).message).toBe(
      `matrix: ${join(dir, "empty.txt")}: the input is empty`,
    );
    expect(errorOf(() => readMatrixFile(f("blank.txt", "\ufeff \r\n"), { chunkSize: 1 })).message).toBe(
      `matrix: ${join(dir, "blank.txt")}: the input is empty (only blanks)`,
    );
    expect(errorOf(() => parseMatrixText("")).message).toBe("matrix: the input is empty");
    same(readMatrixFile(f("m.mm", "%%MatrixMarket matrix coordinate integer general\n1 1 0\n")), matrixFromRows([[0]]));
  });

  it("CSV and Matrix Market keep elementBytes in a comment line; the option overrides every format", () => {
    const m = withBytes(
      matrixFromRows([
        [0, 3],
        [4, 0],
      ]),
      22,
    );
    expect(matrixToCsvText(m)).toBe("# commplan elementBytes=22\n0,3\n4,0\n");
    expect(matrixToMtxText(m)).toBe(
      "%%MatrixMarket matrix coordinate integer general\n%% commplan elementBytes=22\n2 2 2\n1 2 3\n2 1 4\n",
    );
    for (const t of [matrixToCsvText(m), matrixToMtxText(m), matrixToJsonText(m)]) {
      same(parseMatrixText(t), m);
      same(parseMatrixText(t, { elementBytes: 48 }), withBytes(m, 48));
    }
    expect(errorOf(() => parseMatrixText("# commplan elementBytes=0\n0,1\n1,0\n", { file: "m.csv" })).message).toBe(
      "matrix: m.csv:line 1: elementBytes in the comment must be a positive integer, got '0'",
    );
  });

  it("a commplan comment that is not exactly one elementBytes=N, or a second one, is refused naming its line", () => {
    const csv = (head: string): string =>
      errorOf(() => parseMatrixText(`${head}0,1\n1,0\n`, { file: "m.csv" })).message;
    expect(csv("# commplan elmentBytes=4\n")).toBe(
      "matrix: m.csv:line 1: a commplan comment takes exactly one setting, elementBytes=N; got '# commplan elmentBytes=4'",
    );
    expect(csv("# commplan elementBytes=4 elementBytes=16\n")).toMatch(
      /^matrix: m\.csv:line 1: a commplan comment takes exactly one setting, elementBytes=N; got '# commplan elem/,
    );
    expect(csv("# commplan\n")).toMatch(/line 1: a commplan comment takes exactly one setting/);
    expect(csv("# commplan elementBytes=4\n# commplan elementBytes=16\n")).toBe(
      "matrix: m.csv:line 2: a second elementBytes comment (the first is on line 1)",
    );
    const mtx =
      "%%MatrixMarket matrix coordinate integer general\n%% commplan elementBytes=4\n% commplan eb=2\n1 1 0\n";
    expect(errorOf(() => parseMatrixText(mtx, { file: "m.mtx" })).message).toMatch(
      /^matrix: m\.mtx:line 3: a commplan comment takes exactly one setting/,
    );
    // other comments, a word that only begins with commplan included, are still skipped
    const m = parseMatrixText("# commplanning notes\n# commplan elementBytes=4\n# by commplan\n0,1\n1,0\n");
    expect([m.p, m.elementBytes]).toEqual([2, 4]);
  });
});
