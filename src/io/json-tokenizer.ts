/**
 * JsonTokenizer: an incremental byte-level JSON (RFC 8259) tokenizer over Buffer chunks, with line and column of every
 * syntax error.
 */

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
  constructor(
    readonly detail: string,
    readonly line: number,
    readonly column: number,
  ) {
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
const N_MINUS = 1,
  N_ZERO = 2,
  N_INT = 3,
  N_DOT = 4,
  N_FRAC = 5,
  N_E = 6,
  N_ESIGN = 7,
  N_EXP = 8;

const IN_OBJECT = 1,
  IN_ARRAY = 2;

const LITERALS: readonly [string, boolean | null][] = [
  ["true", true],
  ["false", false],
  ["null", null],
];

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
  private tokStart = 0; // start of the token in progress within the current chunk

  constructor(private readonly handler: JsonTokenHandler) {}

  /** Absolute byte offset where the next chunk starts. */
  get offset(): number {
    return this.base;
  }

  private fail(detail: string, at: number): never {
    throw new JsonSyntaxError(detail, this.line, at - this.lineStart + 1);
  }

  /** Throws "unexpected <byte c> (expected <what>)" at chunk index i. */
  private unexpected(c: number, i: number, what: string): never {
    this.fail(`unexpected ${show(c)} (expected ${what})`, this.base + i);
  }

  private afterValue(): number {
    return this.stack.length === 0 ? S_END : S_COMMA_OR_CLOSE;
  }

  /** Consumes one chunk. */
  write(buf: Buffer): void {
    const n = buf.length;
    let i = 0;
    this.tokStart = 0;
    while (i < n) {
      const state = this.state;
      if (state === S_NUM) i = this.readNumber(buf, i);
      else if (state === S_STR || state === S_STR_ESC || state === S_STR_U) i = this.readString(buf, i);
      else if (state === S_LIT) i = this.readLiteral(buf, i);
      else i = this.readBetweenTokens(buf, i);
    }
    // A token still open at the end of the chunk keeps its bytes for the next one.
    const state = this.state;
    if (state === S_NUM) this.numText += buf.toString("latin1", this.tokStart, n);
    else if (state === S_STR || state === S_STR_ESC || state === S_STR_U) {
      if (this.tokStart < n) this.pending.push(Buffer.from(buf.subarray(this.tokStart, n)));
    }
    this.base += n;
  }

  /**
   * Reads string bytes from i (inside a string, maybe in an escape); returns where to read on (n when the string goes
   * on in the next chunk).
   */
  private readString(buf: Buffer, i: number): number {
    const n = buf.length;
    let state = this.state;
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
        } else if (
          c === 0x22 ||
          c === 0x5c ||
          c === 0x2f ||
          c === 0x62 ||
          c === 0x66 ||
          c === 0x6e ||
          c === 0x72 ||
          c === 0x74
        )
          state = S_STR;
        else this.fail(`invalid escape '\\${String.fromCharCode(c)}' in a string`, this.base + j);
        j++;
      } else {
        const c = buf[j]!;
        if (!isHex(c)) this.fail(`invalid \\u escape in a string (${show(c)} is not a hex digit)`, this.base + j);
        if (--this.uLeft === 0) state = S_STR;
        j++;
      }
    }
    this.state = state;
    if (j >= n) return n; // the partial token is saved at the end of the chunk
    this.emitString(buf, j);
    return j + 1;
  }

  /**
   * Hands the string (or key) that ends before the quote at `end` to the handler, joined with its bytes from earlier
   * chunks.
   */
  private emitString(buf: Buffer, end: number): void {
    let b = buf,
      s = this.tokStart,
      e = end;
    if (this.pending.length > 0) {
      this.pending.push(buf.subarray(this.tokStart, end));
      b = Buffer.concat(this.pending);
      s = 0;
      e = b.length;
      this.pending = [];
    }
    if (this.isKey) {
      this.handler.key(b, s, e, this.escaped);
      this.state = S_COLON;
    } else {
      this.handler.string(b, s, e, this.escaped);
      this.state = this.afterValue();
    }
  }

  /**
   * Reads number bytes from i; returns where to read on (the byte that ended the number is read again; n when it goes
   * on in the next chunk).
   */
  private readNumber(buf: Buffer, i: number): number {
    const n = buf.length;
    let j = i;
    if (this.numSub === N_INT && this.numSimple) {
      // fast path: the digits of a non-negative integer
      let val = this.numVal,
        c = 0;
      const from = j;
      while (j < n && (c = buf[j]!) >= 0x30 && c <= 0x39) {
        val = val * 10 + (c - 0x30);
        j++;
      }
      this.numVal = val;
      this.numDigits += j - from;
      if (j < n && c !== 0x2e && c !== 0x65 && c !== 0x45) {
        this.emitNumber(buf, j);
        return j;
      }
    }
    return this.readNumberTail(buf, j);
  }

  /** Reads on a number that is not (or no longer) a run of integer digits, from j; returns like `readNumber`. */
  private readNumberTail(buf: Buffer, j: number): number {
    j = this.scanNumber(buf, j);
    if (j >= buf.length) return buf.length; // the partial token is saved at the end of the chunk
    const sub = this.numSub;
    if (sub !== N_INT && sub !== N_ZERO && sub !== N_FRAC && sub !== N_EXP)
      this.fail(`unexpected ${show(buf[j]!)} in a number`, this.base + j);
    this.emitNumber(buf, j);
    return j;
  }

  /**
   * Steps the number sub-state over buf from j to the first byte that cannot go on the number (or n); returns that
   * index.
   */
  private scanNumber(buf: Buffer, j: number): number {
    const n = buf.length;
    let sub = this.numSub;
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
    return j;
  }

  /** Hands the number that ends before `end` to the handler. */
  private emitNumber(buf: Buffer, end: number): void {
    this.handler.number(
      this.numSimple && this.numDigits <= 15
        ? this.numVal
        : Number(this.numText + buf.toString("latin1", this.tokStart, end)),
    );
    this.state = this.afterValue();
  }

  /** Reads one byte of true, false or null at i; returns i + 1. */
  private readLiteral(buf: Buffer, i: number): number {
    const c = buf[i]!;
    if (c !== this.lit.charCodeAt(this.litPos)) this.unexpected(c, i, `'${this.lit}'`);
    if (++this.litPos === this.lit.length) {
      this.handler.literal(this.litValue);
      this.state = this.afterValue();
    }
    return i + 1;
  }

  /** Reads one byte outside a token (whitespace, punctuation or the first byte of a value); returns the next index. */
  private readBetweenTokens(buf: Buffer, i: number): number {
    const c = buf[i]!;
    if (c === 0x20 || c === 0x09 || c === 0x0d) return i + 1;
    if (c === 0x0a) {
      this.line++;
      this.lineStart = this.base + i + 1;
      return i + 1;
    }
    const state = this.state;
    if (state === S_COMMA_OR_CLOSE) this.commaOrClose(c, i);
    else if (state === S_VALUE || state === S_VALUE_OR_CLOSE) {
      if (c === 0x5d && state === S_VALUE_OR_CLOSE) this.close(IN_ARRAY);
      else this.startValue(c, i);
    } else if (state === S_KEY_OR_CLOSE || state === S_KEY) {
      if (c === 0x22) this.startString(true, i + 1);
      else if (c === 0x7d && state === S_KEY_OR_CLOSE) this.close(IN_OBJECT);
      else this.unexpected(c, i, `a property name${state === S_KEY_OR_CLOSE ? " or '}'" : ""}`);
    } else if (state === S_COLON) {
      if (c !== 0x3a) this.unexpected(c, i, "':'");
      this.state = S_VALUE;
    } else this.fail(`unexpected ${show(c)} after the end of the document`, this.base + i); // S_END
    return i + 1;
  }

  /** Reads byte c at i after a value inside an object or array: ',' or the closing bracket. */
  private commaOrClose(c: number, i: number): void {
    const top = this.stack[this.stack.length - 1];
    if (c === 0x2c) this.state = top === IN_OBJECT ? S_KEY : S_VALUE;
    else if ((c === 0x7d && top === IN_OBJECT) || (c === 0x5d && top === IN_ARRAY)) this.close(top);
    else this.unexpected(c, i, `',' or '${top === IN_OBJECT ? "}" : "]"}'`);
  }

  /** Starts the value whose first byte c is at i (every value token is one byte in, after this). */
  private startValue(c: number, i: number): void {
    this.sawValue = true;
    if (c === 0x7b) {
      this.stack.push(IN_OBJECT);
      this.handler.startObject();
      this.state = S_KEY_OR_CLOSE;
    } else if (c === 0x5b) {
      this.stack.push(IN_ARRAY);
      this.handler.startArray();
      this.state = S_VALUE_OR_CLOSE;
    } else if (c === 0x22) this.startString(false, i + 1);
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) this.startNumber(c, i);
    else if (c === 0x74 || c === 0x66 || c === 0x6e) this.startLiteral(c);
    else this.unexpected(c, i, "a value");
  }

  /** Starts a number whose first byte c ('-' or a digit) is at i. */
  private startNumber(c: number, i: number): void {
    this.numSub = c === 0x2d ? N_MINUS : c === 0x30 ? N_ZERO : N_INT;
    this.numSimple = c !== 0x2d;
    this.numVal = c === 0x2d ? 0 : c - 0x30;
    this.numDigits = 1;
    this.numText = "";
    this.state = S_NUM;
    this.tokStart = i;
  }

  /** Starts true, false or null from its first byte c. */
  private startLiteral(c: number): void {
    const [word, value] = LITERALS[c === 0x74 ? 0 : c === 0x66 ? 1 : 2]!;
    this.lit = word;
    this.litValue = value;
    this.litPos = 1;
    this.state = S_LIT;
  }

  /** Starts a string (a key when isKey) whose text begins at `start`. */
  private startString(isKey: boolean, start: number): void {
    this.isKey = isKey;
    this.escaped = false;
    this.state = S_STR;
    this.tokStart = start;
  }

  /** Closes the innermost object or array (`top` says which). */
  private close(top: number | undefined): void {
    this.stack.pop();
    if (top === IN_OBJECT) this.handler.endObject();
    else this.handler.endArray();
    this.state = this.afterValue();
  }

  /** Ends the input; throws when the document is incomplete or empty. */
  end(): void {
    const at = this.base;
    if (this.state === S_NUM) {
      const sub = this.numSub;
      if (sub !== N_INT && sub !== N_ZERO && sub !== N_FRAC && sub !== N_EXP)
        this.fail("unexpected end of input in a number", at);
      this.handler.number(this.numSimple && this.numDigits <= 15 ? this.numVal : Number(this.numText));
      this.state = this.afterValue();
    }
    if (this.state === S_END) return;
    if (!this.sawValue) this.fail("the document is empty", at);
    const what =
      this.state === S_STR || this.state === S_STR_ESC || this.state === S_STR_U
        ? "in a string"
        : this.state === S_LIT
          ? `in '${this.lit}'`
          : this.stack.length > 0
            ? `(${this.stack.length} unclosed ${this.stack.length === 1 ? "bracket" : "brackets"})`
            : "";
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
