/**
 * Schedule Arrow: a Schedule as one Arrow IPC file (a transfers table with a nested chunks table, the header as schema
 * metadata), encoded and decoded column by column.
 */
import {
  DataType,
  Field,
  Float64,
  Int32,
  List,
  makeData,
  RecordBatch,
  RecordBatchReader,
  Schema,
  Struct,
  Table,
  tableToIPC,
  Uint16,
  Uint32,
  Uint8,
} from "apache-arrow";
import type { Data } from "apache-arrow";
import { createRequire } from "node:module";
import { ByteBuffer } from "flatbuffers";
import { fail, isCommplanError } from "../model/errors.js";
import type { ChunkTable, JsonValue, Schedule, StageInfo } from "../model/schedule.js";
import { checkSchedule } from "../model/schedule-check.js";
import { MAX_EXACT, TOO_BIG, wholeNumberProblem } from "./schedule-header.js";
import {
  decodeStages,
  parseArrowHeader,
  SCHEDULE_ARROW_FORMAT,
  SCHEDULE_ARROW_META_KEY,
  scheduleOfArrow,
  trustedStepStarts,
  type IndexArray,
  type ScheduleArrowHeader,
} from "./schedule-arrow-meta.js";
import { checkScheduleArg } from "../model/schedule-check.js";
import { checkOptionsObject } from "../model/option-checks.js";

export { SCHEDULE_ARROW_FORMAT, SCHEDULE_ARROW_META_KEY, type ScheduleArrowHeader } from "./schedule-arrow-meta.js";

type Numeric = IndexArray | Float64Array;

const MODULE = "schedule-arrow";
const I32 = new Int32();
const F64 = new Float64();

function i32Data(a: Uint32Array | Int32Array): Data<Int32> {
  const view = a instanceof Int32Array ? a : new Int32Array(a.buffer, a.byteOffset, a.length);
  return makeData({ type: I32, length: a.length, nullCount: 0, data: view });
}

/**
 * A per-transfer index column (stage or step) of `runs` runs, run k over transfers
 * [at(k), at(k + 1)), in the narrowest unsigned type that holds runs - 1: a byte or two a row for
 * almost every plan.
 */
function runData(n: number, runs: number, at: (k: number) => number): Data {
  const fill = <T extends Uint8Array | Uint16Array | Uint32Array>(a: T): T => {
    for (let k = 0; k < runs; k++) a.fill(k, at(k), at(k + 1));
    return a;
  };
  if (runs <= 256) return makeData({ type: new Uint8(), length: n, nullCount: 0, data: fill(new Uint8Array(n)) });
  if (runs <= 65536) return makeData({ type: new Uint16(), length: n, nullCount: 0, data: fill(new Uint16Array(n)) });
  return makeData({ type: new Uint32(), length: n, nullCount: 0, data: fill(new Uint32Array(n)) });
}

function f64Data(a: Float64Array): Data<Float64> {
  return makeData({ type: F64, length: a.length, nullCount: 0, data: a });
}

const CHUNK_FIELDS = [
  new Field("origin", I32, false),
  new Field("dest", I32, false),
  new Field("offset", F64, false),
  new Field("count", F64, false),
];
const CHUNK_STRUCT = new Struct(CHUNK_FIELDS);
const CHUNK_LIST = new List(new Field("item", CHUNK_STRUCT, false));

function chunksData(c: ChunkTable, transfers: number): Data {
  const n = c.origin.length;
  if (n > 0x7fffffff) throw fail(MODULE, "UNSUPPORTED", `${n} chunks: more than an Arrow list holds (2^31 - 1)`);
  const child = makeData({
    type: CHUNK_STRUCT,
    length: n,
    nullCount: 0,
    children: [i32Data(c.origin), i32Data(c.dest), f64Data(c.offset), f64Data(c.count)],
  });
  const offsets = new Int32Array(c.start.buffer, c.start.byteOffset, transfers + 1);
  return makeData({ type: CHUNK_LIST, length: transfers, nullCount: 0, valueOffsets: offsets, child });
}

/** The header JSON of a schedule (what the schema metadata holds), with `extra` fields merged in. */
export function scheduleArrowHeader(s: Schedule, extra: { readonly [k: string]: JsonValue } = {}): ScheduleArrowHeader {
  checkScheduleArg(MODULE, s, "scheduleArrowHeader");
  checkOptionsObject(MODULE, "extra", extra);
  return {
    ...extra,
    format: SCHEDULE_ARROW_FORMAT,
    p: s.p,
    algorithm: s.algorithm,
    params: s.params,
    seed: s.seed,
    elementBytes: s.elementBytes,
    matrixDigest: s.matrixDigest,
    stepCount: s.stepCount,
    stages: s.stages.map((st) => ({ ...st })),
    stalls: { start: Array.from(s.stallStart), node: Array.from(s.stallNode) },
  };
}

/**
 * Encodes a schedule as an Arrow IPC file: one record batch of transfers (stage, step: the
 * narrowest unsigned type that holds them; src, dst: int32; size: float64; chunks:
 * list<struct<origin, dest: int32; offset, count: float64>> when the plan has payloads; start,
 * end: float64 when it has times), the header JSON in the schema metadata under `commplan` (with
 * `extra` fields), `metadata` as further schema metadata. The src, dst, size and chunk columns
 * share the schedule's buffers (no copy before the IPC writer).
 */
export function encodeScheduleArrow(
  s: Schedule,
  extra: { readonly [k: string]: JsonValue } = {},
  metadata: { readonly [k: string]: string } = {},
): Uint8Array {
  checkOptionsObject(MODULE, "extra", extra);
  checkOptionsObject(MODULE, "metadata", metadata);
  checkSchedule(s, MODULE);
  const n = s.transferCount;
  const { stages, stepStart } = s;
  // stage k's transfers start where its first step's do; the last run ends at n
  const stageStart = (k: number): number => (k < stages.length ? stepStart[stages[k]!.firstStep]! : n);
  const stage = runData(n, stages.length, stageStart);
  const step = runData(n, s.stepCount, (k) => stepStart[k]!);
  const fields: Field[] = [
    new Field("stage", stage.type, false),
    new Field("step", step.type, false),
    new Field("src", I32, false),
    new Field("dst", I32, false),
    new Field("size", F64, false),
  ];
  const children: Data[] = [stage, step, i32Data(s.src), i32Data(s.dst), f64Data(s.size)];
  if (s.chunks !== null) {
    fields.push(new Field("chunks", CHUNK_LIST, false));
    children.push(chunksData(s.chunks, n));
  }
  if (s.times !== null) {
    fields.push(new Field("start", F64, false), new Field("end", F64, false));
    children.push(f64Data(s.times.start), f64Data(s.times.end));
  }
  const meta = new Map([
    [SCHEDULE_ARROW_META_KEY, JSON.stringify(scheduleArrowHeader(s, extra))],
    ...Object.entries(metadata),
  ]);
  const schema = new Schema(fields, meta);
  const root = makeData({ type: new Struct(fields), length: n, nullCount: 0, children });
  return tableToIPC(new Table(schema, [new RecordBatch(schema, root)]), "file");
}

// ---- decoding ----

/**
 * The values of one primitive column as one typed array: a view of the file's buffer when it has one batch, else a
 * copy.
 */
function columnValues<T extends Numeric>(parts: readonly Data[], name: string, make: (n: number) => T): T {
  let total = 0;
  for (const d of parts) {
    if (d.nullCount > 0) throw fail(MODULE, "BAD_FORMAT", `column '${name}' has nulls`, { field: name });
    // a damaged buffer length leaves fewer values than rows (the views would be silently short)
    if ((d.values as T).length < d.offset + d.length)
      throw fail(MODULE, "BAD_FORMAT", `column '${name}' holds fewer values than its ${d.length} rows`, {
        field: name,
      });
    total += d.length;
  }
  if (parts.length === 1) {
    const d = parts[0]!;
    return (d.values as T).subarray(d.offset, d.offset + d.length) as T;
  }
  const out = make(total);
  let at = 0;
  for (const d of parts) {
    out.set((d.values as T).subarray(d.offset, d.offset + d.length), at);
    at += d.length;
  }
  return out;
}

function asU32(a: Int32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

function checkType(table: Table, name: string, want: DataType, required: boolean): boolean {
  const f = table.schema.fields.find((x) => x.name === name);
  if (f === undefined) {
    if (required) throw fail(MODULE, "BAD_FORMAT", `no column '${name}'`, { field: name });
    return false;
  }
  if (String(f.type) !== String(want))
    throw fail(MODULE, "BAD_FORMAT", `column '${name}' is ${String(f.type)}, expected ${String(want)}`, {
      field: name,
    });
  return true;
}

function parts(table: Table, name: string): Data[] {
  return table.getChild(name)!.data as Data[];
}

function i32Col(table: Table, name: string): Int32Array {
  checkType(table, name, I32, true);
  return columnValues(parts(table, name), name, (n) => new Int32Array(n));
}

/**
 * An integer column of at most 32 bits (stage, step: v2 writes them narrow, v1 and other writers int32), as its own
 * typed array.
 */
function indexCol(table: Table, name: string): IndexArray {
  const f = table.schema.fields.find((x) => x.name === name);
  if (f === undefined) throw fail(MODULE, "BAD_FORMAT", `no column '${name}'`, { field: name });
  if (!(DataType.isInt(f.type) && f.type.bitWidth <= 32))
    throw fail(MODULE, "BAD_FORMAT", `column '${name}' is ${String(f.type)}, expected an integer of at most 32 bits`, {
      field: name,
    });
  const cols = parts(table, name);
  return columnValues(cols, name, (n) => new (cols[0]!.values.constructor as new (k: number) => IndexArray)(n));
}

function f64Col(table: Table, name: string): Float64Array {
  checkType(table, name, F64, true);
  return columnValues(parts(table, name), name, (n) => new Float64Array(n));
}

/**
 * The chunk table of the `chunks` column (offsets rebased when the file has several batches); `trusted` skips the
 * offsets' order check.
 */
function decodeChunks(table: Table, n: number, trusted: boolean): ChunkTable {
  // empty parts carry nothing, and may lack their child columns (apache-arrow's column of a file with no record batch)
  const lists = parts(table, "chunks").filter((d) => d.length > 0);
  const structs = lists.map((d) => d.children[0]);
  const col = (k: number): Data[] =>
    structs.map((sd) => {
      const c = sd?.children[k];
      if (c === undefined) throw fail(MODULE, "BAD_FORMAT", "the chunks column lacks a field", { field: "chunks" });
      return c;
    });
  const origin = columnValues(col(0), "chunks.origin", (m) => new Int32Array(m));
  const dest = columnValues(col(1), "chunks.dest", (m) => new Int32Array(m));
  const offset = columnValues(col(2), "chunks.offset", (m) => new Float64Array(m));
  const count = columnValues(col(3), "chunks.count", (m) => new Float64Array(m));
  // apache-arrow checks the top-level columns' row counts against the batch, not a struct's fields against each other
  for (const [name, c] of [
    ["dest", dest],
    ["offset", offset],
    ["count", count],
  ] as const)
    if (c.length !== origin.length)
      throw fail(MODULE, "BAD_FORMAT", `chunks.${name} has ${c.length} entries, chunks.origin ${origin.length}`, {
        field: `chunks.${name}`,
      });
  let start: Uint32Array;
  if (lists.length === 1 && lists[0]!.offset === 0 && lists[0]!.valueOffsets[0] === 0) {
    start = asU32((lists[0]!.valueOffsets as Int32Array).subarray(0, n + 1));
  } else {
    start = new Uint32Array(n + 1);
    let at = 0,
      base = 0;
    for (const d of lists) {
      const off = d.valueOffsets as Int32Array;
      for (let k = 0; k < d.length; k++) start[at++] = base + off[d.offset + k]! - off[d.offset]!;
      base += off[d.offset + d.length]! - off[d.offset]!;
    }
    start[n] = base;
  }
  for (let x = 0; x < n && !trusted; x++)
    if (start[x]! > start[x + 1]!) throw fail(MODULE, "BAD_FORMAT", `chunk offsets decrease at transfer ${x}`);
  if (start[n] !== origin.length) throw fail(MODULE, "BAD_FORMAT", "chunk offsets do not end at the chunk count");
  return { start, origin: asU32(origin), dest: asU32(dest), offset, count };
}

/** The header JSON of the table's schema metadata, checked. */
function parseHeader(table: Table): ScheduleArrowHeader {
  return parseArrowHeader(table.schema.metadata.get(SCHEDULE_ARROW_META_KEY));
}

/** A problem of one row of a column. */
function badRow(column: string, x: number, text: string): never {
  throw fail(MODULE, "BAD_INPUT", `${column} of transfer ${x} ${text}`, { field: column });
}

/**
 * Checks the values of the columns as the JSON reader checks its transfers: sizes, chunk offsets
 * and counts whole numbers in range (exact in a double), chunk nodes below p, chunks that add up to
 * their transfer's size, times in 0..2^53 - 1 with start <= end.
 */
function checkColumnValues(p: number, size: Float64Array, chunks: ChunkTable | null, times: Schedule["times"]): void {
  for (let x = 0; x < size.length; x++) {
    const problem = wholeNumberProblem(size[x]!, 1);
    if (problem !== null) badRow("size", x, problem);
  }
  if (chunks !== null) {
    const { start, origin, dest, offset, count } = chunks;
    for (let x = 0; x < size.length; x++) {
      let sum = 0;
      for (let c = start[x]!; c < start[x + 1]!; c++) {
        // the place is spelt out only for a refusal: this loop runs once per chunk
        const at = (): string => `chunk ${c - start[x]!} of transfer ${x}`;
        if (origin[c]! >= p) badRow("chunks.origin", x, `(${at()}) = ${origin[c]} is not a node index in 0..${p - 1}`);
        if (dest[c]! >= p) badRow("chunks.dest", x, `(${at()}) = ${dest[c]} is not a node index in 0..${p - 1}`);
        const off = wholeNumberProblem(offset[c]!, 0);
        if (off !== null) badRow("chunks.offset", x, `(${at()}) ${off}`);
        const cnt = wholeNumberProblem(count[c]!, 1);
        if (cnt !== null) badRow("chunks.count", x, `(${at()}) ${cnt}`);
        sum += count[c]!;
      }
      if (sum !== size[x]) badRow("size", x, `= ${size[x]} but its chunks hold ${sum} elements`);
    }
  }
  if (times !== null) {
    for (let x = 0; x < size.length; x++) {
      timeValue("start", x, times.start[x]!);
      timeValue("end", x, times.end[x]!);
      if (!(times.start[x]! <= times.end[x]!))
        badRow("start", x, `ends before it starts (start ${times.start[x]}, end ${times.end[x]})`);
    }
  }
}

/** Refuses a time of transfer x outside 0..2^53 - 1, naming its column. */
function timeValue(name: "start" | "end", x: number, t: number): void {
  if (!(t >= 0)) badRow(name, x, "must be >= 0");
  if (t > MAX_EXACT) badRow(name, x, TOO_BIG);
}

/** The step starts from the step column (nondecreasing, below stepCount), checking src and dst below p. */
function stepStarts(step: IndexArray, src: Uint32Array, dst: Uint32Array, p: number, stepCount: number): Uint32Array {
  const n = step.length;
  const stepStart = new Uint32Array(stepCount + 1);
  let prev = 0;
  for (let x = 0; x < n; x++) {
    const s = step[x]!;
    if (s < prev || s >= stepCount) throw fail(MODULE, "BAD_FORMAT", `transfer ${x}: step ${s} out of order or range`);
    if (src[x]! >= p || dst[x]! >= p) throw fail(MODULE, "BAD_FORMAT", `transfer ${x}: src or dst not below P = ${p}`);
    for (let k = prev + 1; k <= s; k++) stepStart[k] = x;
    prev = s;
  }
  for (let k = prev + 1; k <= stepCount; k++) stepStart[k] = n;
  return stepStart;
}

/**
 * Every transfer's stage is the stage of its step (the header's stages, already checked by decodeStages to tile the
 * steps 0 .. stepCount - 1).
 */
function checkStages(stage: IndexArray, stepStart: Uint32Array, stages: readonly StageInfo[]): void {
  stages.forEach((st, k) => {
    const x1 = stepStart[st.firstStep + st.stepCount]!;
    for (let x = stepStart[st.firstStep]!; x < x1; x++)
      if (stage[x] !== k)
        throw fail(MODULE, "BAD_FORMAT", `transfer ${x}: stage ${stage[x]}, but its step is in stage ${k}`, {
          field: "stage",
        });
  });
}

/**
 * Decodes an Arrow IPC file written by encodeScheduleArrow (or by any writer of the same columns:
 * pyarrow, polars) into a Schedule whose typed arrays are views of `bytes` where the file has one
 * record batch (copies otherwise); checks the columns' types and lengths, the indices' ranges, and
 * that each transfer's stage is its step's.
 */
export function decodeScheduleArrow(bytes: Uint8Array): Schedule {
  return decodeScheduleArrowWithHeader(bytes).schedule;
}

/**
 * The files of the flatbuffers copies in use: apache-arrow's, and this module's (the same file once npm deduped them).
 */
export function flatbufferCopies(): string[] {
  const ours = createRequire(import.meta.url);
  const arrows = createRequire(ours.resolve("apache-arrow"));
  return [...new Set([arrows.resolve("flatbuffers"), ours.resolve("flatbuffers")])];
}

/** The ByteBuffer classes of the flatbuffers copies in use (one when npm deduped them). */
function byteBufferClasses(): (typeof ByteBuffer)[] {
  const load = createRequire(import.meta.url);
  const found = flatbufferCopies().map((file) => (load(file) as { ByteBuffer: typeof ByteBuffer }).ByteBuffer);
  return [...new Set([ByteBuffer, ...found])];
}

/** The ByteBuffer classes whose vector lengths a decode checks (found once; the same for every decode). */
const BYTE_BUFFERS: readonly (typeof ByteBuffer)[] = byteBufferClasses();

/**
 * Runs `decode` (synchronous) with the metadata vectors of every flatbuffer checked, and leaves
 * flatbuffers as it was when it returns or throws. apache-arrow decodes a file's metadata (footer,
 * schema, message headers) with the flatbuffers runtime, which takes every vector length from the
 * bytes: in a damaged file a length far past the end of a small footer keeps the schema decoder
 * busy for minutes (docs/arrow.md, "Damaged files"). During the call, a vector whose length passes
 * the end of its buffer (every element takes at least a byte) is refused: `__vector_len` of the
 * flatbuffers copy apache-arrow resolves (found as Node finds it: flatbuffers is a CommonJS package,
 * so `import` and `require` load the same file), and of this module's copy when npm did not dedupe
 * them, is wrapped for the call only; nothing else runs meanwhile, as the call does not yield.
 */
function withCheckedFlatbufferVectors<T>(decode: () => T): T {
  const classes = BYTE_BUFFERS;
  const originals = classes.map((bb) => bb.prototype.__vector_len);
  classes.forEach((bb, k) => {
    const vectorLength = originals[k]!;
    bb.prototype.__vector_len = function checkedVectorLength(this: ByteBuffer, offset: number): number {
      const n = vectorLength.call(this, offset);
      const start = offset + this.readInt32(offset) + 4;
      if (n < 0 || n > this.capacity() - start)
        throw new Error(`a metadata vector of ${n} elements passes the end of its ${this.capacity()}-byte buffer`);
      return n;
    };
  });
  try {
    return decode();
  } finally {
    classes.forEach((bb, k) => {
      bb.prototype.__vector_len = originals[k]!;
    });
  }
}

/**
 * The table of an Arrow IPC file or stream. Not apache-arrow's tableFromIPC: iterating a file, its
 * reader (21.2) reads the message at the footer's next record-batch block and counts it only when it
 * is a record batch, so a footer block that points at the schema message (bytes inserted before the
 * footer) is read again forever. Here each block is read once by index; a block that does not hold a
 * record batch is refused.
 */
function tableOfIpc(bytes: Uint8Array): Table {
  try {
    return withCheckedFlatbufferVectors(() => readTable(bytes));
  } catch (e) {
    if (isCommplanError(e)) throw e;
    throw fail(MODULE, "BAD_FORMAT", `not an Arrow IPC file (${(e as Error).message.split("\n")[0]})`);
  }
}

/** The table of an Arrow IPC file or stream, each record batch block read once by index (tableOfIpc). */
function readTable(bytes: Uint8Array): Table {
  const reader = RecordBatchReader.from(bytes);
  reader.open();
  if (!reader.isFile()) return new Table(reader.readAll());
  const batches: RecordBatch[] = [];
  for (let i = 0; i < reader.numRecordBatches; i++) {
    const batch = reader.readRecordBatch(i);
    if (batch === null)
      throw fail(MODULE, "BAD_FORMAT", `not an Arrow IPC file (footer block ${i} does not hold a record batch)`);
    batches.push(batch);
  }
  return new Table(reader.schema, batches);
}

/** Options of decodeScheduleArrowWithHeader. */
export interface DecodeArrowOptions {
  /**
   * The bytes are known to be what commplan wrote (a plan store entry whose checksum matched): skip
   * the per-row checks (src and dst below P, steps in order, chunk offsets in order) and find the
   * step starts by binary search. Never set it for a file from elsewhere.
   */
  readonly trusted?: boolean;
}

/** decodeScheduleArrow, also returning the header JSON as written (with any extra fields a caller added). */
export function decodeScheduleArrowWithHeader(
  bytes: Uint8Array,
  opts: DecodeArrowOptions = {},
): { schedule: Schedule; header: ScheduleArrowHeader } {
  checkOptionsObject(MODULE, "options", opts);
  const trusted = opts.trusted === true;
  const table = tableOfIpc(bytes);
  const h = parseHeader(table);
  const stages = decodeStages(h);
  const step = indexCol(table, "step");
  const src = asU32(i32Col(table, "src"));
  const dst = asU32(i32Col(table, "dst"));
  const size = f64Col(table, "size");
  const stage = indexCol(table, "stage");
  const n = src.length;
  const timed = checkType(table, "start", F64, false);
  const times = timed ? { start: f64Col(table, "start"), end: f64Col(table, "end") } : null;
  const stepStart = trusted ? trustedStepStarts(step, h.stepCount) : stepStarts(step, src, dst, h.p, h.stepCount);
  if (!trusted) checkStages(stage, stepStart, stages);
  const chunks = checkType(table, "chunks", CHUNK_LIST, false) ? decodeChunks(table, n, trusted) : null;
  if (!trusted) checkColumnValues(h.p, size, chunks, times);
  const schedule = scheduleOfArrow(h, stages, stepStart, { src, dst, size, chunks, times });
  return { schedule, header: h };
}

/** The header JSON of an Arrow plan file without decoding its columns (for listings). */
export function readScheduleArrowHeader(bytes: Uint8Array): ScheduleArrowHeader {
  return parseHeader(tableOfIpc(bytes));
}
