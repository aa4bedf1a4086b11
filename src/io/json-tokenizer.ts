/** JsonTokenizer: an incremental byte-level JSON (RFC 8259) tokenizer over Buffer chunks, with line and column of every syntax error. */

/** Receives the tokens of a syntactically valid document, in order. */
export interface JsonTokenHandler {
  startObject(): void;
  endObject(): void;
  startArray(): void;
  endArray(): void;
  /** An object key: `buf[start, end)` is the raw UTF-8 text between the quotes; `escaped` when it holds a backslash. */
  key(buf: Buffer, start: number, end: number, escaped: boolean): void;
  /** A string value, given like `key`. */
  string(buf: Buffer, start: number, end: number, escaped: boolean): void;
  number(value: number): void;
  /** true, false or null. */
  literal(value: boolean | null): void;
}

/** A syntax error at a 1-based line and column (columns count bytes). */
export class JsonSyntaxError extends Error {
  override readonly name = "JsonSyntaxError";
  constructor(readonly detail: string, readonly line: number, readonly column: number) {
    super(`${detail} at line ${line}, column ${column}`);
  }
}

/** Decodes the raw text of a string token (as given to the handler) to a JS string. */
export function decodeJsonString(buf: Buffer, start: number, end: number, escaped: boolean): string {
  const raw = buf.toString("utf8", start, end);
  // The tokenizer has checked every escape, so JSON.parse cannot fail here.
  return escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
}

// Tokenizer states.
const S_VALUE = 0; // a value must come (top level, after ':' or after ',' in an array)
const S_VALUE_OR_CLOSE = 1; // after '['
const S_KEY_OR_CLOSE = 2; // after '{'
const S_KEY = 3; // after ',' in an object
const S_COLON = 4;
const S_COMMA_OR_CLOSE = 5;
const S_END = 6; // the top-level value is complete
const S_STR = 7;
const S_STR_ESC = 8;
const S_STR_U = 9;
const S_NUM = 10;
const S_LIT = 11;

// Number sub-states.
const N_MINUS = 1, N_ZERO = 2, N_INT = 3, N_DOT = 4, N_FRAC = 5, N_E = 6, N_ESIGN = 7, N_EXP = 8;

const IN_OBJECT = 1, IN_ARRAY = 2;

const LITERALS: readonly [string, boolean | null][] = [["true", true], ["false", false], ["null", null]];

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function show(c: number): string {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, "0")}`;
}

/** Feed chunks with `write`, then call `end`; tokens go to the handler, syntax errors throw JsonSyntaxError. */
export class JsonTokenizer {
  /** Current line (1-based). */
  line = 1;
  private lineStart = 0; // absolute offset of the first byte of the current line
  private base = 0; // absolute offset of the current chunk
  private state = S_VALUE;
  private readonly stack: number[] = [];
  // token in progress
  private isKey = false;
  private escaped = false;
  private uLeft = 0;
  private pending: Buffer[] = [];
  private numSub = 0;
  private numSimple = true;
  private numVal = 0;
  private numDigits = 0;
  private numText = "";
  private lit = "";
  private litValue: boolean | null = null;
  private litPos = 0;
  private sawValue = false;

  constructor(private readonly handler: JsonTokenHandler) {}

  /** Absolute byte offset where the next chunk starts. */
  get offset(): number {
    return this.base;
  }

  private fail(detail: string, at: number): never {
    throw new JsonSyntaxError(detail, this.line, at - this.lineStart + 1);
  }

  private afterValue(): number {
    return this.stack.length === 0 ? S_END : S_COMMA_OR_CLOSE;
  }

  /** Consumes one chunk. */
  write(buf: Buffer): void {
    const n = buf.length;
    const h = this.handler;
    const stack = this.stack;
    let state = this.state;
    let i = 0;
    let tokStart = 0; // start of the token in progress within this chunk
    while (i < n) {
      switch (state) {
        case S_STR:
        case S_STR_ESC:
        case S_STR_U: {
          let j = i;
          for (;;) {
            if (state === S_STR) {
              // fast scan to the next quote, backslash or control character
              let c = 0;
              while (j < n && (c = buf[j]!) !== 0x22 && c !== 0x5c && c >= 0x20) j++;
              if (j >= n || c === 0x22) break;
              if (c < 0x20) this.fail(`control character ${show(c)} in a string`, this.base + j);
              state = S_STR_ESC;
              this.escaped = true;
              j++;
            } else if (j >= n) break;
            else if (state === S_STR_ESC) {
              const c = buf[j]!;
              if (c === 0x75) {
                state = S_STR_U;
                this.uLeft = 4;
              } else if (c === 0x22 || c === 0x5c || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74) state = S_STR;
              else this.fail(`invalid escape '\\${String.fromCharCode(c)}' in a string`, this.base + j);
              j++;
            } else {
              const c = buf[j]!;
              if (!isHex(c)) this.fail(`invalid \\u escape in a string (${show(c)} is not a hex digit)`, this.base + j);
              if (--this.uLeft === 0) state = S_STR;
              j++;
            }
          }
          if (j >= n) {
            i = n; // the partial token is saved after the loop
            break;
          }
          let b = buf, s = tokStart, e = j;
          if (this.pending.length > 0) {
            this.pending.push(buf.subarray(tokStart, j));
            b = Buffer.concat(this.pending);
            s = 0;
            e = b.length;
            this.pending = [];
          }
          this.state = state; // handlers may read line; keep the object consistent
          if (this.isKey) {
            h.key(b, s, e, this.escaped);
            state = S_COLON;
          } else {
            h.string(b, s, e, this.escaped);
            state = stack.length === 0 ? S_END : S_COMMA_OR_CLOSE;
          }
          i = j + 1;
          break;
        }
        case S_NUM: {
          let j = i;
          let sub = this.numSub;
          if (sub === N_INT && this.numSimple) {
            // fast path: the digits of a non-negative integer
            let val = this.numVal, c = 0;
            const from = j;
            while (j < n && (c = buf[j]!) >= 0x30 && c <= 0x39) {
              val = val * 10 + (c - 0x30);
              j++;
            }
            this.numVal = val;
            this.numDigits += j - from;
            if (j < n && c !== 0x2e && c !== 0x65 && c !== 0x45) {
              this.state = state;
              h.number(this.numDigits <= 15 ? val : Number(this.numText + buf.toString("latin1", tokStart, j)));
              state = stack.length === 0 ? S_END : S_COMMA_OR_CLOSE;
              i = j; // the byte that ended the number is read again
              break;
            }
          }
          while (j < n) {
            const c = buf[j]!;
            if (sub === N_INT) {
              if (c === 0x2e) sub = N_DOT;
              else if (c === 0x65 || c === 0x45) sub = N_E;
              else if (c < 0x30 || c > 0x39) break;
            } else if (sub === N_MINUS) {
              if (c === 0x30) sub = N_ZERO;
              else if (c > 0x30 && c <= 0x39) sub = N_INT;
              else this.fail(`expected a digit after '-', got ${show(c)}`, this.base + j);
            } else if (sub === N_ZERO) {
              if (c === 0x2e) sub = N_DOT;
              else if (c === 0x65 || c === 0x45) sub = N_E;
              else break;
            } else if (sub === N_DOT) {
              if (c >= 0x30 && c <= 0x39) sub = N_FRAC;
              else this.fail(`expected a digit after '.', got ${show(c)}`, this.base + j);
            } else if (sub === N_FRAC) {
              if (c === 0x65 || c === 0x45) sub = N_E;
              else if (c < 0x30 || c > 0x39) break;
            } else if (sub === N_E) {
              if (c === 0x2b || c === 0x2d) sub = N_ESIGN;
              else if (c >= 0x30 && c <= 0x39) sub = N_EXP;
              else this.fail(`expected a digit in the exponent, got ${show(c)}`, this.base + j);
            } else if (sub === N_ESIGN) {
              if (c >= 0x30 && c <= 0x39) sub = N_EXP;
              else this.fail(`expected a digit in the exponent, got ${show(c)}`, this.base + j);
            } else if (c < 0x30 || c > 0x39) break; // N_EXP
            j++;
          }
          if (sub !== N_INT && sub !== N_ZERO) this.numSimple = false;
          this.numSub = sub;
          if (j >= n) {
            i = n; // the partial token is saved after the loop
            break;
          }
          if (sub !== N_INT && sub !== N_ZERO && sub !== N_FRAC && sub !== N_EXP) this.fail(`unexpected ${show(buf[j]!)} in a number`, this.base + j);
          this.state = state;
          h.number(this.numSimple && this.numDigits <= 15 ? this.numVal : Number(this.numText + buf.toString("latin1", tokStart, j)));
          state = stack.length === 0 ? S_END : S_COMMA_OR_CLOSE;
          i = j; // the byte that ended the number is read again
          break;
        }
        case S_LIT: {
          const c = buf[i]!;
          if (c !== this.lit.charCodeAt(this.litPos)) this.fail(`unexpected ${show(c)} (expected '${this.lit}')`, this.base + i);
          i++;
          if (++this.litPos === this.lit.length) {
            this.state = state;
            h.literal(this.litValue);
            state = this.afterValue();
          }
          break;
        }
        default: {
          const c = buf[i]!;
          if (c === 0x20 || c === 0x09 || c === 0x0d) {
            i++;
            break;
          }
          if (c === 0x0a) {
            i++;
            this.line++;
            this.lineStart = this.base + i;
            break;
          }
          this.state = state;
          switch (state) {
            case S_VALUE:
            case S_VALUE_OR_CLOSE:
              if (c === 0x5d && state === S_VALUE_OR_CLOSE) {
                stack.pop();
                h.endArray();
                state = this.afterValue();
                i++;
                break;
              }
              this.sawValue = true;
              if (c === 0x7b) {
                stack.push(IN_OBJECT);
                h.startObject();
                state = S_KEY_OR_CLOSE;
                i++;
              } else if (c === 0x5b) {
                stack.push(IN_ARRAY);
                h.startArray();
                state = S_VALUE_OR_CLOSE;
                i++;
              } else if (c === 0x22) {
                this.isKey = false;
                this.escaped = false;
                state = S_STR;
                tokStart = ++i;
              } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
                this.numSub = c === 0x2d ? N_MINUS : c === 0x30 ? N_ZERO : N_INT;
                this.numSimple = c !== 0x2d;
                this.numVal = c === 0x2d ? 0 : c - 0x30;
                this.numDigits = 1;
                this.numText = "";
                state = S_NUM;
                tokStart = i++;
              } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
                const [word, value] = LITERALS[c === 0x74 ? 0 : c === 0x66 ? 1 : 2]!;
                this.lit = word;
                this.litValue = value;
                this.litPos = 1;
                state = S_LIT;
                i++;
              } else this.fail(`unexpected ${show(c)} (expected a value)`, this.base + i);
              break;
            case S_KEY_OR_CLOSE:
            case S_KEY:
              if (c === 0x22) {
                this.isKey = true;
                this.escaped = false;
                state = S_STR;
                tokStart = ++i;
              } else if (c === 0x7d && state === S_KEY_OR_CLOSE) {
                stack.pop();
                h.endObject();
                state = this.afterValue();
                i++;
              } else this.fail(`unexpected ${show(c)} (expected a property name${state === S_KEY_OR_CLOSE ? " or '}'" : ""})`, this.base + i);
              break;
            case S_COLON:
              if (c !== 0x3a) this.fail(`unexpected ${show(c)} (expected ':')`, this.base + i);
              state = S_VALUE;
              i++;
              break;
            case S_COMMA_OR_CLOSE: {
              const top = stack[stack.length - 1];
              if (c === 0x2c) state = top === IN_OBJECT ? S_KEY : S_VALUE;
              else if (c === 0x7d && top === IN_OBJECT) {
                stack.pop();
                h.endObject();
                state = this.afterValue();
              } else if (c === 0x5d && top === IN_ARRAY) {
                stack.pop();
                h.endArray();
                state = this.afterValue();
              } else this.fail(`unexpected ${show(c)} (expected ',' or '${top === IN_OBJECT ? "}" : "]"}')`, this.base + i);
              i++;
              break;
            }
            default: // S_END
              this.fail(`unexpected ${show(c)} after the end of the document`, this.base + i);
          }
        }
      }
    }
    // A token still open at the end of the chunk keeps its bytes for the next one.
    if (state === S_NUM) this.numText += buf.toString("latin1", tokStart, n);
    else if (state === S_STR || state === S_STR_ESC || state === S_STR_U) {
      if (tokStart < n) this.pending.push(Buffer.from(buf.subarray(tokStart, n)));
    }
    this.state = state;
    this.base += n;
  }

  /** Ends the input; throws when the document is incomplete or empty. */
  end(): void {
    const at = this.base;
    if (this.state === S_NUM) {
      const sub = this.numSub;
      if (sub !== N_INT && sub !== N_ZERO && sub !== N_FRAC && sub !== N_EXP) this.fail("unexpected end of input in a number", at);
      this.handler.number(this.numSimple && this.numDigits <= 15 ? this.numVal : Number(this.numText));
      this.state = this.afterValue();
    }
    if (this.state === S_END) return;
    if (!this.sawValue) this.fail("the document is empty", at);
    const what = this.state === S_STR || this.state === S_STR_ESC || this.state === S_STR_U ? "in a string" : this.state === S_LIT ? `in '${this.lit}'` : this.stack.length > 0 ? `(${this.stack.length} unclosed ${this.stack.length === 1 ? "bracket" : "brackets"})` : "";
    this.fail(`unexpected end of input ${what}`.trimEnd(), at);
  }
}

/** A handler that ignores every token (to check syntax only). */
export const IGNORE_TOKENS: JsonTokenHandler = {
  startObject() {},
  endObject() {},
  startArray() {},
  endArray() {},
  key() {},
  string() {},
  number() {},
  literal() {},
};

/** The first syntax error of a JSON text (with line and column), or null when the syntax is valid. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const t = new JsonTokenizer(IGNORE_TOKENS);
  try {
    t.write(Buffer.from(text, "utf8"));
    t.end();
    return null;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e;
    throw e;
  }
}
