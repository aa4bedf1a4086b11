/** Matrix limits: a schema-valid matrix is one the reader accepts at every limit, and one past a limit is refused by both, naming the field. */
import { describe, expect, it } from "vitest";
import { parseMatrixText } from "../../src/io/matrix-read.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { isCommplanError } from "../../src/model/errors.js";
import { MAX_DENSE_P, MAX_ELEMENT_BYTES, MAX_P } from "../../src/model/matrix.js";

function outcome(f: () => unknown): string {
  try {
    f();
    return "accepted";
  } catch (e) {
    if (isCommplanError(e)) return e.message;
    throw e;
  }
}

const doc = (fields: string): string => `{"format":"commplan.matrix/v1",${fields}}`;

describe("matrix limits: schema and reader agree", () => {
  const atLimit: [string, string][] = [
    ["elementBytes 1048576", doc(`"p":2,"elementBytes":${MAX_ELEMENT_BYTES},"rows":[[0,1],[1,0]]`)],
    ["an entry of 2^53 - 1 (dense)", doc('"p":2,"rows":[[0,9007199254740991],[1,0]]')],
    ["an entry of 2^53 - 1 (sparse)", doc('"p":2,"entries":[[1,0,9007199254740991]]')],
    [`p = ${MAX_P}`, doc(`"p":${MAX_P},"entries":[[${MAX_P - 1},0,3]]`)],
  ];
  it.each(atLimit)("at the limit, accepted by both: %s", (_n, text) => {
    expect(outcome(() => validateWithSchema("matrix", JSON.parse(text), "matrix"))).toBe("accepted");
    expect(outcome(() => parseMatrixText(text, { file: "m.json" }))).toBe("accepted");
  });

  const past: [string, string, RegExp][] = [
    [
      "elementBytes 1048577",
      doc(`"p":2,"elementBytes":${MAX_ELEMENT_BYTES + 1},"rows":[[0,1],[1,0]]`),
      /\/elementBytes must be <= 1048576/,
    ],
    ["elementBytes 1e15", doc('"p":2,"elementBytes":1e15,"rows":[[0,1],[1,0]]'), /\/elementBytes must be <= 1048576/],
    ["an entry of 2^53", doc('"p":2,"rows":[[0,9007199254740992],[1,0]]'), /(2\^53 - 1|<= 9007199254740991)/],
    ["a sparse entry of 2^60", doc('"p":2,"entries":[[1,0,1152921504606846976]]'), /(2\^53 - 1|<= 9007199254740991)/],
    [
      `p = ${MAX_P + 1}`,
      doc(`"p":${MAX_P + 1},"entries":[]`),
      /p = 1048577 exceeds the maximum 1048576|\/p must be <= 1048576/,
    ],
    [
      `dense p = ${MAX_DENSE_P + 1}`,
      doc(`"p":${MAX_DENSE_P + 1},"rows":[[0]]`),
      /p = 16385 exceeds the maximum 16384 of a dense matrix|\/p must be <= 16384/,
    ],
    ["p = 1e300", doc('"p":1e300,"entries":[]'), /p|\/p/],
  ];
  it.each(past)("past the limit, refused by both: %s", (_n, text, re) => {
    expect(outcome(() => validateWithSchema("matrix", JSON.parse(text), "matrix"))).not.toBe("accepted");
    const r = outcome(() => parseMatrixText(text, { file: "m.json" }));
    expect(r).toMatch(/^matrix: m\.json/);
    expect(r).toMatch(re);
  });

  it("an entry above 2^53 - 1 is refused without quoting the value the reader rounded it to", () => {
    for (const body of ['"rows":[[0,0,0],[0,0,9007199254740993],[0,0,0]]', '"entries":[[1,2,9007199254740993]]']) {
      const r = outcome(() => parseMatrixText(doc(`"p":3,${body}`), { file: "m.json" }));
      expect(r).toMatch(/^matrix: m\.json(:line 1)?: entry M\[1\]\[2\] is not an exactly representable integer/);
      expect(r).toContain("(above 2^53 - 1)");
      expect(r).not.toContain("9007199254740992"); // JSON.parse's rounding of ...993
    }
    expect(outcome(() => parseMatrixText("0,0,0\n0,0,9007199254740993\n0,0,0\n", { format: "csv" }))).toContain(
      "'9007199254740993' exceeds 2^53 - 1", // the CSV reader quotes the text as written
    );
  });

  it("CSV and Matrix Market: the entry limit and the elementBytes comment limit", () => {
    expect(outcome(() => parseMatrixText("0,9007199254740991\n0,0\n", { format: "csv" }))).toBe("accepted");
    expect(outcome(() => parseMatrixText("0,9007199254740992\n0,0\n", { format: "csv" }))).toMatch(/exceeds 2\^53 - 1/);
    expect(
      outcome(() =>
        parseMatrixText("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 9007199254740992\n", {
          format: "mtx",
        }),
      ),
    ).toMatch(/exceeds 2\^53 - 1/);
    expect(outcome(() => parseMatrixText(`# commplan elementBytes=${MAX_ELEMENT_BYTES}\n0\n`, { format: "csv" }))).toBe(
      "accepted",
    );
    expect(
      outcome(() => parseMatrixText(`# commplan elementBytes=${MAX_ELEMENT_BYTES + 1}\n0\n`, { format: "csv" })),
    ).toMatch(/elementBytes in the comment = 1048577 exceeds the maximum 1048576/);
  });

  it("--element-bytes past the limit is refused by the matrix constructor too (library callers)", () => {
    expect(outcome(() => parseMatrixText("0\n", { format: "csv", elementBytes: MAX_ELEMENT_BYTES + 1 }))).toMatch(
      /elementBytes = 1048577 exceeds the maximum 1048576/,
    );
  });
});

describe("matrix JSON: rows given before p are held against the memory budget", () => {
  const P = 1024;
  const rows = `"rows":[${Array.from({ length: P }, () => `[${new Array(P).fill(0).join(",")}]`).join(",\n")}]`;
  const MiB = 1 << 20;

  it("p first: read straight into the matrix under a budget that holds it", () => {
    const m = parseMatrixText(doc(`"p":${P},${rows}`), { file: "m.json", maxMemory: 16 * MiB });
    expect(m.p).toBe(P);
  });

  it("p last: the held rows are refused past the same budget (they were held unchecked, at 4 times the matrix)", () => {
    // 2^20 values held: 24 MiB, past 16 MiB (the matrix alone and its reading take 12)
    expect(outcome(() => parseMatrixText(doc(`${rows},"p":${P}`), { file: "m.json", maxMemory: 16 * MiB }))).toBe(
      "matrix: m.json:line 1024: holding the 1048576 values of rows given before p (give p first to read them " +
        "straight into the matrix) needs about 24 MiB, past the memory budget of 16 MiB (raise it with the option " +
        "maxMemory (bytes), e.g. 24M)",
    );
  });

  it("p last under a budget that holds them: the same matrix as p first", () => {
    const first = parseMatrixText(doc(`"p":${P},${rows.replace("[0,0", "[0,7")}`), { maxMemory: 64 * MiB });
    const last = parseMatrixText(doc(`${rows.replace("[0,0", "[0,7")},"p":${P}`), { maxMemory: 64 * MiB });
    expect(last.p).toBe(P);
    expect(last.data[1]).toBe(7);
    expect(Array.from(last.data)).toEqual(Array.from(first.data));
  });
});

describe("matrix JSON: entries given before p are held against the memory budget", () => {
  const entries = `"entries":[${Array.from({ length: 1 << 17 }, (_, k) => `[${k >> 10},${k & 1023},1]`).join(",\n")}]`;
  const MiB = 1 << 20;

  it("p first under 16 MiB: read", () => {
    expect(parseMatrixText(doc(`"p":1024,${entries}`), { file: "m.json", maxMemory: 16 * MiB }).p).toBe(1024);
  });

  it("p last under the same budget: refused, the entries held as they came counted (they were not)", () => {
    expect(outcome(() => parseMatrixText(doc(`${entries},"p":1024`), { file: "m.json", maxMemory: 16 * MiB }))).toMatch(
      /^matrix: m\.json:line 131072: a matrix of more than 131072 entries given before p needs about 18\.5 MiB, past the memory budget of 16 MiB/,
    );
    const m = parseMatrixText(doc(`${entries},"p":1024`), { file: "m.json", maxMemory: 32 * MiB });
    expect(m.p).toBe(1024);
  });
});
