/**
 * Schedule JSON reader: streams a commplan.schedule/v1 document into the columnar Schedule, checking syntax, schema and
 * meaning.
 */
import { DocumentStart } from "./json-text.js";
import { createReadStream } from "node:fs";
import { fail } from "../model/errors.js";
import { checkOptionsObject, checkPathArg, describeValue } from "../model/option-checks.js";
import type { CommplanError } from "../model/errors.js";
import { fsError } from "./file-output.js";
import { growF64, growU32 } from "../internal/growable.js";
import { FORMAT_NAMES } from "./json-schema.js";
import { checkScheduleHeader, MAX_EXACT, TOO_BIG } from "./schedule-header.js";
import { decodeJsonString, JsonSyntaxError, JsonTokenizer } from "./json-tokenizer.js";
import type { JsonTokenHandler } from "./json-tokenizer.js";
import type { ChunkTable, Rearrange, Schedule, StageInfo } from "../model/schedule.js";
import { jsonExcerpt, quoted } from "../internal/quoted.js";

const MODULE = "schedule";

// Contexts of the open containers.
const C_NONE = -1; // before the top-level value
const C_ROOT = 0; // the document object (header fields are kept as plain values)
const C_STAGES = 1;
const C_STAGE = 2;
const C_STEPS = 3;
const C_STEP = 4;
const C_TRANSFERS = 5;
const C_TRANSFER = 6;
const C_CHUNKS = 7;
const C_CHUNK = 8;
const C_STALLS = 9;
const C_GOBJ = 10; // any other object (kept as a plain value for ajv)
const C_GARR = 11; // any other array

// Keys of steps and transfers, as bits.
const K_TRANSFERS = 1,
  K_STALLS = 2;
const K_SRC = 1,
  K_DST = 2,
  K_SIZE = 4,
  K_CHUNKS = 8,
  K_START = 16,
  K_END = 32;
const STEP_KEYS = new Map([
  ["transfers", K_TRANSFERS],
  ["stalls", K_STALLS],
]);
const TRANSFER_KEYS = new Map([
  ["src", K_SRC],
  ["dst", K_DST],
  ["size", K_SIZE],
  ["chunks", K_CHUNKS],
  ["start", K_START],
  ["end", K_END],
]);
const KEY_NAME = new Map([
  [K_SRC, "src"],
  [K_DST, "dst"],
  [K_SIZE, "size"],
  [K_START, "start"],
  [K_END, "end"],
]);

/** The id of a transfer key from its raw bytes (no escapes), 0 when unknown. */
function transferKeyId(b: Buffer, s: number, e: number): number {
  const c0 = b[s];
  switch (e - s) {
    case 3:
      if (c0 === 0x73 && b[s + 1] === 0x72 && b[s + 2] === 0x63) return K_SRC; // src
      if (c0 === 0x64 && b[s + 1] === 0x73 && b[s + 2] === 0x74) return K_DST; // dst
      if (c0 === 0x65 && b[s + 1] === 0x6e && b[s + 2] === 0x64) return K_END; // end
      return 0;
    case 4:
      return c0 === 0x73 && b[s + 1] === 0x69 && b[s + 2] === 0x7a && b[s + 3] === 0x65 ? K_SIZE : 0; // size
    case 5:
      return b.toString("latin1", s, e) === "start" ? K_START : 0;
    case 6:
      return b.toString("latin1", s, e) === "chunks" ? K_CHUNKS : 0;
    default:
      return 0;
  }
}

type JsonObject = { [k: string]: unknown };

function setProp(o: JsonObject, k: string, v: unknown): void {
  if (k === "__proto__")
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** Token handler that builds the schedule columns and keeps everything else as plain values. */
class ScheduleAssembler implements JsonTokenHandler {
  readonly tok = new JsonTokenizer(this);
  private readonly ctx: number[] = [];
  private readonly vals: unknown[] = []; // the container of each generic-capable context
  private readonly keys: string[] = []; // the pending key of each object context
  private top = C_NONE;
  root: unknown = undefined;
  private rootStages: unknown[] | null = null;

  // Columns.
  readonly stepStart = growU32();
  readonly stallStart = growU32();
  readonly stallNode = growU32(16);
  readonly src = growU32(1 << 16);
  readonly dst = growU32(1 << 16);
  readonly size = growF64(1 << 16);
  readonly chunkStart = growU32();
  readonly origin = growU32();
  readonly dest = growU32();
  readonly offset = growF64();
  readonly count = growF64();
  readonly tStart = growF64(16);
  readonly tEnd = growF64(16);
  readonly stages: { index: number; firstStep: number; stepCount: number; obj: JsonObject }[] = [];

  // Positions (for paths) and per-object state.
  private stageIdx = -1;
  private stepIdx = -1;
  private trIdx = -1;
  private chIdx = -1;
  private chElem = 0;
  private stallIdx = -1;
  private stepSeen = 0;
  private stepKey = 0;
  private trSeen = 0;
  private trKey = 0;
  private trChunkBase = 0;
  private steps = 0;
  transfers = 0;
  private chunkRows = 0;

  // Whole-document facts for the meaning checks.
  withChunks = 0;
  firstWithChunks = -1;
  firstWithoutChunks = -1;
  withTimes = 0;
  firstWithTimes = -1;
  firstWithoutTimes = -1;
  firstHalfTimed = -1;
  firstHalfTimedHas = "";

  constructor(readonly file: string | undefined) {}

  // ---- errors and paths ----

  private stagePath(): string {
    return `/stages/${this.stageIdx}`;
  }
  private stepPath(): string {
    return `${this.stagePath()}/steps/${this.stepIdx}`;
  }
  private transferPath(): string {
    return `${this.stepPath()}/transfers/${this.trIdx}`;
  }
  private chunkPath(): string {
    return `${this.transferPath()}/chunks/${this.chIdx}`;
  }

  /** A schema error in the bulk, with the current line. */
  private bad(path: string, text: string): CommplanError {
    const place = { line: this.tok.line, field: path, ...(this.file === undefined ? {} : { file: this.file }) };
    return fail(MODULE, "BAD_INPUT", `${path} ${text}`, place);
  }

  /** The schema error of a number that is not an integer >= min (paths are built only here, on failure). */
  private badInt(v: number, path: string, min: number): never {
    if (!Number.isInteger(v)) throw this.bad(path, "must be integer");
    throw this.bad(path, `must be >= ${min}`);
  }

  private wrongType(expected: string): never {
    switch (this.top) {
      case C_STEPS:
        throw this.bad(`${this.stagePath()}/steps/${this.stepIdx + 1}`, "must be object");
      case C_STEP:
        throw this.bad(`${this.stepPath()}/${this.stepKey === K_TRANSFERS ? "transfers" : "stalls"}`, "must be array");
      case C_TRANSFERS:
        throw this.bad(`${this.stepPath()}/transfers/${this.trIdx + 1}`, "must be object");
      case C_TRANSFER: {
        const name = this.trKey === K_CHUNKS ? "chunks" : KEY_NAME.get(this.trKey)!;
        const type =
          this.trKey === K_CHUNKS ? "array" : this.trKey === K_START || this.trKey === K_END ? "number" : "integer";
        throw this.bad(`${this.transferPath()}/${name}`, `must be ${type}`);
      }
      case C_CHUNKS:
        throw this.bad(`${this.transferPath()}/chunks/${this.chIdx + 1}`, "must be array");
      case C_CHUNK:
        this.chunkIndexCheck();
        throw this.bad(`${this.chunkPath()}/${this.chElem}`, "must be integer");
      case C_STALLS:
        throw this.bad(`${this.stepPath()}/stalls/${this.stallIdx + 1}`, "must be integer");
      default:
        throw this.bad("/", `unexpected ${expected}`);
    }
  }

  private chunkIndexCheck(): void {
    if (this.chElem >= 4) throw this.bad(this.chunkPath(), "must NOT have more than 4 items");
  }

  // ---- generic values ----

  private push(ctx: number, val: unknown): void {
    this.ctx.push(ctx);
    this.vals.push(val);
    this.keys.push("");
    this.top = ctx;
  }

  private pop(): void {
    this.ctx.pop();
    this.vals.pop();
    this.keys.pop();
    this.top = this.ctx.length === 0 ? C_NONE : this.ctx[this.ctx.length - 1]!;
  }

  /** Attaches a finished plain value to the container on top (C_ROOT, C_STAGES, C_STAGE or generic). */
  private attach(v: unknown): void {
    const top = this.top;
    if (top === C_NONE) {
      this.root = v;
      return;
    }
    const c = this.vals[this.vals.length - 1];
    if (top === C_STAGES || top === C_GARR) (c as unknown[]).push(v);
    else {
      const k = this.keys[this.keys.length - 1]!;
      setProp(c as JsonObject, k, v);
      if (top === C_ROOT && k === "format" && v !== FORMAT_NAMES.schedule) {
        // Fail early: a matrix or report file should not be read to its end first.
        const place = { field: "/format", ...(this.file === undefined ? {} : { file: this.file }) };
        throw fail(MODULE, "BAD_FORMAT", `/format is ${jsonExcerpt(v)}, expected "${FORMAT_NAMES.schedule}"`, place);
      }
    }
  }

  private isGenericPlace(): boolean {
    const t = this.top;
    return t === C_NONE || t === C_ROOT || t === C_STAGE || t === C_GOBJ || t === C_GARR || t === C_STAGES;
  }

  // ---- token handlers ----

  startObject(): void {
    switch (this.top) {
      case C_NONE:
        this.root = {};
        this.push(C_ROOT, this.root);
        return;
      case C_STAGES: {
        const obj: JsonObject = {};
        (this.vals[this.vals.length - 1] as unknown[]).push(obj);
        this.stageIdx = (this.vals[this.vals.length - 1] as unknown[]).length - 1;
        this.stepIdx = -1;
        this.stages.push({ index: this.stageIdx, firstStep: this.steps, stepCount: 0, obj });
        this.push(C_STAGE, obj);
        return;
      }
      case C_STEPS:
        this.stepIdx++;
        this.steps++;
        this.stepStart.push(this.transfers);
        this.stallStart.push(this.stallNode.length);
        this.stepSeen = 0;
        this.trIdx = -1;
        this.stallIdx = -1;
        this.ctx.push(C_STEP);
        this.top = C_STEP;
        return;
      case C_TRANSFERS:
        this.trIdx++;
        this.transfers++;
        this.src.push(0);
        this.dst.push(0);
        this.size.push(0);
        this.trChunkBase = this.chunkRows;
        this.trSeen = 0;
        this.chIdx = -1;
        this.ctx.push(C_TRANSFER);
        this.top = C_TRANSFER;
        return;
      default:
        if (!this.isGenericPlace()) this.wrongType("object");
        {
          const obj: JsonObject = {};
          this.attach(obj);
          this.push(C_GOBJ, obj);
        }
    }
  }

  endObject(): void {
    switch (this.top) {
      case C_STAGE: {
        const st = this.stages[this.stages.length - 1]!;
        st.stepCount = this.steps - st.firstStep;
        this.pop();
        return;
      }
      case C_STEP:
        if (!(this.stepSeen & K_TRANSFERS)) throw this.bad(this.stepPath(), "must have required property 'transfers'");
        if (!(this.stepSeen & K_STALLS)) throw this.bad(this.stepPath(), "must have required property 'stalls'");
        this.ctx.pop();
        this.top = C_STEPS;
        return;
      case C_TRANSFER: {
        const seen = this.trSeen;
        for (const k of [K_SRC, K_DST, K_SIZE])
          if (!(seen & k)) throw this.bad(this.transferPath(), `must have required property '${KEY_NAME.get(k)!}'`);
        const x = this.transfers - 1;
        if (seen & K_CHUNKS) {
          if (this.withChunks++ === 0) this.firstWithChunks = x;
          // chunkStart has an entry per transfer when every transfer has chunks (else a meaning error follows)
          const cs = this.chunkStart;
          if (cs.length < x) {
            cs.grow(x);
            cs.length = x;
          }
          cs.push(this.trChunkBase);
        } else if (this.firstWithoutChunks < 0) this.firstWithoutChunks = x;
        const timed = seen & (K_START | K_END);
        if (timed === (K_START | K_END)) {
          if (this.withTimes++ === 0) this.firstWithTimes = x;
        } else {
          if (this.firstWithoutTimes < 0) this.firstWithoutTimes = x;
          if (timed !== 0 && this.firstHalfTimed < 0) {
            this.firstHalfTimed = x;
            this.firstHalfTimedHas = timed === K_START ? "start" : "end";
          }
        }
        this.ctx.pop();
        this.top = C_TRANSFERS;
        return;
      }
      default:
        this.pop(); // C_ROOT or C_GOBJ
    }
  }

  startArray(): void {
    switch (this.top) {
      case C_ROOT:
        if (this.keys[this.keys.length - 1] === "stages") {
          this.rootStages = [];
          this.attach(this.rootStages);
          this.push(C_STAGES, this.rootStages);
          return;
        }
        break;
      case C_STAGE:
        if (this.keys[this.keys.length - 1] === "steps") {
          this.attach([]); // steps are checked by hand, the header schema sees an empty list
          this.ctx.push(C_STEPS);
          this.top = C_STEPS;
          return;
        }
        break;
      case C_STEP:
        if (this.stepKey === K_TRANSFERS) {
          this.ctx.push(C_TRANSFERS);
          this.top = C_TRANSFERS;
        } else {
          this.ctx.push(C_STALLS);
          this.top = C_STALLS;
        }
        return;
      case C_TRANSFER:
        if (this.trKey !== K_CHUNKS) this.wrongType("array");
        this.ctx.push(C_CHUNKS);
        this.top = C_CHUNKS;
        return;
      case C_CHUNKS:
        this.chIdx++;
        this.chElem = 0;
        this.chunkRows++;
        this.origin.push(0);
        this.dest.push(0);
        this.offset.push(0);
        this.count.push(0);
        this.ctx.push(C_CHUNK);
        this.top = C_CHUNK;
        return;
      default:
    }
    if (!this.isGenericPlace()) this.wrongType("array");
    const arr: unknown[] = [];
    this.attach(arr);
    this.push(C_GARR, arr);
  }

  endArray(): void {
    switch (this.top) {
      case C_STEPS:
      case C_TRANSFERS:
      case C_CHUNKS:
      case C_STALLS:
        this.ctx.pop();
        this.top = this.ctx[this.ctx.length - 1]!;
        return;
      case C_CHUNK:
        if (this.chElem < 4) throw this.bad(this.chunkPath(), "must NOT have fewer than 4 items");
        this.ctx.pop();
        this.top = C_CHUNKS;
        return;
      default:
        this.pop(); // C_STAGES or C_GARR
    }
  }

  key(b: Buffer, s: number, e: number, escaped: boolean): void {
    switch (this.top) {
      case C_TRANSFER: {
        const id = escaped ? (TRANSFER_KEYS.get(decodeJsonString(b, s, e, true)) ?? 0) : transferKeyId(b, s, e);
        if (id === 0)
          throw this.bad(
            this.transferPath(),
            `must NOT have additional properties (${quoted(decodeJsonString(b, s, e, escaped))})`,
          );
        if (this.trSeen & id)
          throw this.bad(this.transferPath(), `has the key ${quoted(decodeJsonString(b, s, e, escaped))} twice`);
        this.trSeen |= id;
        this.trKey = id;
        return;
      }
      case C_STEP: {
        const name = decodeJsonString(b, s, e, escaped);
        const id = STEP_KEYS.get(name) ?? 0;
        if (id === 0) throw this.bad(this.stepPath(), `must NOT have additional properties (${quoted(name)})`);
        if (this.stepSeen & id) throw this.bad(this.stepPath(), `has the key ${quoted(name)} twice`);
        this.stepSeen |= id;
        this.stepKey = id;
        return;
      }
      default: {
        // C_ROOT, C_STAGE, C_GOBJ
        const name = decodeJsonString(b, s, e, escaped);
        if (Object.hasOwn(this.vals[this.vals.length - 1] as JsonObject, name)) {
          throw this.bad(
            this.top === C_ROOT ? "/" : this.top === C_STAGE ? this.stagePath() : "/",
            `has the key ${quoted(name)} twice`,
          );
        }
        this.keys[this.keys.length - 1] = name;
      }
    }
  }

  number(v: number): void {
    switch (this.top) {
      case C_TRANSFER: {
        const k = this.trKey;
        const x = this.transfers - 1;
        if (k === K_SRC || k === K_DST) {
          if (!(v >= 0 && Number.isInteger(v))) this.badInt(v, `${this.transferPath()}/${KEY_NAME.get(k)!}`, 0);
          (k === K_SRC ? this.src : this.dst).set(x, this.node(k === K_SRC ? "src" : "dst", x, v));
        } else if (k === K_SIZE) {
          if (!(v >= 1 && Number.isInteger(v))) this.badInt(v, `${this.transferPath()}/size`, 1);
          if (v > MAX_EXACT) throw this.bad(`${this.transferPath()}/size`, TOO_BIG);
          this.size.set(x, v);
        } else if (k === K_START || k === K_END) {
          if (v < 0) throw this.bad(`${this.transferPath()}/${KEY_NAME.get(k)!}`, "must be >= 0");
          if (v > MAX_EXACT) throw this.bad(`${this.transferPath()}/${KEY_NAME.get(k)!}`, TOO_BIG);
          const t = k === K_START ? this.tStart : this.tEnd;
          if (t.length <= x) {
            t.grow(x + 1);
            t.length = x + 1; // fresh capacity is zero-filled
          }
          t.set(x, v);
        } else this.wrongType("number");
        return;
      }
      case C_CHUNK: {
        this.chunkIndexCheck();
        const el = this.chElem++;
        const min = el === 3 ? 1 : 0;
        if (!(v >= min && Number.isInteger(v))) this.badInt(v, `${this.chunkPath()}/${el}`, min);
        if (v > MAX_EXACT) throw this.bad(`${this.chunkPath()}/${el}`, TOO_BIG);
        const r = this.chunkRows - 1;
        if (el === 0) this.origin.set(r, this.node("origin", r, v));
        else if (el === 1) this.dest.set(r, this.node("dest", r, v));
        else if (el === 2) this.offset.set(r, v);
        else this.count.set(r, v);
        return;
      }
      case C_STALLS:
        this.stallIdx++;
        if (!(v >= 0 && Number.isInteger(v))) this.badInt(v, `${this.stepPath()}/stalls/${this.stallIdx}`, 0);
        this.stallNode.push(this.node("stall", this.stallNode.length, v));
        return;
      default:
        if (!this.isGenericPlace()) this.wrongType("number");
        this.attach(v);
    }
  }

  string(b: Buffer, s: number, e: number, escaped: boolean): void {
    if (!this.isGenericPlace()) this.wrongType("string");
    this.attach(decodeJsonString(b, s, e, escaped));
  }

  literal(v: boolean | null): void {
    if (!this.isGenericPlace()) this.wrongType(String(v));
    this.attach(v);
  }

  get stepCount(): number {
    return this.steps;
  }

  /**
   * The values of node indices too large for the Uint32 columns, by column and row (they are stored clamped; messages
   * show these).
   */
  readonly hugeNodes = new Map<string, number>();

  /**
   * A node index for a Uint32 column: clamped to 2^32 - 1 (never a valid node), the value as given kept for messages.
   */
  private node(column: string, row: number, v: number): number {
    if (v <= 0xffffffff) return v;
    this.hugeNodes.set(`${column}:${row}`, v);
    return 0xffffffff;
  }
}

/** The JSON path of transfer x of a schedule under construction. */
function transferPathOf(x: number, stepStart: Uint32Array, stages: readonly StageInfo[]): string {
  // the step s with stepStart[s] <= x < stepStart[s + 1]
  let lo = 0,
    hi = stepStart.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (stepStart[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  while (lo + 1 < stepStart.length && stepStart[lo + 1]! <= x) lo++; // skip empty steps
  const k = stages.findIndex((st) => lo >= st.firstStep && lo < st.firstStep + st.stepCount);
  const st = stages[k]!;
  return `/stages/${k}/steps/${lo - st.firstStep}/transfers/${x - stepStart[lo]!}`;
}

/** The path of stall entry q. */
function stallPathOf(q: number, stallStart: Uint32Array, stages: readonly StageInfo[]): string {
  let s = 0;
  while (stallStart[s + 1]! <= q) s++;
  const k = stages.findIndex((st) => s >= st.firstStep && s < st.firstStep + st.stepCount);
  return `/stages/${k}/steps/${s - stages[k]!.firstStep}/stalls/${q - stallStart[s]!}`;
}

/**
 * What the meaning checks of a finished schedule share: node and transfer counts, and how to name and report a place.
 */
interface MeaningContext {
  readonly p: number;
  readonly n: number;
  /** The error for the field at `path`. */
  readonly bad: (path: string, text: string) => CommplanError;
  /** The JSON path of transfer x. */
  readonly tpath: (x: number) => string;
  /** The value as given (a clamped index shows what the file says). */
  readonly shown: (column: string, row: number, v: number) => number;
}

/**
 * Checks that every transfer's src and dst and every stalled node is a node index, and that no step lists a node as
 * stalled twice.
 */
function checkNodeIndices(
  m: MeaningContext,
  src: Uint32Array,
  dst: Uint32Array,
  stallNode: Uint32Array,
  stallStart: Uint32Array,
  stages: readonly StageInfo[],
): void {
  const { p, n, bad, tpath, shown } = m;
  for (let x = 0; x < n; x++) {
    if (src[x]! >= p) throw bad(`${tpath(x)}/src`, `= ${shown("src", x, src[x]!)} is not a node index in 0..${p - 1}`);
    if (dst[x]! >= p) throw bad(`${tpath(x)}/dst`, `= ${shown("dst", x, dst[x]!)} is not a node index in 0..${p - 1}`);
  }
  for (let q = 0; q < stallNode.length; q++) {
    if (stallNode[q]! >= p)
      throw bad(
        stallPathOf(q, stallStart, stages),
        `= ${shown("stall", q, stallNode[q]!)} is not a node index in 0..${p - 1}`,
      );
  }
  if (stallNode.length > 0) {
    // a node stalls at most once per step (the schema's uniqueItems): the step that last listed each node
    const lastStep = new Int32Array(p).fill(-1);
    const steps = stallStart.length - 1;
    for (let st = 0; st < steps; st++) {
      for (let q = stallStart[st]!; q < stallStart[st + 1]!; q++) {
        const u = stallNode[q]!;
        if (lastStep[u] === st)
          throw bad(
            stallPathOf(q, stallStart, stages),
            `= ${u} repeats a node the step already lists as stalled (each node at most once)`,
          );
        lastStep[u] = st;
      }
    }
  }
}

/**
 * The chunk table (null when no transfer carries chunks), checking that all or none do, node indices, and that chunks
 * add up to the size.
 */
function chunkTableOf(m: MeaningContext, a: ScheduleAssembler, size: Float64Array): ChunkTable | null {
  const { p, n, bad, tpath, shown } = m;
  if (a.withChunks === 0) return null;
  if (a.withChunks < n) {
    throw bad(
      tpath(a.firstWithoutChunks),
      `has no 'chunks' but ${tpath(a.firstWithChunks)} has: every transfer carries its payload or none does`,
    );
  }
  const chunkStart = new Uint32Array(n + 1);
  chunkStart.set(a.chunkStart.toArray());
  chunkStart[n] = a.origin.length;
  // views of the columns, not copies: a copy holds the largest columns twice while it is made
  const origin = a.origin.view(),
    dest = a.dest.view(),
    offset = a.offset.view(),
    count = a.count.view();
  for (let x = 0; x < n; x++) {
    let sum = 0;
    for (let c = chunkStart[x]!; c < chunkStart[x + 1]!; c++) {
      if (origin[c]! >= p)
        throw bad(
          `${tpath(x)}/chunks/${c - chunkStart[x]!}/0`,
          `(origin) = ${shown("origin", c, origin[c]!)} is not a node index in 0..${p - 1}`,
        );
      if (dest[c]! >= p)
        throw bad(
          `${tpath(x)}/chunks/${c - chunkStart[x]!}/1`,
          `(dest) = ${shown("dest", c, dest[c]!)} is not a node index in 0..${p - 1}`,
        );
      sum += count[c]!;
    }
    if (sum !== size[x]!) throw bad(`${tpath(x)}/size`, `= ${size[x]!} but its chunks hold ${sum} elements`);
  }
  return { start: chunkStart, origin, dest, offset, count };
}

/**
 * The transfer times (null when no transfer has them), checking both or neither per transfer, all or none, and start <=
 * end.
 */
function timesOf(m: MeaningContext, a: ScheduleAssembler): Schedule["times"] {
  const { n, bad, tpath } = m;
  if (a.firstHalfTimed >= 0) {
    const other = a.firstHalfTimedHas === "start" ? "end" : "start";
    throw bad(tpath(a.firstHalfTimed), `has '${a.firstHalfTimedHas}' without '${other}'`);
  }
  if (a.withTimes === 0) return null;
  if (a.withTimes < n)
    throw bad(
      tpath(a.firstWithoutTimes),
      `has no 'start' and 'end' but ${tpath(a.firstWithTimes)} has: every transfer has times or none does`,
    );
  const start = a.tStart.view(),
    end = a.tEnd.view();
  for (let x = 0; x < n; x++)
    if (!(start[x]! <= end[x]!)) throw bad(tpath(x), `ends before it starts (start ${start[x]!}, end ${end[x]!})`);
  return { start, end };
}

/** Incremental reader: feed byte chunks (Uint8Array, Buffer) with `write`, then `finish` returns the Schedule. */
export class ScheduleJsonReader {
  private readonly a: ScheduleAssembler;
  /** Holds back the first bytes: a UTF-8 byte-order mark is skipped, UTF-16 and NUL bytes refused. */
  private readonly start: DocumentStart;
  constructor(readonly file?: string) {
    this.a = new ScheduleAssembler(file);
    this.start = new DocumentStart((why) => {
      throw fail(MODULE, "BAD_INPUT", why, this.place());
    });
  }

  private place(line?: number, field?: string): { file?: string; line?: number; field?: string } {
    return {
      ...(this.file === undefined ? {} : { file: this.file }),
      ...(line === undefined ? {} : { line }),
      ...(field === undefined ? {} : { field }),
    };
  }

  private syntax(e: unknown): never {
    if (e instanceof JsonSyntaxError)
      throw fail(MODULE, "BAD_INPUT", `${e.detail} (column ${e.column})`, this.place(e.line));
    throw e;
  }

  /** Consumes one chunk of the document (UTF-8 bytes). */
  write(chunk: Uint8Array): void {
    try {
      const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      this.a.tok.write(this.start.take(b));
    } catch (e) {
      this.syntax(e);
    }
  }

  /** Ends the input: checks syntax, the header against the schema, then the meaning; returns the schedule. */
  finish(): Schedule {
    try {
      this.a.tok.write(this.start.end());
      this.a.tok.end();
    } catch (e) {
      this.syntax(e);
    }
    const a = this.a;
    const h = checkScheduleHeader(a.root, MODULE, this.file);
    const stages: StageInfo[] = a.stages.map((st) => ({
      name: st.obj["name"] as string,
      rearrange: st.obj["rearrange"] as Rearrange,
      firstStep: st.firstStep,
      stepCount: st.stepCount,
    }));
    const n = a.transfers;
    const steps = a.stepCount;
    const stepStart = new Uint32Array(steps + 1);
    stepStart.set(a.stepStart.toArray());
    stepStart[steps] = n;
    const stallStart = new Uint32Array(steps + 1);
    stallStart.set(a.stallStart.toArray());
    stallStart[steps] = a.stallNode.length;
    // views of the columns, not copies: a copy holds the largest columns twice while it is made
    const src = a.src.view(),
      dst = a.dst.view(),
      size = a.size.view();
    const stallNode = a.stallNode.toArray();
    const p = h.p;

    // Meaning: indices in range, payloads and times on every transfer or on none, sizes add up.
    const m: MeaningContext = {
      p,
      n,
      bad: (path, text) => fail(MODULE, "BAD_INPUT", `${path} ${text}`, this.place(undefined, path)),
      tpath: (x) => transferPathOf(x, stepStart, stages),
      shown: (column, row, v) => a.hugeNodes.get(`${column}:${row}`) ?? v,
    };
    checkNodeIndices(m, src, dst, stallNode, stallStart, stages);
    const chunks = chunkTableOf(m, a, size);
    const times = timesOf(m, a);
    return {
      p,
      algorithm: h.algorithm,
      params: h.params,
      seed: h.seed,
      elementBytes: h.elementBytes,
      matrixDigest: h.matrixDigest,
      ...(h.auto === undefined ? {} : { auto: h.auto }),
      stages,
      stepCount: steps,
      stepStart,
      stallStart,
      stallNode,
      transferCount: n,
      src,
      dst,
      size,
      chunks,
      times,
    };
  }
}

/** Parses a schedule document held in memory (same checks as the streaming reader). */
export function parseScheduleJsonText(text: string, file?: string): Schedule {
  if (typeof text !== "string")
    throw fail(MODULE, "BAD_OPTION", `the text must be a string, got ${describeValue(text)}`, { field: "text" });
  const r = new ScheduleJsonReader(file);
  r.write(Buffer.from(text, "utf8"));
  return r.finish();
}

/** Options of readScheduleJson. */
export interface ReadScheduleOptions {
  /** Bytes per read from the file (default 1 MiB). */
  readonly highWaterMark?: number;
  /** Bytes an Arrow schedule may take to decode (readScheduleFile); default: half the memory, <= 32 GiB. */
  readonly maxMemory?: number;
}

/** Reads a schedule file (path, or "-" for stdin) as a stream, without holding its text in memory. */
export async function readScheduleJson(source: string, opts: ReadScheduleOptions = {}): Promise<Schedule> {
  checkPathArg(MODULE, "readScheduleJson", "source", source, 'a path or "-"');
  checkOptionsObject(MODULE, "options", opts);
  const file = source === "-" ? "<stdin>" : source;
  const reader = new ScheduleJsonReader(file);
  const stream =
    source === "-" ? process.stdin : createReadStream(source, { highWaterMark: opts.highWaterMark ?? 1 << 20 });
  try {
    for await (const chunk of stream)
      reader.write(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : (chunk as Buffer));
  } catch (e) {
    throw fsError(e, MODULE, file, false);
  }
  return reader.finish();
}
