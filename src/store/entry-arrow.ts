/**
 * Entry Arrow reader: a sealed plan store entry (an Arrow IPC file as encodeScheduleArrow writes it: one record batch
 * of the columns stage, step, src, dst, size, [chunks], [start, end], little-endian, uncompressed) decoded without
 * apache-arrow, whose import is most of a `store get`'s start (docs/arrow.md, "Start-up of store get"). Any other
 * layout is left to apache-arrow's decoder.
 */
import type { ChunkTable, Schedule } from "../model/schedule.js";
import {
  decodeStages,
  parseArrowHeader,
  SCHEDULE_ARROW_META_KEY,
  scheduleOfArrow,
  trustedStepStarts,
  type ArrowPlanColumns,
  type IndexArray,
  type ScheduleArrowHeader,
} from "../io/schedule-arrow-meta.js";

/** Where the bytes are not the layout this reader reads: caught by decodeSealedEntry, which then answers null. */
function notMine(): never {
  throw new RangeError("entry-arrow: not the layout of a store entry");
}

/** The Message header type of a record batch, and the Type union's members this reader knows (Arrow's Schema.fbs). */
const RECORD_BATCH = 3;
const TYPE_INT = 2;
const TYPE_FLOAT = 3;
const TYPE_LIST = 12;
const TYPE_STRUCT = 13;
const DOUBLE = 2;

/** A column's type as this reader knows it. */
type ColumnType =
  | { readonly kind: "int"; readonly bits: number; readonly signed: boolean }
  | { readonly kind: "f64" }
  | { readonly kind: "list"; readonly item: ColumnType }
  | { readonly kind: "struct"; readonly fields: readonly NamedType[] };

interface NamedType {
  readonly name: string;
  readonly type: ColumnType;
}

/** Reads flatbuffers tables of `bytes` (offsets absolute in the file), every read inside [0, limit). */
function flatReader(bytes: Uint8Array) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number): number => v.getUint32(at, true);
  /** A 64-bit count or offset, refused past 2^53. */
  const u64 = (at: number): number => {
    const hi = v.getUint32(at + 4, true);
    if (hi >= 1 << 21) notMine();
    return hi * 2 ** 32 + v.getUint32(at, true);
  };
  /** The position of field k of the table at t, or 0 when it is absent. */
  const field = (t: number, k: number): number => {
    const vt = t - v.getInt32(t, true);
    const o = 4 + 2 * k < v.getUint16(vt, true) ? v.getUint16(vt + 4 + 2 * k, true) : 0;
    return o === 0 ? 0 : t + o;
  };
  const table = (t: number, k: number): number => {
    const f = field(t, k);
    return f === 0 ? 0 : f + u32(f);
  };
  /** Field k of the table at t as a 64-bit count (0 when absent). */
  const long = (t: number, k: number): number => {
    const f = field(t, k);
    return f === 0 ? 0 : u64(f);
  };
  /** The elements of vector field k (`size` bytes each): where they start and how many; none when absent. */
  const vector = (t: number, k: number, size: number): { at: number; length: number } => {
    const f = field(t, k);
    if (f === 0) return { at: 0, length: 0 };
    const at = f + u32(f);
    const length = u32(at);
    if (at + 4 + length * size > bytes.length) notMine();
    return { at: at + 4, length };
  };
  const text = (t: number, k: number): string => {
    const s = vector(t, k, 1);
    return Buffer.from(bytes.buffer, bytes.byteOffset + s.at, s.length).toString("utf8");
  };
  const int = (t: number, k: number, width: 1 | 2 | 4): number => {
    const f = field(t, k);
    if (f === 0) return 0;
    return width === 1 ? v.getUint8(f) : width === 2 ? v.getInt16(f, true) : v.getInt32(f, true);
  };
  /** The tables of vector field k (a vector of offsets). */
  const tables = (t: number, k: number): number[] => {
    const s = vector(t, k, 4);
    return Array.from({ length: s.length }, (_, i) => s.at + 4 * i + u32(s.at + 4 * i));
  };
  return { u32, u64, long, table, vector, text, int, tables, root: (at: number): number => at + u32(at) };
}

type Flat = ReturnType<typeof flatReader>;

/** The type of the Field table at f (Int, FloatingPoint, List, Struct; anything else is not a store entry's). */
function columnType(fb: Flat, f: number): ColumnType {
  const kind = fb.int(f, 2, 1);
  const t = fb.table(f, 3);
  const children = fb.tables(f, 5).map((c) => ({ name: fb.text(c, 0), type: columnType(fb, c) }));
  if (kind === TYPE_INT && t !== 0) return { kind: "int", bits: fb.int(t, 0, 4), signed: fb.int(t, 1, 1) !== 0 };
  if (kind === TYPE_FLOAT && t !== 0 && fb.int(t, 0, 2) === DOUBLE) return { kind: "f64" };
  if (kind === TYPE_LIST && children.length === 1) return { kind: "list", item: children[0]!.type };
  if (kind === TYPE_STRUCT) return { kind: "struct", fields: children };
  return notMine();
}

const isInt = (t: ColumnType, bits: number, signed: boolean): boolean =>
  t.kind === "int" && t.bits === bits && t.signed === signed;
const CHUNK_FIELDS = ["origin", "dest", "offset", "count"];

/** Whether a column list is the chunks column: list<struct<origin, dest: int32; offset, count: float64>>. */
function isChunkList(t: ColumnType): boolean {
  if (t.kind !== "list" || t.item.kind !== "struct" || t.item.fields.length !== 4) return false;
  return t.item.fields.every(
    (f, k) => f.name === CHUNK_FIELDS[k] && (k < 2 ? isInt(f.type, 32, true) : f.type.kind === "f64"),
  );
}

/** The columns checked to be what encodeScheduleArrow writes, in its order; whether chunks and times are there. */
function checkColumns(fields: readonly NamedType[]): { chunks: boolean; times: boolean } {
  const names = fields.map((f) => f.name);
  const chunks = names[5] === "chunks";
  const times = names[chunks ? 6 : 5] === "start";
  const want = [
    "stage",
    "step",
    "src",
    "dst",
    "size",
    ...(chunks ? ["chunks"] : []),
    ...(times ? ["start", "end"] : []),
  ];
  if (names.length !== want.length || names.some((n, k) => n !== want[k])) notMine();
  const [stage, step, src, dst, size] = fields.map((f) => f.type);
  const index = (t: ColumnType | undefined): boolean => t?.kind === "int" && [8, 16, 32].includes(t.bits);
  if (!index(stage) || !index(step) || !isInt(src!, 32, true) || !isInt(dst!, 32, true) || size!.kind !== "f64")
    notMine();
  if (chunks && !isChunkList(fields[5]!.type)) notMine();
  if (times && fields.slice(-2).some((f) => f.type.kind !== "f64")) notMine();
  return { chunks, times };
}

/** The schema of the file (its footer's): the columns and the `commplan` metadata text. */
function footerSchema(fb: Flat, bytes: Uint8Array): { footer: number; fields: NamedType[]; meta: string | undefined } {
  const len = bytes.length;
  if (len < 24 || Buffer.from(bytes.buffer, bytes.byteOffset + len - 6, 6).toString("latin1") !== "ARROW1") notMine();
  const footerLength = fb.u32(len - 10);
  if (footerLength <= 0 || footerLength > len - 18) notMine();
  const footer = fb.root(len - 10 - footerLength);
  const schema = fb.table(footer, 1);
  if (schema === 0 || fb.int(schema, 0, 2) !== 0) notMine(); // little-endian
  const fields = fb.tables(schema, 1).map((f) => ({ name: fb.text(f, 0), type: columnType(fb, f) }));
  let meta: string | undefined;
  for (const kv of fb.tables(schema, 2)) if (fb.text(kv, 0) === SCHEDULE_ARROW_META_KEY) meta = fb.text(kv, 1);
  return { footer, fields, meta };
}

/** The file's one record batch: its row count, field nodes and buffers (absolute in the file), none compressed. */
function recordBatch(fb: Flat, footer: number, bytes: Uint8Array) {
  if (fb.vector(footer, 2, 24).length !== 0) notMine(); // dictionaries
  const blocks = fb.vector(footer, 3, 24);
  if (blocks.length !== 1) notMine();
  const offset = fb.u64(blocks.at);
  const metaLength = fb.u32(blocks.at + 8);
  const bodyLength = fb.u64(blocks.at + 16);
  const body = offset + metaLength;
  if (body + bodyLength > bytes.length) notMine();
  const message = fb.root(fb.u32(offset) === 0xffffffff ? offset + 8 : offset + 4);
  const batch = fb.table(message, 2);
  if (fb.int(message, 1, 1) !== RECORD_BATCH || batch === 0 || fb.table(batch, 3) !== 0) notMine();
  const nodes = fb.vector(batch, 1, 16);
  const buffers = fb.vector(batch, 2, 16);
  let node = 0,
    buffer = 0;
  return {
    rows: fb.long(batch, 0),
    /** The next field node's length, refused when it has nulls. */
    node(): number {
      if (node >= nodes.length || fb.u64(nodes.at + 16 * node + 8) !== 0) notMine();
      return fb.u64(nodes.at + 16 * node++);
    },
    /** The next buffer: where it starts in the file and its length. */
    buffer(): { at: number; length: number } {
      if (buffer >= buffers.length) notMine();
      const at = fb.u64(buffers.at + 16 * buffer);
      const length = fb.u64(buffers.at + 16 * buffer++ + 8);
      if (at + length > bodyLength) notMine();
      return { at: body + at, length };
    },
  };
}

type Batch = ReturnType<typeof recordBatch>;
type Typed = IndexArray | Float64Array;
type TypedClass = { new (b: ArrayBufferLike, at: number, n: number): Typed; BYTES_PER_ELEMENT: number };

/** `n` values of a buffer as a typed array: a view of the file's bytes when aligned, else a copy. */
function values(bytes: Uint8Array, buf: { at: number; length: number }, n: number, C: TypedClass): Typed {
  const width = C.BYTES_PER_ELEMENT;
  if (buf.length < n * width) notMine();
  const at = bytes.byteOffset + buf.at;
  if (at % width === 0) return new C(bytes.buffer, at, n);
  const copy = bytes.slice(buf.at, buf.at + n * width);
  return new C(copy.buffer, 0, n);
}

/** The next primitive column of `rows` values (its node, its validity and values buffers). */
function primitive(bytes: Uint8Array, batch: Batch, rows: number, C: TypedClass): Typed {
  if (batch.node() !== rows) notMine();
  batch.buffer(); // validity: no nulls
  return values(bytes, batch.buffer(), rows, C);
}

function intClass(t: ColumnType): TypedClass {
  if (t.kind !== "int") return notMine();
  const classes = t.signed ? [Int8Array, Int16Array, Int32Array] : [Uint8Array, Uint16Array, Uint32Array];
  return classes[Math.log2(t.bits) - 3]!;
}

/** The chunks column of `rows` transfers: its list offsets (starting at 0) and its struct's four columns. */
function chunkColumn(bytes: Uint8Array, batch: Batch, rows: number): ChunkTable {
  if (batch.node() !== rows) notMine();
  batch.buffer();
  const offsets = values(bytes, batch.buffer(), rows + 1, Int32Array) as Int32Array;
  const n = offsets[rows]!;
  if (offsets[0] !== 0 || batch.node() !== n) notMine();
  batch.buffer();
  const origin = primitive(bytes, batch, n, Int32Array);
  const dest = primitive(bytes, batch, n, Int32Array);
  const offset = primitive(bytes, batch, n, Float64Array) as Float64Array;
  const count = primitive(bytes, batch, n, Float64Array) as Float64Array;
  const u32 = (a: Typed): Uint32Array => new Uint32Array(a.buffer, a.byteOffset, a.length);
  return { start: u32(offsets), origin: u32(origin), dest: u32(dest), offset, count };
}

/** The columns and metadata of an entry, or a RangeError (notMine) when it is not laid out as a store entry. */
function entryLayout(bytes: Uint8Array): { meta: string | undefined; step: IndexArray; columns: ArrowPlanColumns } {
  const fb = flatReader(bytes);
  const { footer, fields, meta } = footerSchema(fb, bytes);
  const has = checkColumns(fields);
  const batch = recordBatch(fb, footer, bytes);
  const rows = batch.rows;
  const u32 = (a: Typed): Uint32Array => new Uint32Array(a.buffer, a.byteOffset, a.length);
  primitive(bytes, batch, rows, intClass(fields[0]!.type)); // stage: not read for a sealed entry
  const step = primitive(bytes, batch, rows, intClass(fields[1]!.type)) as IndexArray;
  const src = u32(primitive(bytes, batch, rows, Int32Array));
  const dst = u32(primitive(bytes, batch, rows, Int32Array));
  const size = primitive(bytes, batch, rows, Float64Array) as Float64Array;
  const chunks = has.chunks ? chunkColumn(bytes, batch, rows) : null;
  const times = has.times
    ? {
        start: primitive(bytes, batch, rows, Float64Array) as Float64Array,
        end: primitive(bytes, batch, rows, Float64Array) as Float64Array,
      }
    : null;
  return { meta, step, columns: { src, dst, size, chunks, times } };
}

/** The columns and metadata of a store entry as this reader reads them (entryLayout). */
export type EntryLayout = ReturnType<typeof entryLayout>;

/** The layout of sealed entry bytes, or null when they are not laid out as this reader reads (apache-arrow's then). */
export function sealedEntryLayout(bytes: Uint8Array): EntryLayout | null {
  try {
    return entryLayout(bytes);
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}

/**
 * The plan and header of an entry's layout, as decodeScheduleArrowWithHeader decodes a sealed entry (its checksum
 * matched: the bytes are commplan's) with `trusted`: the header checked, the step starts found by binary search.
 */
export function planOfLayout(layout: EntryLayout): { schedule: Schedule; header: ScheduleArrowHeader } {
  const h = parseArrowHeader(layout.meta);
  const stages = decodeStages(h);
  const stepStart = trustedStepStarts(layout.step, h.stepCount);
  return { schedule: scheduleOfArrow(h, stages, stepStart, layout.columns), header: h };
}

/** The plan and header of sealed entry bytes (planOfLayout), or null when this reader does not read their layout. */
export function decodeSealedEntry(bytes: Uint8Array): { schedule: Schedule; header: ScheduleArrowHeader } | null {
  const layout = sealedEntryLayout(bytes);
  return layout === null ? null : planOfLayout(layout);
}

/**
 * The `commplan` schema metadata text of an Arrow IPC file's footer (`footer`: the footer's flatbuffer alone, as the
 * length before the file's end magic gives it), undefined when it has none: any writer's footer, as apache-arrow reads
 * the schema of a file. A flatbuffer that points outside the bytes throws a RangeError.
 */
export function footerMetadata(footer: Uint8Array): string | undefined {
  const fb = flatReader(footer);
  const schema = fb.table(fb.root(0), 1);
  if (schema === 0) throw new RangeError("entry-arrow: the footer holds no schema");
  let meta: string | undefined;
  for (const kv of fb.tables(schema, 2)) if (fb.text(kv, 0) === SCHEDULE_ARROW_META_KEY) meta = fb.text(kv, 1);
  return meta;
}
