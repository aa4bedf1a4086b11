/** Program JSON writer: a Program as a commplan.program/v1 document (one file, or one file per rank plus an index), streamed in ~1 MiB pieces. */
import { canonicalJson } from "./canonical-json.js";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { slotStart } from "../model/layout-slots.js";
import { BUFFER_NAMES, OP_KINDS, type Program, type RankLayout } from "../model/program.js";
import { fsError, writePieces } from "./file-output.js";
import { FORMAT_NAMES } from "./json-schema.js";

const MODULE = "program";
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

/** Elements lo .. hi - 1 of a column as a JSON array. */
function slice(a: Float64Array | Uint32Array, lo: number, hi: number): string {
  return `[${a.subarray(lo, hi).join(",")}]`;
}

/** Rank r's counts and displacements: p-long arrays (full form), or its peer lists with their counts and displacements (peer form). */
function rankLayout(layout: RankLayout, r: number, p: number): string {
  const { sendPeers: sp, recvPeers: rp } = layout;
  const s0 = slotStart(sp, p, r),
    s1 = slotStart(sp, p, r + 1),
    r0 = slotStart(rp, p, r),
    r1 = slotStart(rp, p, r + 1);
  return (
    (sp === null ? "" : `"sendPeers":${slice(sp.peer, s0, s1)},\n`) +
    `"sendCounts":${slice(layout.sendCounts, s0, s1)},\n"sendDispls":${slice(layout.sendDispls, s0, s1)},\n` +
    (rp === null ? "" : `"recvPeers":${slice(rp.peer, r0, r1)},\n`) +
    `"recvCounts":${slice(layout.recvCounts, r0, r1)},\n"recvDispls":${slice(layout.recvDispls, r0, r1)},\n`
  );
}

function pieces(prog: Program, a: number, e: number): string {
  const { buffer, offset, count } = prog.pieces;
  let out = "[";
  for (let q = a; q < e; q++) out += `${q > a ? "," : ""}[${BUF_JSON[buffer[q]!]!},${offset[q]!},${count[q]!}]`;
  return out + "]";
}

/** The rank objects of `ranks` as pieces of text (each op on its own line). */
function* rankPieces(prog: Program, ranks: readonly number[], pieceSize: number): Generator<string, void, undefined> {
  const { p, ops, layout } = prog;
  let out = '"ranks":[';
  for (let k = 0; k < ranks.length; k++) {
    const r = ranks[k]!;
    out +=
      `${k > 0 ? "," : ""}\n{"rank":${r},\n${rankLayout(layout, r, p)}` +
      `"sendSize":${layout.sendSize[r]!},"recvSize":${layout.recvSize[r]!},"scratch":${layout.scratchSize[r]!},\n"ops":[`;
    for (let x = prog.rankStart[r]!; x < prog.rankStart[r + 1]!; x++) {
      const a = ops.pieceStart[x]!,
        e = ops.pieceStart[x + 1]!,
        kind = ops.kind[x]!;
      out += `${x > prog.rankStart[r]! ? "," : ""}\n[${ops.round[x]!},${KIND_JSON[kind]!},`;
      if (kind === 2)
        out += `${ops.count[x]!},${pieces(prog, a, a + ops.copySplit[x]!)},${pieces(prog, a + ops.copySplit[x]!, e)}]`;
      else out += `${ops.peer[x]!},${ops.tag[x]!},${ops.count[x]!},${pieces(prog, a, e)}]`;
      if (out.length >= pieceSize) {
        yield out;
        out = "";
      }
    }
    out += `${prog.rankStart[r + 1]! > prog.rankStart[r]! ? "\n" : ""}]}`;
  }
  yield out;
}

/** The document holding `ranks` (all by default) as strings of about `pieceSize` characters (deterministic bytes). */
export function* programJsonPieces(
  prog: Program,
  ranks?: readonly number[],
  pieceSize = PIECE,
): Generator<string, void, undefined> {
  yield header(prog);
  yield* rankPieces(prog, ranks ?? Array.from({ length: prog.p }, (_, r) => r), pieceSize);
  yield "\n]\n}\n";
}

/** The whole document as one string (small programs and tests). */
export function programToJsonText(prog: Program, ranks?: readonly number[]): string {
  let text = "";
  for (const piece of programJsonPieces(prog, ranks)) text += piece;
  return text;
}

/** Writes the program as one document to a path, or to stdout for "-" (atomically, like schedules). */
export async function writeProgramJson(prog: Program, target: string): Promise<void> {
  await writePieces(programJsonPieces(prog), target, MODULE);
}

/** The file name of rank r in a split program. */
export function rankFileName(r: number): string {
  return `rank-${r}.json`;
}

/** Writes a split program: DIR/rank-<r>.json (a complete document holding rank r) for every rank, then DIR/index.json listing them. */
export async function writeProgramSplit(prog: Program, dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw fsError(e, MODULE, dir, true);
  }
  for (let r = 0; r < prog.p; r++) await writePieces(programJsonPieces(prog, [r]), join(dir, rankFileName(r)), MODULE);
  const files = Array.from({ length: prog.p }, (_, r) => JSON.stringify(rankFileName(r)));
  await writePieces([`${header(prog)}"files":[${files.join(",")}]\n}\n`], join(dir, "index.json"), MODULE);
}
