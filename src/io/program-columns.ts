/**
 * Program columns: a program's layout and operation tables built rank by rank from checked rank documents, so that a
 * reader can drop each document (or each rank file of a split program) as soon as it is added.
 */
import { checkMemory } from "../model/memory-budget.js";
import type { AfterTable, OpTable, PieceTable, RankLayout } from "../model/program.js";
import { growF64, growU32, growU8, type Growable } from "../internal/growable.js";

/** A piece of an operation as a document writes it: buffer name, offset, count. */
export type Piece = [string, number, number];
/** An operation as a document writes it (send / recv, or copy), with its dependencies in a dataflow program. */
export type Op =
  [number, string, number, number, number, Piece[], number[]?] | [number, "copy", number, Piece[], Piece[], number[]?];
/** One rank of a program document. */
export interface RankDoc {
  rank: number;
  sendPeers?: number[];
  recvPeers?: number[];
  sendCounts: number[];
  sendDispls: number[];
  recvCounts: number[];
  recvDispls: number[];
  sendSize: number;
  recvSize: number;
  scratch: number;
  ops: Op[];
}

const BUF_CODE: { readonly [k: string]: number } = { send: 0, recv: 1, scratch: 2 };
const KIND_CODE: { readonly [k: string]: number } = { send: 0, recv: 1, copy: 2 };

/** Bytes the columns take per operation (rank, round, kind, peer, tag, count, piece start, copy split). */
export const OP_COLUMN_BYTES = 33;
/** Bytes the columns take per piece (buffer, offset, count). */
export const PIECE_COLUMN_BYTES = 17;

/** One side (send or receive) of a peer-form layout, appended rank by rank. */
interface PeerSide {
  readonly start: Uint32Array;
  readonly peer: Growable<Uint32Array>;
  readonly counts: Growable<Float64Array>;
  readonly displs: Growable<Float64Array>;
}

/** One side of a full-form layout: P-long rows of every rank. */
interface FullSide {
  readonly counts: Float64Array;
  readonly displs: Float64Array;
}

/** The tables of a Program that its ranks' documents make. */
export interface ProgramTables {
  readonly layout: RankLayout;
  readonly rankStart: Uint32Array;
  readonly ops: OpTable;
  readonly pieces: PieceTable;
  readonly after?: AfterTable;
}

/**
 * Builds a program's tables from its rank documents, added in increasing rank order after they were checked; ranks no
 * document held have no blocks and no operations. The form of the layout (full or peers) is the first rank's; a full
 * form is refused past the memory budget before it is allocated.
 */
export class ProgramColumns {
  private readonly sendSize: Float64Array;
  private readonly recvSize: Float64Array;
  private readonly scratchSize: Float64Array;
  private full: { send: FullSide; recv: FullSide } | null = null;
  private peers: { send: PeerSide; recv: PeerSide } | null = null;
  private readonly rankStart: Uint32Array;
  /** Ranks below it have their starts set. */
  private nextRank = 0;
  private readonly rank = growU32();
  private readonly round = growU32();
  private readonly kind = growU8();
  private readonly peer = growU32();
  private readonly tag = growU32();
  private readonly count = growF64();
  private readonly pieceStart = growU32();
  private readonly copySplit = growU32();
  private readonly buffer = growU8();
  private readonly offset = growF64();
  private readonly pieceCount = growF64();
  private readonly afterStart = growU32();
  private readonly afterOp = growU32();

  constructor(
    private readonly p: number,
    private readonly dataflow: boolean,
    private readonly maxMemory: number,
  ) {
    this.sendSize = new Float64Array(p);
    this.recvSize = new Float64Array(p);
    this.scratchSize = new Float64Array(p);
    this.rankStart = new Uint32Array(p + 1);
  }

  /** Operations added so far. */
  get opCount(): number {
    return this.rank.length;
  }

  /** Pieces added so far. */
  get pieceTotal(): number {
    return this.buffer.length;
  }

  private startForm(peerForm: boolean): void {
    const p = this.p;
    if (peerForm) {
      const side = (): PeerSide => ({
        start: new Uint32Array(p + 1),
        peer: growU32(),
        counts: growF64(),
        displs: growF64(),
      });
      this.peers = { send: side(), recv: side() };
      return;
    }
    checkMemory(
      "program",
      4 * 8 * p * p,
      `the full-form layout (p blocks per rank) of p = ${p} ranks`,
      this.maxMemory,
      {
        field: "p",
      },
    );
    const side = (): FullSide => ({ counts: new Float64Array(p * p), displs: new Float64Array(p * p) });
    this.full = { send: side(), recv: side() };
  }

  /** Sets the starts of the ranks below `r` (they have no document, or theirs was added). */
  private reach(r: number): void {
    for (; this.nextRank <= r; this.nextRank++) {
      this.rankStart[this.nextRank] = this.rank.length;
      if (this.peers === null) continue;
      for (const side of [this.peers.send, this.peers.recv]) side.start[this.nextRank] = side.peer.length;
    }
  }

  /**
   * Makes room for `ops` more operations, `pieces` more pieces and `after` more dependencies (a whole document's
   * columns are then sized exactly, with no spare room; a split program's grow file by file).
   */
  reserve(ops: number, pieces: number, after: number): void {
    for (const c of [
      this.rank,
      this.round,
      this.kind,
      this.peer,
      this.tag,
      this.count,
      this.pieceStart,
      this.copySplit,
    ])
      c.grow(c.length + ops + 1);
    for (const c of [this.buffer, this.offset, this.pieceCount]) c.grow(c.length + pieces);
    if (!this.dataflow) return;
    this.afterStart.grow(this.afterStart.length + ops + 1);
    this.afterOp.grow(this.afterOp.length + after);
  }

  /** Adds a checked rank document (its rank above every rank added before). */
  add(rd: RankDoc): void {
    if (this.full === null && this.peers === null) this.startForm(rd.sendPeers !== undefined);
    const r = rd.rank;
    this.reach(r);
    this.sendSize[r] = rd.sendSize;
    this.recvSize[r] = rd.recvSize;
    this.scratchSize[r] = rd.scratch;
    if (this.full !== null) {
      const at = r * this.p;
      this.full.send.counts.set(rd.sendCounts, at);
      this.full.send.displs.set(rd.sendDispls, at);
      this.full.recv.counts.set(rd.recvCounts, at);
      this.full.recv.displs.set(rd.recvDispls, at);
    } else {
      const { send, recv } = this.peers!;
      for (const [side, peers, counts, displs] of [
        [send, rd.sendPeers!, rd.sendCounts, rd.sendDispls],
        [recv, rd.recvPeers!, rd.recvCounts, rd.recvDispls],
      ] as const) {
        for (let k = 0; k < peers.length; k++) {
          side.peer.push(peers[k]!);
          side.counts.push(counts[k]!);
          side.displs.push(displs[k]!);
        }
      }
    }
    const first = this.rank.length;
    for (const op of rd.ops) {
      const copy = op[1] === "copy";
      this.rank.push(r);
      this.round.push(op[0]);
      this.kind.push(KIND_CODE[op[1]]!);
      this.peer.push(copy ? r : op[2]);
      this.tag.push(copy ? 0 : (op[3] as number));
      this.count.push(copy ? op[2] : (op[4] as number));
      this.copySplit.push(copy ? (op[3] as Piece[]).length : 0);
      this.pieceStart.push(this.buffer.length);
      if (this.dataflow) {
        this.afterStart.push(this.afterOp.length);
        for (const d of op[copy ? 5 : 6] as number[]) this.afterOp.push(first + d);
      }
      for (const list of copy ? [op[3] as Piece[], op[4] as Piece[]] : [op[5] as Piece[]])
        for (const [b, off, cnt] of list) {
          this.buffer.push(BUF_CODE[b]!);
          this.offset.push(off);
          this.pieceCount.push(cnt);
        }
    }
    this.nextRank = r + 1;
  }

  /** The tables (once: the columns become the program's own, as views without a copy). */
  finish(): ProgramTables {
    if (this.full === null && this.peers === null) this.startForm(false);
    this.reach(this.p);
    this.pieceStart.push(this.buffer.length);
    if (this.dataflow) this.afterStart.push(this.afterOp.length);
    const peerIndex = (side: PeerSide) => ({ start: side.start, peer: side.peer.view() });
    const full = this.full,
      peers = this.peers;
    const layout: RankLayout = {
      sendCounts: full !== null ? full.send.counts : peers!.send.counts.view(),
      sendDispls: full !== null ? full.send.displs : peers!.send.displs.view(),
      recvCounts: full !== null ? full.recv.counts : peers!.recv.counts.view(),
      recvDispls: full !== null ? full.recv.displs : peers!.recv.displs.view(),
      sendPeers: peers === null ? null : peerIndex(peers.send),
      recvPeers: peers === null ? null : peerIndex(peers.recv),
      sendSize: this.sendSize,
      recvSize: this.recvSize,
      scratchSize: this.scratchSize,
    };
    return {
      layout,
      rankStart: this.rankStart,
      ops: {
        rank: this.rank.view(),
        round: this.round.view(),
        kind: this.kind.view(),
        peer: this.peer.view(),
        tag: this.tag.view(),
        count: this.count.view(),
        pieceStart: this.pieceStart.view(),
        copySplit: this.copySplit.view(),
      },
      pieces: { buffer: this.buffer.view(), offset: this.offset.view(), count: this.pieceCount.view() },
      ...(this.dataflow ? { after: { start: this.afterStart.view(), op: this.afterOp.view() } } : {}),
    };
  }
}
