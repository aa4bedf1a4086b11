/**
 * MSCCL-IR XML of a lowered program: uniform chunks, one send and one receive thread block per connection, dependencies
 * across rounds (a dataflow program's own), the runtime parser's limits checked.
 */
import { exactBytes } from "./exact-number.js";
import { fail } from "../model/errors.js";
import { slotOf } from "../model/layout-slots.js";
import type { Program, RankLayout } from "../model/program.js";
import { stringOpt } from "./options.js";
import { checkProgramArg } from "../model/program-check.js";
import { checkOptionsObject } from "../model/option-checks.js";

/** The msccl-executor-nccl parser's limits (RUNTIMES.md); a program past one is refused, never written. */
export const MSCCL_LIMITS = Object.freeze({
  /** Steps per thread block (a build option of the runtime). */
  stepsPerThreadBlock: 64,
  channels: 32,
  /** Send thread blocks per channel, and receive thread blocks per channel. */
  threadBlocksPerChannel: 32,
  /**
   * XML elements the parser holds (MAX_NODES): it keeps the algo, every gpu and the tb and step elements of the rank it
   * loads (another rank's are read and dropped), and fails when a read finds all 4096 taken, so each rank's count must
   * stay below this.
   */
  xmlNodes: 4096,
  /** Elements under one element (MAX_SUBS, unchecked by the parser): gpus under the algo, tbs under a gpu. */
  subElements: 1024,
  /** Thread blocks of a rank: ids 0..n-1 below MSCCL_MAX_NUM_THREAD_BLOCKS = 32 x MAXCHANNELS (32). */
  threadBlocks: 1024,
  /** depid is stored in a signed 8-bit field. */
  maxDepId: 127,
  /** cnt must stay below this. */
  countBelow: 72,
  /** Chunk offsets are stored in signed 16-bit fields. */
  offsetBelow: 32768,
} as const);

/** Options of the MSCCL writer. */
export interface MscclOptions {
  /**
   * Elements per chunk; must divide every piece offset and count. Default: their greatest common divisor (exact, no
   * padding).
   */
  readonly chunkElements?: number;
  /** The algo's name attribute (default "commplan-<algorithm>"). */
  readonly name?: string;
  /** Protocol (default Simple). */
  readonly proto?: "Simple" | "LL" | "LL128";
}

const BUF = ["i", "o", "s"] as const; // send, recv, scratch buffers -> MSCCL input, output, scratch
const OP_SEND = 0,
  OP_RECV = 1;

/** One step before layout: deps point at other steps (by object) until indices are final. */
interface Step {
  type: "s" | "r" | "cpy";
  tb: number;
  round: number;
  srcbuf: number;
  srcoff: number;
  dstbuf: number;
  dstoff: number;
  cnt: number;
  deps: Step[];
  index: number;
  hasdep: boolean;
  /** The program operation the step belongs to. */
  op: number;
}

interface Tb {
  send: number;
  recv: number;
  chan: number;
  steps: Step[];
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * The chunk size (elements): the given one after checking it divides everything, else the gcd of every piece offset and
 * count.
 */
export function mscclChunkElements(prog: Program, given?: number): number {
  const { offset, count } = prog.pieces;
  if (given !== undefined) {
    if (!Number.isInteger(given) || given < 1)
      throw fail(
        "export",
        "BAD_OPTION",
        `msccl-xml: the chunk must be a positive integer number of elements, got ${String(given)}`,
        { field: "chunk" },
      );
    for (let k = 0; k < offset.length; k++) {
      if (offset[k]! % given !== 0 || count[k]! % given !== 0) {
        throw fail(
          "export",
          "UNSUPPORTED",
          `msccl-xml: a chunk of ${given} elements does not divide piece ${k} (offset ${offset[k]}, count ${count[k]}); MSCCL chunks are uniform`,
          { field: "chunk" },
        );
      }
    }
    return given;
  }
  let g = 0;
  for (let k = 0; k < offset.length; k++) g = gcd(gcd(g, offset[k]!), count[k]!);
  return g === 0 ? 1 : g;
}

const limit = (what: string, value: number, max: string, atLeast = false): never => {
  throw fail(
    "export",
    "UNSUPPORTED",
    `msccl-xml: ${what} is ${atLeast ? "at least " : ""}${value}, past the MSCCL runtime limit (${max}); the plan cannot be written as MSCCL-IR`,
    { field: "format" },
  );
};

/**
 * The limits a program is certainly past, found from its op and piece tables before any step is
 * made: a message of c chunks takes at least ceil(c / 71) steps in its thread block, and a piece's
 * last chunk is addressed by some step. Without it a message of millions of chunks (a chunk of one
 * element where the sizes share no factor) made millions of step objects before the step limit
 * refused it, or ran out of memory first.
 */
function refuseCertainOverflow(prog: Program, chunk: number): void {
  const { ops, pieces } = prog;
  const maxCnt = MSCCL_LIMITS.countBelow - 1;
  for (let x = 0; x < ops.count.length; x++) {
    if (ops.count[x]! === 0) continue;
    const r = ops.rank[x]!;
    const steps = Math.ceil(ops.count[x]! / chunk / maxCnt);
    if (steps > MSCCL_LIMITS.stepsPerThreadBlock) {
      const kind =
        ops.kind[x] === OP_SEND
          ? `send to ${ops.peer[x]}`
          : ops.kind[x] === OP_RECV
            ? `receive from ${ops.peer[x]}`
            : "copy";
      limit(
        `the step count of the thread block of rank ${r}'s ${kind} (${ops.count[x]} elements in chunks of ${chunk}; the option chunk sets a larger chunk)`,
        steps,
        `${MSCCL_LIMITS.stepsPerThreadBlock} steps per thread block`,
        true,
      );
    }
    for (let k = ops.pieceStart[x]!; k < ops.pieceStart[x + 1]!; k++) {
      const end = (pieces.offset[k]! + pieces.count[k]!) / chunk;
      if (pieces.count[k]! > 0 && end > MSCCL_LIMITS.offsetBelow)
        limit(`a chunk offset on rank ${r}`, end, `16-bit offsets, below ${MSCCL_LIMITS.offsetBelow}`, true);
    }
  }
}

/** Pieces [a, b) of the op table as (buffer, offset, count) in chunks. */
function piecesOf(prog: Program, a: number, b: number, chunk: number): { buf: number[]; off: number[]; cnt: number[] } {
  const buf: number[] = [],
    off: number[] = [],
    cnt: number[] = [];
  for (let k = a; k < b; k++) {
    if (prog.pieces.count[k]! === 0) continue;
    buf.push(prog.pieces.buffer[k]!);
    off.push(prog.pieces.offset[k]! / chunk);
    cnt.push(prog.pieces.count[k]! / chunk);
  }
  return { buf, off, cnt };
}

/**
 * Splits a transfer between two piece lists into contiguous segments of at most `max` chunks: calls `emit` for each.
 */
function segments(
  src: ReturnType<typeof piecesOf>,
  dst: ReturnType<typeof piecesOf>,
  max: number,
  emit: (sb: number, so: number, db: number, dof: number, n: number) => void,
): void {
  let i = 0,
    j = 0,
    ui = 0,
    uj = 0; // piece index and chunks used within it
  while (i < src.cnt.length && j < dst.cnt.length) {
    const n = Math.min(src.cnt[i]! - ui, dst.cnt[j]! - uj, max);
    emit(src.buf[i]!, src.off[i]! + ui, dst.buf[j]!, dst.off[j]! + uj, n);
    ui += n;
    uj += n;
    if (ui === src.cnt[i]) {
      i++;
      ui = 0;
    }
    if (uj === dst.cnt[j]) {
      j++;
      uj = 0;
    }
  }
}

/** The thread blocks of every rank, with steps and dependencies (before nop insertion). */
function buildThreadBlocks(prog: Program, chunk: number): { tbs: Tb[][]; nchannels: number } {
  const { p, ops, rankStart } = prog;
  const maxCnt = MSCCL_LIMITS.countBelow - 1;
  const chanOf = (from: number, to: number): number => Math.floor((((to - from + p) % p) - 1) / 32);
  // Thread blocks: per rank, send blocks by peer, then receive blocks by peer, then one copy block.
  const tbs: Tb[][] = [];
  const sendTb: Map<number, number>[] = [],
    recvTb: Map<number, number>[] = [],
    copyTb: number[] = [];
  let nchannels = 0;
  for (let r = 0; r < p; r++) {
    const sends = new Set<number>(),
      recvs = new Set<number>();
    let copies = false;
    for (let x = rankStart[r]!; x < rankStart[r + 1]!; x++) {
      if (ops.count[x]! === 0) continue;
      if (ops.kind[x] === OP_SEND) sends.add(ops.peer[x]!);
      else if (ops.kind[x] === OP_RECV) recvs.add(ops.peer[x]!);
      else copies = true;
    }
    const list: Tb[] = [];
    const st = new Map<number, number>(),
      rt = new Map<number, number>();
    for (const j of [...sends].sort((a, b) => a - b)) {
      st.set(j, list.length);
      list.push({ send: j, recv: -1, chan: chanOf(r, j), steps: [] });
    }
    for (const i of [...recvs].sort((a, b) => a - b)) {
      rt.set(i, list.length);
      list.push({ send: -1, recv: i, chan: chanOf(i, r), steps: [] });
    }
    copyTb.push(copies ? list.length : -1);
    if (copies) list.push({ send: -1, recv: -1, chan: 0, steps: [] });
    for (const t of list) nchannels = Math.max(nchannels, t.chan + 1);
    tbs.push(list);
    sendTb.push(st);
    recvTb.push(rt);
  }
  // Pair the k-th send r -> j with the k-th receive at j from r (both in program order).
  const recvQueue = new Map<number, number[]>();
  for (let r = 0; r < p; r++) {
    for (let x = rankStart[r]!; x < rankStart[r + 1]!; x++) {
      if (ops.kind[x] !== OP_RECV || ops.count[x]! === 0) continue;
      const key = ops.peer[x]! * p + r;
      const q = recvQueue.get(key);
      if (q === undefined) recvQueue.set(key, [x]);
      else q.push(x);
    }
  }
  const recvNext = new Map<number, number>();
  const mk = (
    type: Step["type"],
    tb: number,
    round: number,
    sb: number,
    so: number,
    db: number,
    dof: number,
    n: number,
    op: number,
  ): Step => ({
    type,
    tb,
    round,
    srcbuf: sb,
    srcoff: so,
    dstbuf: db,
    dstoff: dof,
    cnt: n,
    deps: [],
    index: -1,
    hasdep: false,
    op,
  });
  for (let r = 0; r < p; r++) {
    for (let x = rankStart[r]!; x < rankStart[r + 1]!; x++) {
      if (ops.count[x]! === 0 || ops.kind[x] === OP_RECV) continue;
      const a = ops.pieceStart[x]!,
        b = ops.pieceStart[x + 1]!,
        round = ops.round[x]!;
      if (ops.kind[x] === OP_SEND) {
        const j = ops.peer[x]!,
          key = r * p + j;
        const k = recvNext.get(key) ?? 0;
        const y = recvQueue.get(key)?.[k];
        if (y === undefined || ops.count[y] !== ops.count[x])
          throw fail(
            "export",
            "BAD_INPUT",
            `msccl-xml: the send of rank ${r} to ${j} in round ${round} has no matching receive`,
            { field: "ops" },
          );
        recvNext.set(key, k + 1);
        const s = tbs[r]![sendTb[r]!.get(j)!]!,
          t = tbs[j]![recvTb[j]!.get(r)!]!;
        segments(
          piecesOf(prog, a, b, chunk),
          piecesOf(prog, ops.pieceStart[y]!, ops.pieceStart[y + 1]!, chunk),
          maxCnt,
          (sb, so, db, dof, n) => {
            s.steps.push(mk("s", sendTb[r]!.get(j)!, round, sb, so, db, dof, n, x));
            t.steps.push(mk("r", recvTb[j]!.get(r)!, ops.round[y]!, sb, so, db, dof, n, y));
          },
        );
      } else {
        const split = a + ops.copySplit[x]!;
        const c = tbs[r]![copyTb[r]!]!;
        segments(piecesOf(prog, a, split, chunk), piecesOf(prog, split, b, chunk), maxCnt, (sb, so, db, dof, n) =>
          c.steps.push(mk("cpy", copyTb[r]!, round, sb, so, db, dof, n, x)),
        );
      }
    }
  }
  const keep = prog.after === undefined ? null : (s: Step, d: Step): boolean => waitsFor(prog, s.op, d.op);
  for (let r = 0; r < p; r++) addDependencies(tbs[r]!, keep);
  return { tbs, nchannels };
}

/**
 * Whether operation d is one that operation x of a dataflow program waits for (its `after` list is ascending): a step
 * of x keeps a data dependency on a step of d only then, so the steps follow the program's own dependencies, refined
 * to the chunks each step touches.
 */
function waitsFor(prog: Program, x: number, d: number): boolean {
  const { start, op } = prog.after!;
  let lo = start[x]!,
    hi = start[x + 1]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (op[mid]! < d) lo = mid + 1;
    else hi = mid;
  }
  return lo < start[x + 1]! && op[lo] === d;
}

/**
 * Data dependencies of one rank's steps: a step that reads a chunk depends on the last earlier-round
 * step that wrote it; a step that writes a chunk depends on that writer and on every earlier-round
 * reader since. Steps of one round never depend on each other (the program runs them concurrently). A dataflow
 * program's steps keep only the dependencies `keep` allows (those its operations wait for).
 */
function addDependencies(tbs: Tb[], keep: ((s: Step, d: Step) => boolean) | null): void {
  const all: Step[] = [];
  for (const t of tbs) for (const s of t.steps) all.push(s);
  all.sort((a, b) => a.round - b.round);
  const writer = [new Map<number, Step>(), new Map<number, Step>(), new Map<number, Step>()];
  const readers = [new Map<number, Step[]>(), new Map<number, Step[]>(), new Map<number, Step[]>()];
  const reads = (s: Step): boolean => s.type !== "r";
  const writes = (s: Step): boolean => s.type !== "s";
  for (let a = 0; a < all.length;) {
    let b = a;
    while (b < all.length && all[b]!.round === all[a]!.round) b++;
    for (let k = a; k < b; k++) {
      const s = all[k]!;
      const deps = new Set<Step>();
      for (let c = 0; c < s.cnt; c++) {
        if (reads(s)) {
          const w = writer[s.srcbuf]!.get(s.srcoff + c);
          if (w !== undefined) deps.add(w);
        }
        if (writes(s)) {
          const w = writer[s.dstbuf]!.get(s.dstoff + c);
          if (w !== undefined) deps.add(w);
          for (const q of readers[s.dstbuf]!.get(s.dstoff + c) ?? []) deps.add(q);
        }
      }
      // Keep the latest step per thread block; the step's own block runs in order anyway.
      const latest = new Map<number, Step>();
      for (const d of deps) {
        if (d.tb === s.tb || (keep !== null && !keep(s, d))) continue;
        const cur = latest.get(d.tb);
        if (cur === undefined || tbs[d.tb]!.steps.indexOf(d) > tbs[d.tb]!.steps.indexOf(cur)) latest.set(d.tb, d);
      }
      s.deps = [...latest.values()];
    }
    for (let k = a; k < b; k++) {
      const s = all[k]!;
      for (let c = 0; c < s.cnt; c++) {
        if (reads(s)) {
          const key = s.srcoff + c,
            q = readers[s.srcbuf]!.get(key);
          if (q === undefined) readers[s.srcbuf]!.set(key, [s]);
          else q.push(s);
        }
        if (writes(s)) {
          writer[s.dstbuf]!.set(s.dstoff + c, s);
          readers[s.dstbuf]!.delete(s.dstoff + c);
        }
      }
    }
    a = b;
  }
}

/** Final step lists: each step with n > 1 dependencies is preceded by n - 1 nop steps carrying one each. */
interface LaidStep {
  readonly step: Step | null;
  readonly dep: Step | null;
}

function layOut(tb: Tb): LaidStep[] {
  const out: LaidStep[] = [];
  for (const s of tb.steps) {
    for (let k = 0; k + 1 < s.deps.length; k++) out.push({ step: null, dep: s.deps[k]! });
    s.index = out.length;
    out.push({ step: s, dep: s.deps.length > 0 ? s.deps[s.deps.length - 1]! : null });
  }
  return out;
}

/**
 * The `coll` label of a layout: "alltoall" when every rank sends and receives the same count c with every rank (itself
 * included) at displacement j x c, as msccl-executor-nccl's alltoall assumes (its buffer is P blocks of the call's
 * count); "alltoallv" for any other layout (counts, displacements or buffer sizes that vary).
 */
export function mscclCollective(layout: RankLayout, p: number): "alltoall" | "alltoallv" {
  const c = p > 0 ? layout.sendCounts[slotOf(layout.sendPeers, p, 0, 0)] : undefined;
  if (c === undefined || !(c > 0)) return "alltoallv";
  for (let r = 0; r < p; r++) {
    if (layout.sendSize[r] !== p * c || layout.recvSize[r] !== p * c) return "alltoallv";
    for (let j = 0; j < p; j++) {
      const k = slotOf(layout.sendPeers, p, r, j),
        q = slotOf(layout.recvPeers, p, r, j);
      if (k < 0 || q < 0) return "alltoallv";
      if (layout.sendCounts[k] !== c || layout.sendDispls[k] !== j * c) return "alltoallv";
      if (layout.recvCounts[q] !== c || layout.recvDispls[q] !== j * c) return "alltoallv";
    }
  }
  return "alltoall";
}

/**
 * The MSCCL-IR XML of the program. Buffers: send -> i, recv -> o, scratch -> s; offsets and counts
 * in chunks of `mscclChunkElements` elements. Throws CommplanError (UNSUPPORTED) naming the limit
 * when the program is past one of MSCCL_LIMITS.
 */
export function mscclXml(prog: Program, opts: MscclOptions = {}): string {
  checkProgramArg("export", prog, "mscclXml");
  checkOptionsObject("export", "options", opts);
  const chunk = mscclChunkElements(prog, opts.chunkElements);
  const { p, layout } = prog;
  refuseCertainOverflow(prog, chunk);
  const { tbs, nchannels } = buildThreadBlocks(prog, chunk);
  if (nchannels > MSCCL_LIMITS.channels)
    limit("the number of channels", nchannels, `${MSCCL_LIMITS.channels} channels`);
  if (p > MSCCL_LIMITS.subElements)
    limit("the number of gpu elements (P)", p, `${MSCCL_LIMITS.subElements} elements under the algo`);
  const laid = tbs.map((list) => list.map(layOut));
  for (let r = 0; r < p; r++) {
    const perChan = new Map<string, number>();
    if (tbs[r]!.length > MSCCL_LIMITS.threadBlocks)
      limit(`the number of thread blocks of rank ${r}`, tbs[r]!.length, `${MSCCL_LIMITS.threadBlocks} per rank`);
    // the parser of rank r holds the algo, the P gpus and rank r's own tb and step elements
    let nodes = 1 + p;
    for (let t = 0; t < tbs[r]!.length; t++) {
      const tb = tbs[r]![t]!;
      nodes += 1 + laid[r]![t]!.length;
      if (laid[r]![t]!.length > MSCCL_LIMITS.stepsPerThreadBlock)
        limit(
          `the step count of thread block ${t} on rank ${r}`,
          laid[r]![t]!.length,
          `${MSCCL_LIMITS.stepsPerThreadBlock} steps per thread block`,
        );
      for (const dir of ["send", "recv"] as const) {
        if (tb[dir] < 0) continue;
        const key = `${dir}:${tb.chan}`;
        const n = (perChan.get(key) ?? 0) + 1;
        perChan.set(key, n);
        if (n > MSCCL_LIMITS.threadBlocksPerChannel)
          limit(
            `the number of ${dir} thread blocks on channel ${tb.chan} of rank ${r}`,
            n,
            `${MSCCL_LIMITS.threadBlocksPerChannel} per channel`,
          );
      }
      // chunk offsets were checked up front (refuseCertainOverflow: a step stays inside its pieces)
      for (const s of tb.steps)
        for (const d of s.deps)
          if (d.tb > MSCCL_LIMITS.maxDepId)
            limit(`a depid on rank ${r}`, d.tb, `8-bit depid, at most ${MSCCL_LIMITS.maxDepId}`);
    }
    if (nodes >= MSCCL_LIMITS.xmlNodes)
      limit(
        `the number of XML nodes the runtime holds for rank ${r} (the algo, ${p} gpus, the rank's thread blocks and steps)`,
        nodes,
        `below ${MSCCL_LIMITS.xmlNodes} nodes`,
      );
  }
  for (const list of tbs) for (const tb of list) for (const s of tb.steps) for (const d of s.deps) d.hasdep = true;
  let maxChunks = 1;
  const chunks = (v: number): number => Math.ceil(v / chunk);
  for (let r = 0; r < p; r++) maxChunks = Math.max(maxChunks, chunks(layout.sendSize[r]!), chunks(layout.recvSize[r]!));
  const name = stringOpt("export", "name", opts.name, `commplan-${prog.algorithm}`).replace(/[^A-Za-z0-9_.-]/g, "_");
  const proto = stringOpt("export", "proto", opts.proto, "Simple", ["Simple", "LL", "LL128"]);
  const bytes = exactBytes(maxChunks * chunk, prog.elementBytes, "maxBytes");
  let xml =
    `<algo name="${name}" proto="${proto}" nchannels="${Math.max(1, nchannels)}" nchunksperloop="${maxChunks}" ngpus="${p}" ` +
    `coll="${mscclCollective(layout, p)}" inplace="0" outofplace="1" minBytes="0" maxBytes="${bytes}">\n`;
  for (let r = 0; r < p; r++) {
    xml += `  <gpu id="${r}" i_chunks="${chunks(layout.sendSize[r]!)}" o_chunks="${chunks(layout.recvSize[r]!)}" s_chunks="${chunks(layout.scratchSize[r]!)}">\n`;
    for (let t = 0; t < tbs[r]!.length; t++) {
      const tb = tbs[r]![t]!;
      xml += `    <tb id="${t}" send="${tb.send}" recv="${tb.recv}" chan="${tb.chan}">\n`;
      laid[r]![t]!.forEach((l, k) => {
        const dep = l.dep === null ? `depid="-1" deps="-1"` : `depid="${l.dep.tb}" deps="${l.dep.index}"`;
        if (l.step === null)
          xml += `      <step s="${k}" type="nop" srcbuf="i" srcoff="-1" dstbuf="o" dstoff="-1" cnt="0" ${dep} hasdep="0"/>\n`;
        else {
          const s = l.step;
          xml += `      <step s="${k}" type="${s.type}" srcbuf="${BUF[s.srcbuf]}" srcoff="${s.srcoff}" dstbuf="${BUF[s.dstbuf]}" dstoff="${s.dstoff}" cnt="${s.cnt}" ${dep} hasdep="${s.hasdep ? 1 : 0}"/>\n`;
        }
      });
      xml += `    </tb>\n`;
    }
    xml += `  </gpu>\n`;
  }
  return xml + `</algo>\n`;
}
