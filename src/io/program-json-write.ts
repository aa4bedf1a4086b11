/**
 * Program JSON writer: a Program as a commplan.program/v1 document (one file, or one file per rank plus an index),
 * streamed in ~1 MiB pieces.
 */
import { canonicalJson } from "./canonical-json.js";
import { closeSync, fchmodSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import type { Dirent, Stats } from "node:fs";
import { readdir } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { slotStart } from "../model/layout-slots.js";
import { BUFFER_NAMES, OP_KINDS, type Program, type RankLayout } from "../model/program.js";
import {
  fsError,
  makeDirectories,
  OUTPUT_OPTION_KEYS,
  refuseIrregularEntries,
  refuseOutputOntoInput,
  trackTemp,
  untrackTemp,
  userMayReplace,
  writePieces,
  type OutputOptions,
} from "./file-output.js";
import { FORMAT_NAMES } from "./json-schema.js";
import { commitRenames, someNames, type StagedRename } from "./commit-files.js";
import { CommplanError, fail, isCommplanError } from "../model/errors.js";
import { checkOptionKeys, checkOptionsObject, checkPathArg, describeValue } from "../model/option-checks.js";
import { oneLine } from "../internal/quoted.js";
import { AsciiWriter, pieceText } from "../internal/ascii-writer.js";
import { checkProgress, progressTicker, type ProgressCallback } from "../model/progress.js";
import { checkProgramArg } from "../model/program-check.js";
import { checkArg, isIntIn } from "../model/option-checks.js";

const MODULE = "program";
/** Options of the program writers. */
export interface ProgramWriteOptions extends OutputOptions {
  /** Called as the ranks are written: `done` of `total` ranks (rank files for a split program). */
  readonly progress?: ProgressCallback | null;
}

/** Target size of the pieces the writer hands to the stream. */
const PIECE = 1 << 20;
const BUF_JSON = BUFFER_NAMES.map((b) => JSON.stringify(b));
const KIND_JSON = OP_KINDS.map((k) => JSON.stringify(k));

/** The header fields, one per line, each followed by a comma. */
function header(prog: Program): string {
  return (
    `{\n"format":${JSON.stringify(FORMAT_NAMES.program)},\n"p":${prog.p},\n"algorithm":${JSON.stringify(prog.algorithm)},\n` +
    `"params":${canonicalJson(prog.params, MODULE)},\n"seed":${prog.seed === null ? "null" : canonicalJson(prog.seed, MODULE)},\n"elementBytes":${prog.elementBytes},\n` +
    `"matrixDigest":${JSON.stringify(prog.matrixDigest)},\n"variant":${JSON.stringify(prog.variant)},\n"rounds":${prog.rounds},\n`
  );
}

/** Appends `"name":[a[lo], ..., a[hi - 1]],` and a newline. */
function column(w: AsciiWriter, name: string, a: Float64Array | Uint32Array, lo: number, hi: number): void {
  w.text(`"${name}":[`);
  for (let k = lo; k < hi; k++) {
    if (k > lo) w.char(0x2c);
    w.num(a[k]!);
  }
  w.text("],\n");
}

/**
 * Appends rank r's counts and displacements: p-long arrays (full form), or its peer lists with their counts and
 * displacements (peer form).
 */
function rankLayout(w: AsciiWriter, layout: RankLayout, r: number, p: number): void {
  const { sendPeers: sp, recvPeers: rp } = layout;
  const s0 = slotStart(sp, p, r),
    s1 = slotStart(sp, p, r + 1),
    r0 = slotStart(rp, p, r),
    r1 = slotStart(rp, p, r + 1);
  if (sp !== null) column(w, "sendPeers", sp.peer, s0, s1);
  column(w, "sendCounts", layout.sendCounts, s0, s1);
  column(w, "sendDispls", layout.sendDispls, s0, s1);
  if (rp !== null) column(w, "recvPeers", rp.peer, r0, r1);
  column(w, "recvCounts", layout.recvCounts, r0, r1);
  column(w, "recvDispls", layout.recvDispls, r0, r1);
}

/** Appends pieces a .. e - 1 as a JSON array of [buffer, offset, count]. */
function pieces(w: AsciiWriter, prog: Program, a: number, e: number): void {
  const { buffer, offset, count } = prog.pieces;
  w.char(0x5b); // [
  for (let q = a; q < e; q++) {
    w.text(q > a ? ",[" : "[");
    w.text(BUF_JSON[buffer[q]!]!);
    w.char(0x2c);
    w.num(offset[q]!);
    w.char(0x2c);
    w.num(count[q]!);
    w.char(0x5d);
  }
  w.char(0x5d); // ]
}

/**
 * The rank objects of `ranks` as Buffers of about `pieceSize` bytes (each op on its own line); `progress`: ranks
 * written.
 */
function* rankPieces(
  prog: Program,
  ranks: readonly number[],
  pieceSize: number,
  progress: ProgressCallback | null,
): Generator<Uint8Array, void, undefined> {
  const w = new AsciiWriter(pieceSize + 4096);
  const tick = progressTicker(progress, ranks.length);
  w.text('"ranks":[');
  for (let k = 0; k < ranks.length; k++) {
    tick(k);
    yield* rankObject(w, prog, ranks[k]!, k > 0, pieceSize);
  }
  yield w.take();
  tick(Infinity);
}

/** Appends rank r's object (after a comma when `more`), yielding what was written whenever it passes `pieceSize`. */
function* rankObject(
  w: AsciiWriter,
  prog: Program,
  r: number,
  more: boolean,
  pieceSize: number,
): Generator<Uint8Array, void, undefined> {
  const { p, ops, layout, after } = prog;
  w.text(`${more ? "," : ""}\n{"rank":${r},\n`);
  rankLayout(w, layout, r, p);
  w.text(
    `"sendSize":${layout.sendSize[r]!},"recvSize":${layout.recvSize[r]!},"scratch":${layout.scratchSize[r]!},\n"ops":[`,
  );
  const x0 = prog.rankStart[r]!,
    x1 = prog.rankStart[r + 1]!;
  for (let x = x0; x < x1; x++) {
    const a = ops.pieceStart[x]!,
      e = ops.pieceStart[x + 1]!,
      kind = ops.kind[x]!;
    w.text(x > x0 ? ",\n[" : "\n[");
    w.num(ops.round[x]!);
    w.char(0x2c);
    w.text(KIND_JSON[kind]!);
    w.char(0x2c);
    if (kind === 2) {
      w.num(ops.count[x]!);
      w.char(0x2c);
      pieces(w, prog, a, a + ops.copySplit[x]!);
      w.char(0x2c);
      pieces(w, prog, a + ops.copySplit[x]!, e);
    } else {
      w.num(ops.peer[x]!);
      w.char(0x2c);
      w.num(ops.tag[x]!);
      w.char(0x2c);
      w.num(ops.count[x]!);
      w.char(0x2c);
      pieces(w, prog, a, e);
    }
    if (after !== undefined) {
      // the operations x waits for, as indices in its rank's list
      w.text(",[");
      for (let k = after.start[x]!; k < after.start[x + 1]!; k++) {
        if (k > after.start[x]!) w.char(0x2c);
        w.num(after.op[k]! - x0);
      }
      w.char(0x5d);
    }
    w.char(0x5d);
    if (w.length >= pieceSize) yield w.take();
  }
  w.text(`${x1 > x0 ? "\n" : ""}]}`);
}

/**
 * The document holding `ranks` (all by default) in pieces of about `pieceSize` bytes (deterministic): text for the
 * header, Buffers of ASCII for the ranks.
 */
function* programJsonChunks(
  prog: Program,
  ranks: readonly number[] | undefined,
  pieceSize: number,
  progress: ProgressCallback | null = null,
): Generator<string | Uint8Array, void, undefined> {
  yield header(prog);
  yield* rankPieces(prog, ranks ?? Array.from({ length: prog.p }, (_, r) => r), pieceSize, progress);
  yield "\n]\n}\n";
}

/**
 * The document holding `ranks` (all by default) as strings of about `pieceSize` characters (deterministic bytes);
 * `opts.progress` counts the ranks.
 */
export function* programJsonPieces(
  prog: Program,
  ranks?: readonly number[],
  pieceSize = PIECE,
  opts: ProgramWriteOptions = {},
): Generator<string, void, undefined> {
  checkProgramArg(MODULE, prog, "programJsonPieces");
  checkOptionsObject(MODULE, "options", opts);
  const okRanks = ranks === undefined || (Array.isArray(ranks) && ranks.every((r) => isIntIn(r, 0, prog.p - 1)));
  checkArg(MODULE, "programJsonPieces", "ranks", ranks, okRanks, `an array of ranks in 0..${prog.p - 1} or undefined`);
  checkArg(
    MODULE,
    "programJsonPieces",
    "pieceSize",
    pieceSize,
    isIntIn(pieceSize, 1, 2 ** 30),
    "a positive integer (bytes)",
    "BAD_OPTION",
  );
  const progress = checkProgress(opts.progress, MODULE);
  for (const piece of programJsonChunks(prog, ranks, pieceSize, progress)) yield pieceText(piece);
}

/** The whole document as one string (small programs and tests). */
export function programToJsonText(prog: Program, ranks?: readonly number[]): string {
  checkProgramArg(MODULE, prog, "programToJsonText");
  const okRanks = ranks === undefined || (Array.isArray(ranks) && ranks.every((r) => isIntIn(r, 0, prog.p - 1)));
  checkArg(MODULE, "programToJsonText", "ranks", ranks, okRanks, `an array of ranks in 0..${prog.p - 1} or undefined`);
  let text = "";
  for (const piece of programJsonPieces(prog, ranks)) text += piece;
  return text;
}

/**
 * Writes the program as one document to a path, or to `opts.stdout` for "-" (atomically, like schedules);
 * `opts.progress` counts the ranks.
 */
export async function writeProgramJson(prog: Program, target: string, opts: ProgramWriteOptions = {}): Promise<void> {
  if (typeof prog !== "object" || prog === null)
    throw fail(MODULE, "BAD_INPUT", `the program is not a Program object, got ${describeValue(prog)}`, {
      field: "program",
    });
  checkOptionsObject(MODULE, "options", opts);
  checkOptionKeys(MODULE, opts, [...OUTPUT_OPTION_KEYS, "progress"]);
  await writePieces(
    programJsonChunks(prog, undefined, PIECE, checkProgress(opts.progress, MODULE)),
    target,
    MODULE,
    opts,
  );
}

/** The file name of rank r in a split program. */
export function rankFileName(r: number): string {
  return `rank-${r}.json`;
}

/** The file name of a split program's index. */
const INDEX_FILE = "index.json";

/**
 * Refuses (refuseOutputOntoInput: exit 2, one line naming both) a split program of `p` ranks into
 * `dir` that would write its index or a rank file onto one of `inputs`; only the files of the split
 * already in `dir` are checked (a file that does not exist yet is no input); the message names the directory as
 * `option` (a command line passes its flag). An entry at one of those names that is not a regular file is then refused
 * too (refuseIrregularEntries), so a command refuses it before any work.
 */
export async function refuseSplitOntoInput(
  module: string,
  inputs: readonly (string | undefined)[],
  dir: string,
  p: number,
  option = "split",
): Promise<void> {
  let present: string[];
  try {
    present = await readdir(dir);
  } catch {
    return; // no directory to list: writing reports it, and nothing in it is an input
  }
  const names = new Set([INDEX_FILE, ...Array.from({ length: p }, (_, r) => rankFileName(r))]);
  for (const n of present.filter((x) => names.has(x)).sort())
    await refuseOutputOntoInput(module, inputs, [[option, join(dir, n)]]);
  await refuseIrregularEntries(module, dir, names);
}

/** Ranks written between two turns of the event loop (signals, the progress bar) in a split program. */
const SPLIT_BATCH = 256;

/**
 * Writes a split program: DIR/rank-<r>.json (a complete document holding rank r) for every rank, then DIR/index.json
 * listing them; `opts.progress` counts the rank files. Each rank file is made as writePieces makes a file, with DIR
 * listed once instead of each file's checks: its document made in one reused buffer and written synchronously to a
 * temporary file in DIR (signals are handled between files: an interrupt then removes the temporary files); once all
 * are written, they are renamed into place all or none (commitRenames: a failed rename undoes the others, an
 * interrupt during the renames waits for their end), so the directory holds the old split or the new one, never a
 * mix. A regular file DIR holds is replaced when the replace check allows it, keeping its permission bits. An entry at
 * one of the split's names that is not a regular file (a symbolic link, FIFO, socket, device, directory) is refused
 * before anything is written (refuseIrregularEntries).
 */
export async function writeProgramSplit(prog: Program, dir: string, opts: ProgramWriteOptions = {}): Promise<void> {
  checkPathArg(MODULE, "writeProgramSplit", "dir", dir, "a directory path");
  checkOptionsObject(MODULE, "options", opts);
  checkOptionKeys(MODULE, opts, [...OUTPUT_OPTION_KEYS, "progress"]);
  checkProgramArg(MODULE, prog, "writeProgramSplit");
  const progress = checkProgress(opts.progress, MODULE);
  let present: Map<string, Dirent>;
  await refuseIrregularEntries(MODULE, dir, [INDEX_FILE, ...Array.from({ length: prog.p }, (_, r) => rankFileName(r))]);
  try {
    makeDirectories(dir);
    present = new Map((await readdir(dir, { withFileTypes: true })).map((d) => [d.name, d]));
  } catch (e) {
    throw fsError(e, MODULE, dir, true);
  }
  const staged: StagedRename[] = [];
  try {
    await stageSplitFiles(prog, dir, present, staged, progress, opts);
  } catch (e) {
    // best effort: a temporary file that cannot be removed (a directory made read-only) is named, not thrown
    throw withTempsLeft(
      e,
      dir,
      staged.filter((st) => !removeTemp(st.tmp)).map((st) => st.tmp),
    );
  }
  await commitRenames(staged, {
    onError: (e, st) => fsError(e, MODULE, st.file, true),
    settle: () => {
      for (const st of staged) untrackTemp(st.tmp);
    },
  });
}

/** Writes the split's rank files and index to temporary files in `dir`, each pushed to `staged` once written. */
async function stageSplitFiles(
  prog: Program,
  dir: string,
  present: ReadonlyMap<string, Dirent>,
  staged: StagedRename[],
  progress: ProgressCallback | null,
  opts: ProgramWriteOptions,
): Promise<void> {
  const tick = progressTicker(progress, prog.p);
  const head = Buffer.from(`${header(prog)}"ranks":[`);
  const w = new AsciiWriter(1 << 16);
  const temp = `.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  for (let r = 0; r < prog.p; r++) {
    tick(r);
    const name = rankFileName(r);
    const target = join(dir, name);
    const old = present.get(name);
    // refused above; one made since is refused now, before its file is written
    if (old !== undefined && !old.isFile()) await refuseIrregularEntries(MODULE, dir, [name]);
    const mode = old === undefined ? null : await replaceableMode(target, opts);
    w.clear();
    for (const piece of rankObject(w, prog, r, false, Infinity)) void piece; // one piece: never yields
    w.text("\n]\n}\n");
    writeNewFile(join(dir, `.${name}${temp}`), target, [head, w.view()], mode, staged);
    if (r % SPLIT_BATCH === SPLIT_BATCH - 1) await new Promise<void>((done) => setImmediate(done));
  }
  tick(Infinity);
  const files = Array.from({ length: prog.p }, (_, r) => JSON.stringify(rankFileName(r)));
  // as the rank files: renamed into place, so a link made at its name since the check is replaced, not followed
  const index = join(dir, INDEX_FILE);
  const oldIndex = present.get(INDEX_FILE);
  if (oldIndex !== undefined && !oldIndex.isFile()) await refuseIrregularEntries(MODULE, dir, [INDEX_FILE]);
  const indexMode = oldIndex === undefined ? null : await replaceableMode(index, opts);
  const text = Buffer.from(`${header(prog)}"files":[${files.join(",")}]\n}\n`);
  writeNewFile(join(dir, `.${INDEX_FILE}${temp}`), index, [text], indexMode, staged);
}

/** The permission bits of the regular file `target`, refused (as writePieces refuses it) unless it may be replaced. */
async function replaceableMode(target: string, opts: ProgramWriteOptions): Promise<number> {
  let st: Stats;
  try {
    st = statSync(target);
  } catch (e) {
    throw fsError(e, MODULE, target, true);
  }
  if (!(await (opts.canReplace ?? userMayReplace)(target, st)))
    throw fsError(
      Object.assign(new Error("read-only"), { code: "READ_ONLY", mode: st.mode & 0o7777 }),
      MODULE,
      target,
      true,
    );
  return st.mode & 0o7777;
}

/**
 * Writes `parts` to the new file `tmp` (given `mode`, when not null), synchronously, to be renamed onto `target`
 * (commitRenames), listed in `staged` before it is made: the temporary file is removed if the process is interrupted
 * first (trackTemp), or on error by writeProgramSplit with the others.
 */
function writeNewFile(
  tmp: string,
  target: string,
  parts: readonly Uint8Array[],
  mode: number | null,
  staged: StagedRename[],
): void {
  trackTemp(tmp);
  staged.push({ tmp, file: target });
  try {
    const fd = openSync(tmp, "wx");
    try {
      for (const part of parts) for (let at = 0; at < part.length;) at += writeSync(fd, part, at, part.length - at);
      if (mode !== null) fchmodSync(fd, mode);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw fsError(e, MODULE, target, true);
  }
}

/** Removes a temporary file of the split, best effort: whether it is gone (a read-only directory keeps it). */
function removeTemp(tmp: string): boolean {
  untrackTemp(tmp);
  try {
    rmSync(tmp, { force: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * The split's error `e`, told the temporary files `left` in `dir` that could not be removed (one line: a
 * CommplanError's message gets them); any other error passes through as it is.
 */
function withTempsLeft(e: unknown, dir: string, left: readonly string[]): unknown {
  if (left.length === 0 || !isCommplanError(e)) return e;
  const n = left.length;
  return new CommplanError(
    e.code,
    `${e.message}; ${n} temporary file${n === 1 ? "" : "s"} could not be removed from ${oneLine(dir)}: ${someNames(left)}`,
    e.place,
    e.module,
  );
}
