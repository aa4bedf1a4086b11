/**
 * The start of a document as every reader takes it: a UTF-8 byte-order mark is skipped, UTF-16 / UTF-32 text and NUL
 * bytes are refused in one line; for the readers that parse a whole document, its syntax and duplicate keys are
 * found with their line first.
 */
import { fail } from "../model/errors.js";
import { checkMemory } from "../model/memory-budget.js";
import { quoted } from "../internal/quoted.js";
import { JsonSyntaxError, JsonTokenizer, decodeJsonString, type JsonTokenHandler } from "./json-tokenizer.js";

/** Bytes of the start that encodingProblem looks at. */
export const ENCODING_HEAD_BYTES = 4;

/** 3 when `b` begins with the UTF-8 byte-order mark EF BB BF, else 0. */
export function utf8BomLength(b: Uint8Array): number {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
}

const hex = (b: Uint8Array, n: number): string =>
  Array.from(b.subarray(0, n), (x) => `0x${x.toString(16).padStart(2, "0")}`).join(" ");

/**
 * Why a document that starts with `head` (its first ENCODING_HEAD_BYTES bytes, fewer for a shorter one) cannot be
 * UTF-8 text, or null: a UTF-32 or UTF-16 byte-order mark, or a NUL byte (UTF-16 without a mark, or not text).
 */
export function encodingProblem(head: Uint8Array): string | null {
  const convert = (from: string): string => `commplan reads UTF-8: convert it, e.g. iconv -f ${from} -t UTF-8`;
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xfe && head[2] === 0 && head[3] === 0)
    return `is UTF-32 text (it begins with the byte-order mark ${hex(head, 4)}); ${convert("UTF-32")}`;
  if (head.length >= 4 && head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff)
    return `is UTF-32 text (it begins with the byte-order mark ${hex(head, 4)}); ${convert("UTF-32")}`;
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)))
    return `is UTF-16 text (it begins with the byte-order mark ${hex(head, 2)}); ${convert("UTF-16")}`;
  const nul = head.subarray(0, ENCODING_HEAD_BYTES).indexOf(0);
  if (nul >= 0)
    return `has a NUL byte at byte ${nul + 1} (it begins ${hex(head, Math.min(head.length, ENCODING_HEAD_BYTES))}): UTF-16 text without a byte-order mark, or not text; ${convert("UTF-16")}`;
  return null;
}

const EMPTY = Buffer.alloc(0);

/**
 * The start of a streamed document: holds back its first bytes until encodingProblem can tell, refuses through
 * `refuse`, and passes on the rest without a UTF-8 byte-order mark.
 */
export class DocumentStart {
  private head: Buffer | null = EMPTY;
  constructor(private readonly refuse: (why: string) => never) {}

  /** The bytes of `chunk` to pass on (none while the start is held back). */
  take(chunk: Buffer): Buffer {
    if (this.head === null) return chunk;
    const b = this.head.length === 0 ? chunk : Buffer.concat([this.head, chunk]);
    if (b.length < ENCODING_HEAD_BYTES) {
      this.head = b;
      return EMPTY;
    }
    return this.settle(b);
  }

  /** What is still held back at the end of the document. */
  end(): Buffer {
    return this.head === null ? EMPTY : this.settle(this.head);
  }

  private settle(b: Buffer): Buffer {
    this.head = null;
    const why = encodingProblem(b);
    if (why !== null) this.refuse(why);
    return b.subarray(utf8BomLength(b));
  }
}

/** A handler that finds the first object key given twice: its JSON pointer (the object's) and name. */
class DuplicateKeys implements JsonTokenHandler {
  found: { pointer: string; name: string; line: number } | null = null;
  /** Arrays, objects, keys and other values seen: what JSON.parse will make of the document. */
  arrays = 0;
  objects = 0;
  keyCount = 0;
  values = 0;
  private readonly keys: (Set<string> | null)[] = [];
  private readonly path: string[] = [];
  private pendingKey = "";
  constructor(private readonly tok: () => number) {}
  private value(): void {
    this.values++;
    const top = this.keys.length - 1;
    if (top < 0) return;
    if (this.keys[top] === null) this.path[top] = String(Number(this.path[top]) + 1);
    else this.path[top] = this.pendingKey.replace(/~/g, "~0").replace(/\//g, "~1");
  }
  private open(object: boolean): void {
    this.value();
    this.keys.push(object ? new Set() : null);
    this.path.push(object ? "" : "-1");
  }
  private close(): void {
    this.keys.pop();
    this.path.pop();
  }
  startObject(): void {
    this.objects++;
    this.open(true);
  }
  endObject(): void {
    this.close();
  }
  startArray(): void {
    this.arrays++;
    this.open(false);
  }
  endArray(): void {
    this.close();
  }
  key(buf: Buffer, start: number, end: number, escaped: boolean): void {
    this.keyCount++;
    const name = decodeJsonString(buf, start, end, escaped);
    const set = this.keys[this.keys.length - 1]!;
    if (set.has(name) && this.found === null)
      this.found = { pointer: `/${this.path.slice(0, -1).join("/")}`, name, line: this.tok() };
    set.add(name);
    this.pendingKey = name;
  }
  string(): void {
    this.value();
  }
  number(): void {
    this.value();
  }
  literal(): void {
    this.value();
  }
}

/** Bytes JSON.parse takes for an array (its object and elements store), an object, and a slot of either. */
const JSON_ARRAY_BYTES = 56;
const JSON_OBJECT_BYTES = 72;
const JSON_SLOT_BYTES = 12;

/** The budget a whole-document reader parses under: refused past it, saying what was read. */
export interface ParseBudget {
  readonly maxMemory: number;
  readonly what: string;
}

/**
 * The text of a whole JSON document for JSON.parse, from its bytes: the encoding checked (encodingProblem), a UTF-8
 * byte-order mark dropped, then one pass of the tokenizer refuses a syntax error ("not valid JSON: ...") or a key
 * given twice in one object, each with its line, as `module`'s one-line CommplanError. With `budget`, the document is
 * refused before JSON.parse when its bytes, its text and the values the tokenizer counted pass the budget.
 */
export function jsonDocumentText(bytes: Buffer, module: string, file?: string, budget?: ParseBudget): string {
  const at = (line?: number, field?: string) => ({
    ...(file === undefined ? {} : { file }),
    ...(line === undefined ? {} : { line }),
    ...(field === undefined ? {} : { field }),
  });
  const why = encodingProblem(bytes.subarray(0, ENCODING_HEAD_BYTES));
  if (why !== null) throw fail(module, "BAD_INPUT", why, at());
  const body = bytes.subarray(utf8BomLength(bytes));
  let tok: JsonTokenizer | null = null;
  const dup = new DuplicateKeys(() => tok!.line);
  tok = new JsonTokenizer(dup);
  try {
    tok.write(body);
    tok.end();
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    throw fail(module, "BAD_INPUT", `not valid JSON: ${e.message}`, at(e.line));
  }
  if (budget !== undefined) {
    const parsed =
      JSON_ARRAY_BYTES * dup.arrays + JSON_OBJECT_BYTES * dup.objects + JSON_SLOT_BYTES * (dup.keyCount + dup.values);
    checkMemory(module, 2 * bytes.length + parsed, budget.what, budget.maxMemory, at());
  }
  const d = dup.found;
  if (d !== null)
    throw fail(module, "BAD_INPUT", `${d.pointer} has the key ${quoted(d.name)} twice`, at(d.line, d.pointer));
  return body.toString("utf8");
}
