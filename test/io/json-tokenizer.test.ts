import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeJsonString,
  findJsonSyntaxError,
  JsonSyntaxError,
  JsonTokenizer,
  type JsonTokenHandler,
} from "../../src/io/json-tokenizer.js";

/** Builds plain values from tokens, to compare with JSON.parse. */
class ValueBuilder implements JsonTokenHandler {
  private readonly stack: (unknown[] | Record<string, unknown>)[] = [];
  private readonly keys: string[] = [];
  root: unknown = undefined;
  private add(v: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) this.root = v;
    else if (Array.isArray(top)) top.push(v);
    else
      Object.defineProperty(top, this.keys[this.keys.length - 1]!, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  startObject(): void {
    const o = {};
    this.add(o);
    this.stack.push(o);
    this.keys.push("");
  }
  endObject(): void {
    this.stack.pop();
    this.keys.pop();
  }
  startArray(): void {
    const a: unknown[] = [];
    this.add(a);
    this.stack.push(a);
    this.keys.push("");
  }
  endArray(): void {
    this.stack.pop();
    this.keys.pop();
  }
  key(b: Buffer, s: number, e: number, x: boolean): void {
    this.keys[this.keys.length - 1] = decodeJsonString(b, s, e, x);
  }
  string(b: Buffer, s: number, e: number, x: boolean): void {
    this.add(decodeJsonString(b, s, e, x));
  }
  number(v: number): void {
    this.add(v);
  }
  literal(v: boolean | null): void {
    this.add(v);
  }
}

function parseInPieces(bytes: Buffer, cuts: number[]): unknown {
  const b = new ValueBuilder();
  const t = new JsonTokenizer(b);
  let from = 0;
  for (const c of [...cuts].sort((x, y) => x - y)) {
    t.write(bytes.subarray(from, Math.max(from, c)));
    from = Math.max(from, c);
  }
  t.write(bytes.subarray(from));
  t.end();
  return b.root;
}

describe("JsonTokenizer", () => {
  it("gives the tokens JSON.parse sees, whatever the chunk boundaries", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (v, cuts, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : undefined);
        const bytes = Buffer.from(text, "utf8");
        expect(
          parseInPieces(
            bytes,
            cuts.map((c) => c % (bytes.length + 1)),
          ),
        ).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("reads numbers, escapes and UTF-8 split at every byte", () => {
    const text =
      '{"k\\u0041y":[0,-0.5,12,1e3,-2E-2,123456789012345678901,9007199254740993,"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9","é中😀",true,false,null]}';
    const bytes = Buffer.from(text, "utf8");
    const want = JSON.parse(text) as unknown;
    for (let k = 0; k <= bytes.length; k++) expect(parseInPieces(bytes, [k, k + 1, k + 3])).toEqual(want);
  });

  it("rejects what JSON.parse rejects, with line and column", () => {
    const cases: [string, string, number, number][] = [
      ["", "the document is empty", 1, 1],
      ["  \n ", "the document is empty", 2, 2],
      ["{", "unexpected end of input (1 unclosed bracket)", 1, 2],
      ["[1,]", "unexpected ']' (expected a value)", 1, 4],
      ['{"a" 1}', "unexpected '1' (expected ':')", 1, 6],
      ['{"a":1,}', "unexpected '}' (expected a property name)", 1, 8],
      ["{,}", "unexpected ',' (expected a property name or '}')", 1, 2],
      ["[1}", "unexpected '}' (expected ',' or ']')", 1, 3],
      ["01", "unexpected '1' after the end of the document", 1, 2],
      ["-", "unexpected end of input in a number", 1, 2],
      ["1.", "unexpected end of input in a number", 1, 3],
      ["1.e5", "expected a digit after '.', got 'e'", 1, 3],
      ["-x", "expected a digit after '-', got 'x'", 1, 2],
      ['"\\x"', "invalid escape '\\x' in a string", 1, 3],
      ['"\\u12g4"', "invalid \\u escape in a string ('g' is not a hex digit)", 1, 6],
      ['"a\nb"', "control character byte 0x0a in a string", 1, 3],
      ['"abc', "unexpected end of input in a string", 1, 5],
      ["tru", "unexpected end of input in 'true'", 1, 4],
      ["nul1", "unexpected '1' (expected 'null')", 1, 4],
      ["[1 2]", "unexpected '2' (expected ',' or ']')", 1, 4],
      ['{\n  "a":\n    x}', "unexpected 'x' (expected a value)", 3, 5],
      ["[NaN]", "unexpected 'N' (expected a value)", 1, 2],
      ["\ufeff{}", "unexpected byte 0xef (expected a value)", 1, 1],
    ];
    for (const [text, detail, line, column] of cases) {
      expect(() => JSON.parse(text), text).toThrow();
      const e = findJsonSyntaxError(text);
      expect(e, text).toBeInstanceOf(JsonSyntaxError);
      expect([e!.detail, e!.line, e!.column], text).toEqual([detail, line, column]);
      // byte by byte: the same error
      const t = new JsonTokenizer(new ValueBuilder());
      const bytes = Buffer.from(text, "utf8");
      expect(() => {
        for (let k = 0; k < bytes.length; k++) t.write(bytes.subarray(k, k + 1));
        t.end();
      }).toThrow(e!.message);
    }
  });

  it("finds no error in valid JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(findJsonSyntaxError(JSON.stringify(v))).toBeNull();
      }),
      { numRuns: 100 },
    );
  });
});
