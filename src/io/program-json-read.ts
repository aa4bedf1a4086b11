/**
 * Program JSON reader: a commplan.program/v1 document (one file, a rank file or a split index) into a Program, checking
 * schema and meaning.
 */
import { checkReadArguments } from "../model/option-checks.js";
import { realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, sep } from "node:path";
import { fail } from "../model/errors.js";
import { checkMemory } from "../model/memory-budget.js";
import { memoryBudgetOf } from "../host/memory.js";
import type { Program, ProgramVariant } from "../model/program.js";
import type { JsonValue } from "../model/schedule.js";
import { fsError } from "./file-output.js";
import { validateWithSchema } from "./json-schema.js";
import { counted } from "../internal/plural.js";
import { jsonExcerpt } from "../internal/quoted.js";
import { jsonDocumentText } from "./json-text.js";
import { readBounded } from "./bounded-read.js";
import { ProgramColumns, type Piece, type RankDoc } from "./program-columns.js";

const MODULE = "program";
/** The largest document the reader parses (it is parsed whole); larger programs are written with --split. */
export const MAX_PROGRAM_BYTES = 256 * 1024 * 1024;

interface Doc {
  p: number;
  algorithm: string;
  params: { [k: string]: JsonValue };
  seed: number | null;
  elementBytes: number;
  matrixDigest: string;
  variant: ProgramVariant;
  rounds: number;
  ranks?: RankDoc[];
  files?: string[];
}

/** A program as read: the ranks the document(s) held (every rank unless a single rank file was read). */
export interface ProgramDocument {
  readonly program: Program;
  readonly ranks: readonly number[];
  /**
   * The files the ranks were read from, in order: each file and the index in `ranks` of its first rank (one file for
   * a whole program; a split program's rank files after its index), for naming a rank's field where it is written.
   */
  readonly parts: readonly { readonly file: string; readonly first: number }[];
}

/**
 * Where rank `rank`'s JSON field `field` (e.g. `scratch`) is written: its file (the rank file of a split program) and
 * the JSON pointer there; undefined for a rank the document did not hold.
 */
export function rankFieldPlace(
  doc: ProgramDocument,
  rank: number,
  field: string,
): { file: string; field: string } | undefined {
  const at = doc.ranks.indexOf(rank);
  if (at < 0) return undefined;
  let part = doc.parts[0];
  for (const q of doc.parts) if (q.first <= at) part = q;
  return part && { file: part.file, field: `/ranks/${at - part.first}/${field}` };
}

const BUF_CODE: { readonly [k: string]: number } = { send: 0, recv: 1, scratch: 2 };

/**
 * Bytes of memory per byte of a program document before it is parsed: the bytes and their text (what it parses into
 * is counted by jsonDocumentText before JSON.parse).
 */
export const PROGRAM_BYTES_PER_BYTE = 2;
/** Bytes a split program takes per rank whatever its files hold: the parsed rank document, its layout and tables. */
export const PROGRAM_BYTES_PER_RANK = 4096;
/**
 * Bytes the program's columns take per byte of its rank files: about one (an operation of one piece is some 50 bytes of
 * text and 50 of columns: program-columns.ts), and half as much again for the spare room of stores that double as they
 * grow (a third of a doubling store is spare, on average).
 */
export const SPLIT_BYTES_PER_BYTE = 1.5;
/** Bytes a rank file's document takes per byte while it is parsed (its bytes, text and values), one file at a time. */
export const RANK_FILE_BYTES_PER_BYTE = 9;

/**
 * The bytes reading a split program of `p` ranks takes: the ranks, the columns its `bytes` of rank files make, and the
 * largest rank file (`largest` bytes) parsed (the files are read one at a time).
 */
export function splitReadBytes(p: number, bytes: number, largest: number): number {
  return PROGRAM_BYTES_PER_RANK * p + SPLIT_BYTES_PER_BYTE * bytes + RANK_FILE_BYTES_PER_BYTE * largest;
}

function parseFile(file: string, maxMemory: number): Doc {
  let bytes: Buffer;
  try {
    if (file !== "-") {
      const size = statSync(file).size;
      checkMemory(MODULE, PROGRAM_BYTES_PER_BYTE * size, `reading the ${size}-byte program`, maxMemory, { file });
      if (size > MAX_PROGRAM_BYTES)
        throw fail(
          MODULE,
          "BAD_INPUT",
          `${size} bytes is past the reader's limit of ${MAX_PROGRAM_BYTES}: write the program split by rank (writeProgramSplit)`,
          { file },
        );
    }
    bytes = readProgramBytes(file, maxMemory);
  } catch (e) {
    if (e instanceof Error && e.name === "CommplanError") throw e;
    throw fsError(e, MODULE, file, false);
  }
  return parseBytes(bytes, file, maxMemory);
}

/**
 * A program's bytes (a file, or - for stdin), refused as soon as they pass the reader's limit or the budget: stdin,
 * a FIFO or a device has no size to check first (read in 1 MiB pieces).
 */
function readProgramBytes(file: string, maxMemory: number): Buffer {
  const limit = Math.min(MAX_PROGRAM_BYTES, Math.floor(maxMemory / PROGRAM_BYTES_PER_BYTE));
  return readBounded(file, limit, (before) => {
    checkMemory(
      MODULE,
      PROGRAM_BYTES_PER_BYTE * (limit + 1),
      `reading more than ${before} bytes of program`,
      maxMemory,
      {
        file,
      },
    );
    throw fail(
      MODULE,
      "BAD_INPUT",
      `more than the reader's limit of ${MAX_PROGRAM_BYTES} bytes: write the program split by rank (writeProgramSplit)`,
      { file },
    );
  });
}

/**
 * One document's bytes, parsed and validated against the program schema (encoding, syntax and duplicate keys first:
 * jsonDocumentText).
 */
function parseBytes(bytes: Buffer, file: string, maxMemory: number): Doc {
  const what = `the ${bytes.length}-byte program parsed`;
  const value: unknown = JSON.parse(jsonDocumentText(bytes, MODULE, file, { maxMemory, what }));
  validateWithSchema("program", value, MODULE, file);
  return value as Doc;
}

/** Throws the reader's error for `field` of `file`. */
function bad(file: string, field: string, text: string): never {
  throw fail(MODULE, "BAD_INPUT", `${field} ${text}`, { file, field });
}

/**
 * Checks a rank's number (below p, above the previous rank), its layout's form (that of the ranks before it) and the
 * lengths of its count and displacement arrays.
 */
function checkRankHeader(
  rd: RankDoc,
  path: string,
  file: string,
  p: number,
  ranks: readonly number[],
  peerForm: boolean,
): void {
  if (rd.rank >= p) bad(file, `${path}/rank`, `= ${rd.rank} is not below p = ${p}`);
  if (ranks.length > 0 && rd.rank <= ranks[ranks.length - 1]!)
    bad(file, `${path}/rank`, `= ${rd.rank} is not above the previous rank ${ranks[ranks.length - 1]}`);
  if ((rd.sendPeers !== undefined) !== peerForm)
    bad(
      file,
      `${path}/sendPeers`,
      peerForm
        ? "is missing: the ranks before it have the peer form"
        : "is present: the ranks before it have the full form",
    );
  for (const side of ["send", "recv"] as const) {
    const peers = rd[`${side}Peers`];
    const want = peers === undefined ? p : peers.length;
    for (const f of [`${side}Counts`, `${side}Displs`] as const)
      if (rd[f].length !== want)
        bad(
          file,
          `${path}/${f}`,
          `has ${counted(rd[f].length, "entry", "entries")}, expected ${peers === undefined ? `p = ${p}` : `one per entry of ${side}Peers, ${want}`}`,
        );
    if (peers === undefined) continue;
    for (let k = 0; k < peers.length; k++) {
      if (peers[k]! >= p) bad(file, `${path}/${side}Peers/${k}`, `= ${peers[k]} is not below p = ${p}`);
      if (k > 0 && peers[k]! <= peers[k - 1]!)
        bad(file, `${path}/${side}Peers/${k}`, `= ${peers[k]} is not above the peer before it, ${peers[k - 1]}`);
      if (rd[`${side}Counts`][k] === 0)
        bad(file, `${path}/${side}Counts/${k}`, "is 0: the peer form lists only non-zero blocks");
    }
  }
}

/** Checks that every block a rank sends or receives lies inside its send or receive buffer. */
function checkRankBlocks(rd: RankDoc, path: string, file: string): void {
  for (const side of ["send", "recv"] as const) {
    const counts = rd[`${side}Counts`],
      displs = rd[`${side}Displs`],
      size = rd[`${side}Size`],
      peers = rd[`${side}Peers`];
    for (let k = 0; k < counts.length; k++) {
      if (counts[k]! > 0 && displs[k]! + counts[k]! > size)
        bad(
          file,
          `${path}/${side}Displs/${k}`,
          `puts the block ${side === "send" ? "of" : "from"} ${peers?.[k] ?? k} past the ${side === "send" ? "send" : "receive"} buffer of ${size} elements`,
        );
    }
  }
}

/**
 * Checks a rank's operations: rounds in order and below `rounds`, peers, pieces inside the buffers summing to the
 * count, and (dataflow) the earlier operations each waits for.
 */
function checkRankOps(rd: RankDoc, path: string, file: string, p: number, rounds: number, dataflow: boolean): void {
  const r = rd.rank;
  const sizes = [rd.sendSize, rd.recvSize, rd.scratch];
  const checkPieces = (pcs: Piece[], at: string, want: number): void => {
    let sum = 0;
    pcs.forEach(([b, off, cnt], q) => {
      const lim = sizes[BUF_CODE[b]!]!;
      if (off + cnt > lim) bad(file, `${at}/${q}`, `(${b}, ${off}, ${cnt}) leaves the ${b} buffer of ${lim} elements`);
      sum += cnt;
    });
    if (sum !== want) bad(file, at, `hold ${sum} elements, the operation moves ${want}`);
  };
  let last = 0;
  rd.ops.forEach((op, x) => {
    const at = `${path}/ops/${x}`;
    const afterAt = op[1] === "copy" ? 5 : 6;
    const after = op[afterAt] as number[] | undefined;
    if ((after !== undefined) !== dataflow)
      bad(
        file,
        `${at}`,
        dataflow
          ? "has no list of the operations it waits for (a dataflow program gives one to every operation)"
          : "lists operations it waits for, which only a dataflow program does",
      );
    after?.forEach((d, k) => {
      if (d >= x)
        bad(file, `${at}/${afterAt}/${k}`, `waits for operation ${d}, which is not an earlier one of rank ${r}`);
      if (k > 0 && d <= after[k - 1]!)
        bad(file, `${at}/${afterAt}/${k}`, `= ${d} is not above the operation before it, ${after[k - 1]}`);
    });
    if (op[0] >= rounds) bad(file, `${at}/0`, `round ${op[0]} is not below rounds = ${rounds}`);
    if (op[0] < last) bad(file, `${at}/0`, `round ${op[0]} comes after round ${last}`);
    last = op[0];
    if (op[1] === "copy") {
      const c = op as [number, "copy", number, Piece[], Piece[]];
      checkPieces(c[3], `${at}/3`, c[2]);
      checkPieces(c[4], `${at}/4`, c[2]);
      for (const [b] of c[4]) if (b === "send") bad(file, `${at}/4`, "copies into the send buffer");
    } else {
      const o = op as [number, string, number, number, number, Piece[]];
      if (o[2] >= p || o[2] === r)
        bad(file, `${at}/2`, `peer ${o[2]} is ${o[2] === r ? "the rank itself (use copy)" : `not below p = ${p}`}`);
      checkPieces(o[5], `${at}/5`, o[4]);
      if (o[1] === "recv")
        for (const [b] of o[5]) if (b === "send") bad(file, `${at}/5`, "receives into the send buffer");
    }
  });
}

/**
 * The program as its documents come: each rank checked (its number, layout and operations) and added to the columns,
 * so that a document may be dropped once added.
 */
class Assembly {
  private readonly ranks: number[] = [];
  private readonly parts: { file: string; first: number }[] = [];
  private peerForm: boolean | null = null;
  private readonly columns: ProgramColumns;

  constructor(
    private readonly head: Doc,
    maxMemory: number,
  ) {
    this.columns = new ProgramColumns(head.p, head.variant === "dataflow", maxMemory);
  }

  /** Checks and adds the ranks of `doc`, read from `file` (its header must agree with the index's). */
  add(doc: Doc, file: string): void {
    const head = this.head;
    for (const key of ["p", "algorithm", "variant", "rounds", "matrixDigest", "elementBytes"] as const) {
      if (doc[key] !== head[key])
        bad(file, `/${key}`, `is ${jsonExcerpt(doc[key])}, the index says ${jsonExcerpt(head[key])}`);
    }
    let ops = 0,
      pieces = 0,
      after = 0;
    for (const rd of doc.ranks!) {
      ops += rd.ops.length;
      for (const op of rd.ops) {
        const copy = op[1] === "copy";
        pieces += copy ? (op[3] as Piece[]).length + (op[4] as Piece[]).length : (op[5] as Piece[]).length;
        after += (op[copy ? 5 : 6] as number[] | undefined)?.length ?? 0;
      }
    }
    this.columns.reserve(ops, pieces, after);
    this.parts.push({ file, first: this.ranks.length });
    doc.ranks!.forEach((rd, k) => {
      const path = `/ranks/${k}`;
      this.peerForm ??= rd.sendPeers !== undefined;
      checkRankHeader(rd, path, file, head.p, this.ranks, this.peerForm);
      this.ranks.push(rd.rank);
      checkRankBlocks(rd, path, file);
      checkRankOps(rd, path, file, head.p, head.rounds, head.variant === "dataflow");
      this.columns.add(rd);
    });
  }

  /** The program of the ranks added. */
  finish(): ProgramDocument {
    const head = this.head;
    const program: Program = {
      p: head.p,
      algorithm: head.algorithm,
      params: head.params,
      seed: head.seed,
      elementBytes: head.elementBytes,
      matrixDigest: head.matrixDigest,
      variant: head.variant,
      rounds: head.rounds,
      ...this.columns.finish(),
    };
    return { program, ranks: this.ranks, parts: this.parts };
  }
}

/** The path of rank file files[k] = `f` of a split index: inside the index's directory, else a one-line refusal. */
function rankFilePath(index: string, f: string, k: number): string {
  const field = `/files/${k}`;
  if (isAbsolute(f) || f.split("/").includes(".."))
    throw fail(
      MODULE,
      "BAD_INPUT",
      `${field} ${jsonExcerpt(f)} is not inside the index's directory (give a path relative to it, without '..')`,
      { file: index, field },
    );
  const path = join(dirname(index), f);
  let real: string, base: string;
  try {
    real = realpathSync(path);
    base = realpathSync(dirname(index));
  } catch {
    return path; // missing or unreadable: reading it names the problem
  }
  if (real !== base && !real.startsWith(base.endsWith(sep) ? base : base + sep))
    throw fail(MODULE, "BAD_INPUT", `${field} ${jsonExcerpt(f)} leads out of the index's directory (a symbolic link)`, {
      file: index,
      field,
    });
  return path;
}

/** The size of the file at `path`, 0 when it cannot be seen (reading it names the problem). */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Options of readProgramJson. */
export interface ReadProgramOptions {
  /** Bytes a full-form layout may take (refused past them); by default half the machine's memory, at most 32 GiB. */
  readonly maxMemory?: number;
}

/** The file of a program path: a directory (a split program's, as `export --split` writes it) means its index.json. */
function programFile(path: string): string {
  let dir: boolean;
  try {
    dir = path !== "-" && statSync(path).isDirectory();
  } catch {
    return path; // reading it reports what is wrong
  }
  if (!dir) return path;
  const index = join(path, "index.json");
  try {
    statSync(index);
  } catch {
    throw fail(
      MODULE,
      "BAD_INPUT",
      "a directory without index.json (the directory of a program split by rank has one)",
      {
        file: path,
      },
    );
  }
  return index;
}

/**
 * Reads a program document: a whole program, one rank file of a split program (the other ranks are
 * empty; `ranks` says which are present), or a split program's index.json or directory (every rank file the index
 * lists, relative to it and inside its directory). Throws one CommplanError naming the file and the field.
 */
export function readProgramJson(path: string, opts: ReadProgramOptions = {}): ProgramDocument {
  checkReadArguments(MODULE, path, opts, ["maxMemory"]);
  const maxMemory = memoryBudgetOf(opts);
  const file = programFile(path);
  const doc = parseFile(file, maxMemory);
  if (doc.ranks !== undefined) {
    const whole = new Assembly(doc, maxMemory);
    whole.add(doc, file);
    return whole.finish();
  }
  const files = doc.files!;
  if (files.length !== doc.p)
    throw fail(MODULE, "BAD_INPUT", `/files lists ${files.length} files, expected p = ${doc.p}`, {
      file,
      field: "/files",
    });
  // the rank files are read one at a time, each dropped once its ranks are in the program's columns
  const perRank = PROGRAM_BYTES_PER_RANK * doc.p;
  checkMemory(MODULE, perRank, `a split program of p = ${doc.p} ranks`, maxMemory, { file, field: "p" });
  const paths = files.map((f, k) => rankFilePath(file, f, k));
  const sizes = paths.map(sizeOf);
  const bytes = sizes.reduce((a, n) => a + n, 0);
  checkMemory(
    MODULE,
    splitReadBytes(
      doc.p,
      bytes,
      sizes.reduce((a, n) => Math.max(a, n), 0),
    ),
    `the ${bytes} bytes of the split program's rank files`,
    maxMemory,
    {
      file,
    },
  );
  const program = new Assembly(doc, maxMemory);
  for (const path of paths) {
    const part = parseFile(path, Infinity);
    if (part.ranks === undefined)
      throw fail(MODULE, "BAD_INPUT", "is an index, not a rank file", { file: path, field: "/files" });
    program.add(part, path);
  }
  const out = program.finish();
  if (out.ranks.length !== doc.p)
    throw fail(MODULE, "BAD_INPUT", `the rank files hold ${out.ranks.length} ranks, expected p = ${doc.p}`, {
      file,
      field: "/files",
    });
  return out;
}
