/**
 * Schedule JSON writer: a Schedule as a commplan.schedule/v1 document, streamed in ~1 MiB pieces and renamed into
 * place.
 */
import { canonicalJson } from "./canonical-json.js";
import { OUTPUT_OPTION_KEYS, writePieces, type OutputOptions } from "./file-output.js";
import { FORMAT_NAMES } from "./json-schema.js";
import { AsciiWriter, digitTables, PiecePool, pieceText, put4, word4, writeDigits } from "../internal/ascii-writer.js";
import { fail } from "../model/errors.js";
import type { Schedule } from "../model/schedule.js";
import { checkSchedule, checkScheduleArg, isTransferOk, scheduleArgProblem } from "../model/schedule-check.js";
import { checkArg, checkOptionKeys, checkOptionsObject, isIntIn } from "../model/option-checks.js";
import { checkProgress, progressTicker, type ProgressCallback } from "../model/progress.js";

const MODULE = "schedule";
/** Target size of the pieces the writer hands to the stream. */
const PIECE = 1 << 20;

/** The document's header: its fields one per line, up to the opening of "stages". */
function header(s: Schedule): string {
  return (
    `{\n"format":${JSON.stringify(FORMAT_NAMES.schedule)},\n"p":${s.p},\n"algorithm":${JSON.stringify(s.algorithm)},\n` +
    `"params":${canonicalJson(s.params, MODULE)},\n"seed":${s.seed === null ? "null" : canonicalJson(s.seed, MODULE)},\n"elementBytes":${s.elementBytes},\n` +
    `"matrixDigest":${JSON.stringify(s.matrixDigest)},\n${s.auto === undefined ? "" : `"auto":${canonicalJson(s.auto, MODULE)},\n`}"stages":[`
  );
}

/** Appends transfer x's object (from its opening brace to its closing one), numbers checked by checkSchedule. */
function transfer(w: AsciiWriter, s: Schedule, x: number): void {
  const { src, dst, size, chunks, times } = s;
  const z = size[x]!;
  w.text('{"src":');
  w.num(src[x]!);
  w.text(',"dst":');
  w.num(dst[x]!);
  w.text(',"size":');
  w.num(z);
  if (chunks) {
    w.text(',"chunks":[');
    for (let c = chunks.start[x]!; c < chunks.start[x + 1]!; c++) {
      const off = chunks.offset[c]!,
        cnt = chunks.count[c]!;
      w.text(c > chunks.start[x]! ? ",[" : "[");
      w.num(chunks.origin[c]!);
      w.char(0x2c);
      w.num(chunks.dest[c]!);
      w.char(0x2c);
      w.num(off);
      w.char(0x2c);
      w.num(cnt);
      w.char(0x5d);
    }
    w.char(0x5d);
  }
  if (times) {
    const t0 = times.start[x]!,
      t1 = times.end[x]!;
    w.text(',"start":');
    w.num(t0);
    w.text(',"end":');
    w.num(t1);
  }
  w.char(0x7d);
}

/** The ASCII bytes of a text. */
const ascii = (t: string): Uint8Array => Uint8Array.from(t, (c) => c.charCodeAt(0));
/** The most bytes a transfer without chunks or times takes, its separator included (a size as String writes it). */
const PLAIN_ROW = 96;

/** Copies `bytes` into b at p; returns the position after them. */
function put(b: Uint8Array, p: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) b[p + i] = bytes[i]!;
  return p + bytes.length;
}

/** A plain row's constant parts, four bytes a word (put4): '\n{"src":', ',"dst":', ',"size":'. */
const SRC0 = word4('\n{"s'),
  SRC1 = word4('rc":'),
  DST0 = word4(',"ds'),
  DST1 = word4('t":'),
  SIZE0 = word4(',"si'),
  SIZE1 = word4('ze":');

/**
 * Transfers `x` .. `end - 1` of a schedule without chunks or times (`first`: its step's first transfer), as `transfer`
 * writes them, each after its separator, written straight into the writer's buffer until it holds at least `limit`
 * bytes; returns the next transfer to write. Each row is checked as checkSchedule checks it (a row that fails throws
 * checkSchedule's error). Its bytes are 32-bit stores, each number's digits a table read (docs/architecture.md).
 */
function plainTransfers(w: AsciiWriter, s: Schedule, x: number, end: number, first: number, limit: number): number {
  const { p: nodes, src, dst, size } = s;
  const t = digitTables();
  const { digits: dg, count: ct } = t;
  const b = w.reserve(Math.max(limit - w.length, 0) + PLAIN_ROW);
  const v = w.view32();
  // the words as locals: a bundle's module variables are mutable, loaded and checked at every use
  const s0 = SRC0,
    s1 = SRC1,
    d0 = DST0,
    d1 = DST1,
    z0 = SIZE0,
    z1 = SIZE1;
  let p = w.length;
  while (x < end) {
    if (x > first) b[p++] = 0x2c;
    const a = src[x]!,
      d = dst[x]!,
      z = size[x]!;
    if (!isTransferOk(a, d, z, nodes)) checkSchedule(s, MODULE);
    v.setUint32(p, s0, true);
    v.setUint32(p + 4, s1, true);
    p = a < 10000 ? put4(v, p + 8, dg[a]!, ct[a]!) : writeDigits(v, t, p + 8, a);
    v.setUint32(p, d0, true);
    v.setUint32(p + 4, d1, true); // its fourth byte is the first digit's place
    p = d < 10000 ? put4(v, p + 7, dg[d]!, ct[d]!) : writeDigits(v, t, p + 7, d);
    v.setUint32(p, z0, true);
    v.setUint32(p + 4, z1, true);
    p += 8;
    if (z < 10000) p = put4(v, p, dg[z]!, ct[z]!);
    else if (z <= 0xffffffff) p = writeDigits(v, t, p, z);
    else p = put(b, p, ascii(String(z)));
    b[p++] = 0x7d;
    x++;
    if (p >= limit) break;
  }
  w.advance(p);
  return x;
}

/**
 * The document in pieces of about `pieceSize` bytes (deterministic): the header one field per
 * line, then one line per stage, step and transfer, written into Buffers of ASCII. `progress`:
 * transfers written, once per step. The schedule is checked before the first piece, so a broken one writes nothing;
 * `atomic` (the pieces go to a file published only once all are written): transfers without chunks or times are
 * checked as they are written instead, one pass over them fewer.
 */
function* scheduleJsonChunks(
  s: Schedule,
  pieceSize: number,
  progress: ProgressCallback | null = null,
  pool: PiecePool | null = null,
  atomic = false,
): Generator<string | Uint8Array, void, undefined> {
  const plain = s.chunks === null && s.times === null;
  checkSchedule(s, MODULE, { transfers: !(atomic && plain) });
  yield header(s);
  const w = new AsciiWriter(pieceSize + 4096, pool);
  const { stepStart, stallStart, stallNode } = s;
  const tick = progressTicker(progress, s.transferCount);
  let mark = tick(0);
  for (let k = 0; k < s.stages.length; k++) {
    const st = s.stages[k]!;
    w.text(
      `${k > 0 ? "," : ""}\n{"name":${JSON.stringify(st.name)},"rearrange":${JSON.stringify(st.rearrange)},"steps":[`,
    );
    for (let step = st.firstStep; step < st.firstStep + st.stepCount; step++) {
      if (stepStart[step]! >= mark) mark = tick(stepStart[step]!);
      w.text(step > st.firstStep ? ',\n{"transfers":[' : '\n{"transfers":[');
      const end = stepStart[step + 1]!;
      for (let x = stepStart[step]!; plain && x < end;) {
        x = plainTransfers(w, s, x, end, stepStart[step]!, pieceSize);
        if (w.length >= pieceSize) yield w.take();
      }
      for (let x = stepStart[step]!; !plain && x < end; x++) {
        w.text(x > stepStart[step]! ? ",\n" : "\n");
        transfer(w, s, x);
        if (w.length >= pieceSize) yield w.take();
      }
      w.text(end > stepStart[step]! ? '\n],"stalls":[' : '],"stalls":[');
      for (let q = stallStart[step]!; q < stallStart[step + 1]!; q++) {
        if (q > stallStart[step]!) w.char(0x2c);
        w.num(stallNode[q]!);
      }
      w.text("]}");
    }
    w.text(`${st.stepCount > 0 ? "\n" : ""}]}`);
  }
  w.text(`${s.stages.length > 0 ? "\n" : ""}]\n}\n`);
  yield w.take();
  tick(Infinity);
}

/**
 * The document as a sequence of strings of about `pieceSize` characters (deterministic bytes):
 * the header one field per line, then one line per stage, step and transfer.
 */
export function* scheduleJsonPieces(s: Schedule, pieceSize = PIECE): Generator<string, void, undefined> {
  checkArg(
    MODULE,
    "scheduleJsonPieces",
    "pieceSize",
    pieceSize,
    isIntIn(pieceSize, 1, 2 ** 30),
    "a positive integer (bytes)",
    "BAD_OPTION",
  );
  checkScheduleArg(MODULE, s, "scheduleJsonPieces");
  for (const piece of scheduleJsonChunks(s, pieceSize)) yield pieceText(piece);
}

/** The whole document as one string (for small schedules and tests; large ones should use writeScheduleJson). */
export function scheduleToJsonText(s: Schedule): string {
  checkScheduleArg(MODULE, s, "scheduleToJsonText");
  let text = "";
  for (const piece of scheduleJsonPieces(s)) text += piece;
  return text;
}

/** Options of writeScheduleJson. */
export interface ScheduleWriteOptions extends OutputOptions {
  /** Called as the document is written: `done` of `total` transfers. */
  readonly progress?: ProgressCallback | null;
}

/**
 * Writes the schedule as JSON to a path, or to `opts.stdout` (the process's by default) for "-".
 * Streams ~1 MiB pieces with backpressure; a path is written to a temporary file in the same
 * directory and renamed into place, so a failure never leaves a half-written file.
 */
export async function writeScheduleJson(s: Schedule, target: string, opts: ScheduleWriteOptions = {}): Promise<void> {
  const arg = scheduleArgProblem(s);
  if (arg !== null) throw fail(MODULE, "BAD_INPUT", arg, { field: "schedule" });
  checkOptionsObject(MODULE, "options", opts);
  checkOptionKeys(MODULE, opts, [...OUTPUT_OPTION_KEYS, "progress"]);
  // the written pieces' Buffers are reused: the file holds them, not the heap until the next collection
  const pool = new PiecePool(PIECE + 4096);
  const progress = checkProgress(opts.progress, MODULE);
  const chunks = (atomic: boolean): Iterable<string | Uint8Array> =>
    scheduleJsonChunks(s, PIECE, progress, pool, atomic);
  await writePieces(chunks, target, MODULE, opts, pool.release);
}
