/**
 * File output: streams text pieces to a file atomically (temporary file, then rename), to a device or FIFO directly, or
 * to stdout; one-line errors.
 */
import { once, type EventEmitter } from "node:events";
import {
  closeSync,
  createWriteStream,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  rmSync,
  statSync,
  write,
} from "node:fs";
import { access, chmod, lstat, open, readdir, readlink, realpath, rm, stat } from "node:fs/promises";
import { constants as fsConstants } from "node:fs";
import type { Dirent, Stats } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { fail, isCommplanError } from "../model/errors.js";
import { describeValue } from "../model/option-checks.js";
import type { CommplanError } from "../model/errors.js";
import { addInterruptCleanup, dropInterruptCleanup } from "./interrupt-cleanup.js";
import { commitRenames } from "./commit-files.js";

/** Bytes the file stream buffers before it asks the writer to wait. */
const HIGH_WATER = 4 << 20;

/** What a file-system error means to a user, without the raw errno (`writing` picks the wording of ENOENT). */
export function fsErrorText(e: unknown, writing: boolean): string {
  const code = (e as { code?: unknown }).code;
  switch (code) {
    case "ENOENT":
      return writing ? "cannot write: the directory does not exist" : "no such file";
    case "ENOTDIR":
      return writing
        ? "cannot write: a part of the path is not a directory"
        : "no such file (a part of the path is not a directory)";
    case "EISDIR":
      return "is a directory";
    case "EACCES":
    case "EPERM":
      return writing ? "cannot write: permission denied" : "permission denied";
    case "ENOSPC":
      return "cannot write: no space left on the device";
    case "EPIPE":
      return "the reader closed the pipe";
    case "ENXIO":
      return `cannot ${writing ? "write" : "read"}: no such device or address (a socket cannot be opened as a file)`;
    case "ELOOP":
      return "too many levels of symbolic links";
    case "NOT_DIR":
      return "cannot write: it is not a directory";
    case "NO_CREATE":
      return `cannot create a file in ${(e as { dir?: string }).dir ?? "its directory"}`;
    case "NOT_REGULAR":
      return irregularText((e as { kind?: string }).kind ?? "not a file");
    case "READ_ONLY":
      return `cannot write: the file is read-only (mode ${((e as { mode?: number }).mode ?? 0).toString(8).padStart(4, "0")}); commplan replaces only a file it could write in place, as a shell '>' would`;
    default:
      return `cannot ${writing ? "write" : "read"}: ${(e as Error)?.message ?? String(e)}`;
  }
}

/**
 * A CommplanError (code IO) for a file-system error; a CommplanError passes through. Writing, an ENOENT says what on
 * the path is missing (missingOnPath).
 */
export function fsError(e: unknown, module: string, file: string, writing: boolean): CommplanError {
  if (isCommplanError(e)) return e;
  const missing = writing && (e as { code?: unknown }).code === "ENOENT" && file !== "<stdout>";
  return fail(module, "IO", missing ? `cannot write: ${missingOnPath(file)}` : fsErrorText(e, writing), { file });
}

/** Symbolic links missingOnPath follows into their targets at most (as a loop of links would never end). */
const MISSING_LINK_DEPTH = 8;

/** The kind of the entry at `path` without following a last link: "none" when it does not exist (or cannot be seen). */
function entryKind(path: string): "none" | "link" | "other" {
  try {
    return lstatSync(path).isSymbolicLink() ? "link" : "other";
  } catch {
    return "none";
  }
}

/** Whether `path` leads to something, links followed. */
function reaches(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `file` cannot be written with ENOENT, naming the path as given: the current directory was removed; a directory
 * on the path does not exist, or is a symbolic link whose target does not exist; the file is a symbolic link whose
 * target's directory does not exist (each link's target said the same way).
 */
export function missingOnPath(file: string, depth = 0): string {
  if (!isAbsolute(file)) {
    try {
      process.cwd();
    } catch {
      return "the current directory does not exist any more (it was removed): cd to a directory that exists";
    }
  }
  const parts = file.split("/");
  // every directory on the path, from the first one down: a missing one, or a link to nothing, is the reason
  for (let k = 1; k < parts.length; k++) {
    const dir = parts.slice(0, k).join("/");
    if (dir === "" || dir === "." || dir === "..") continue;
    const kind = entryKind(dir);
    if (kind === "none") return `the directory ${dir} does not exist`;
    if (kind === "link" && !reaches(dir)) return `${dir} is ${danglingLink(dir, depth)}`;
  }
  if (entryKind(file) === "link" && !reaches(file))
    return `${depth === 0 ? "it" : file} is ${danglingLink(file, depth)}`;
  return `no such file or directory (the directory ${dirname(file)} exists: was something on the path removed while commplan wrote?)`;
}

/** "a symbolic link to 'T', and <why T cannot be reached>" for a link `link` whose target does not exist. */
function danglingLink(link: string, depth: number): string {
  let to: string;
  try {
    to = readlinkSync(link);
  } catch {
    return "a symbolic link that cannot be read";
  }
  const target = isAbsolute(to) ? to : join(dirname(link), to);
  const why =
    depth >= MISSING_LINK_DEPTH
      ? "links to links past that"
      : entryKind(target) === "none" && entryKind(dirname(target)) !== "none" && reaches(dirname(target))
        ? `${target} does not exist`
        : missingOnPath(target, depth + 1);
  return `a symbolic link to '${to}', and ${why}`;
}

/**
 * Where a target of "-" is written: the part of a Node Writable (process.stdout, a PassThrough) the writers use, typed
 * without Node's type definitions so a TypeScript consumer needs none.
 */
export interface OutputStream {
  /** Queues a chunk; false asks the writer to wait for "drain". */
  write(chunk: string | Uint8Array): boolean;
  /** Adds a listener. */
  on(eventName: string | symbol, listener: (...args: unknown[]) => void): this;
  /** Adds a one-time listener ("drain", "error"). */
  once(eventName: string | symbol, listener: (...args: unknown[]) => void): this;
  /** Removes a listener. */
  removeListener(eventName: string | symbol, listener: (...args: unknown[]) => void): this;
}

/** What a replace check reads of an existing file's stat (a Node Stats has it). */
export interface ExistingFile {
  /** The file's type and permission bits. */
  readonly mode: number;
}

async function drainInto(pieces: Iterable<string | Uint8Array>, out: OutputStream): Promise<void> {
  for (const piece of pieces) {
    // events.once uses on, once and removeListener of a Node emitter, all in OutputStream
    if (!out.write(piece)) await once(out as unknown as EventEmitter, "drain");
  }
}

/** The check that an existing output file may be replaced (its path and stat). */
export type ReplaceCheck = (path: string, st: ExistingFile) => Promise<boolean>;

/** Where an output goes besides its path: the stream "-" names, and the check before replacing a file. */
export interface OutputOptions {
  /** Where a target of "-" is written (an in-process CLI run gives its caller's); default: process.stdout. */
  readonly stdout?: OutputStream;
  /** Whether an existing file may be replaced; userMayReplace by default (tests give another). */
  readonly canReplace?: ReplaceCheck;
  /**
   * Write each target as the name itself, never through what is there: a symbolic link, FIFO, socket or device at a
   * target is refused (read with lstat when the outputs are planned), and the file renamed onto the name replaces
   * whatever was made there since, without following it (a directory commplan fills: writeDirectoryFiles).
   */
  readonly noFollow?: boolean;
}

/** The keys of OutputOptions, for the writers' checks of their options (with their own keys). */
export const OUTPUT_OPTION_KEYS: readonly string[] = Object.freeze(["stdout", "canReplace", "noFollow"]);

// ---- temporary files and signals ----

/**
 * The temporary files being written now (removed on SIGINT, SIGTERM, SIGHUP and process.exit: interrupt-cleanup.ts).
 */
const liveTemps = new Set<string>();

/** Removes every live temporary file it can: one that cannot be removed (EACCES, EBUSY) does not keep the others. */
function removeLiveTemps(): void {
  for (const t of liveTemps) {
    try {
      rmSync(t, { force: true });
    } catch {
      // best effort, in a signal handler or at exit: nothing to report to and nothing else to do
    }
  }
  liveTemps.clear();
}

/** Records a temporary file being written (removed if the process is interrupted before untrackTemp). */
export function trackTemp(t: string): void {
  addTemp(t);
}

/** The temporary file `t` is gone or renamed into place: no longer removed on an interrupt. */
export function untrackTemp(t: string): void {
  dropTemp(t);
}

function addTemp(t: string): void {
  if (liveTemps.size === 0) addInterruptCleanup(removeLiveTemps);
  liveTemps.add(t);
}

function dropTemp(t: string): void {
  if (!liveTemps.delete(t)) return;
  if (liveTemps.size === 0) dropInterruptCleanup(removeLiveTemps);
}

// ---- where the bytes go ----

/**
 * Paths that name an open file descriptor (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`): written in place, whatever
 * they point to.
 */
const FD_PATH = /^\/(dev\/(stdout|stderr|fd\/\d+)|proc\/(self|\d+)\/fd\/\d+)$/;

/**
 * The file a path ends at after following its symbolic links, also when the last one dangles (then the file the link
 * would create).
 */
async function finalPath(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (e) {
    if ((e as { code?: unknown }).code !== "ENOENT") throw e;
  }
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let st: Stats;
    try {
      st = await lstat(p);
    } catch (e) {
      if ((e as { code?: unknown }).code !== "ENOENT") throw e;
      return join(await realpath(dirname(p)), basename(p)); // an ENOENT here: the directory is missing
    }
    if (!st.isSymbolicLink()) return p;
    p = resolve(dirname(p), await readlink(p));
  }
  throw Object.assign(new Error("too many symbolic links"), { code: "ELOOP" });
}

/**
 * How a path target is written: in place (a device, FIFO, socket or descriptor path), or atomically to `file` (symbolic
 * links followed). `noFollow`: the name itself, read with lstat: anything there but a regular file is refused, and the
 * file is renamed onto the name, never written through what is there.
 */
async function outputPlan(
  target: string,
  canReplace: ReplaceCheck,
  noFollow = false,
): Promise<{ direct: true } | { direct: false; file: string; mode: number | null }> {
  if (!noFollow && FD_PATH.test(target)) return { direct: true };
  let st: Stats | null = null;
  try {
    st = await (noFollow ? lstat(target) : stat(target));
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code !== "ENOENT") throw e;
  }
  const kind = noFollow && st !== null ? notRegularKind(st) : null;
  if (kind !== null) throw Object.assign(new Error(`is ${kind}, not a regular file`), { code: "NOT_REGULAR", kind });
  if (st !== null && st.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  if (st !== null && !st.isFile()) return { direct: true };
  if (st !== null && !(await canReplace(target, st)))
    throw Object.assign(new Error("read-only"), { code: "READ_ONLY", mode: st.mode & 0o7777 });
  const file = noFollow ? resolve(target) : await finalPath(target);
  return { direct: false, file, mode: st === null ? null : st.mode & 0o7777 };
}

/**
 * The check that an existing file may be replaced: as a shell `>` would write it in place, the user
 * must be able to write it (access W_OK: its owner and mode), and it must have a write bit, so a file
 * made read-only (chmod a-w, mode 0444) is refused also for root, for whom W_OK always holds.
 */
export async function userMayReplace(path: string, st: ExistingFile): Promise<boolean> {
  if ((st.mode & 0o222) === 0) return false;
  try {
    await access(path, fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a path ends at (links followed): `id`, the device and inode of a regular file (null when
 * missing, not a regular file or unreadable); `special`, whether it is something other than a
 * regular file or a directory (a device, a pipe, a socket).
 */
async function fileKind(path: string): Promise<{ id: string | null; special: boolean }> {
  try {
    const st = await stat(path);
    return { id: st.isFile() ? `${st.dev}:${st.ino}` : null, special: !st.isFile() && !st.isDirectory() };
  } catch {
    return { id: null, special: false };
  }
}

/** The file a path would end at, resolved as far as it goes (for a path that does not exist yet), or null. */
async function resolvedTarget(path: string): Promise<string | null> {
  try {
    return await finalPath(path);
  } catch {
    return null;
  }
}

/**
 * Refuses (exit 2, one line naming both) an output path that is the same file as one of the
 * command's inputs, or as another of its outputs (one would overwrite the other): the same device
 * and inode after following links, or (a path that does not exist yet) the same resolved path.
 * `outputs` are [option, path] pairs; "-" and undefined are skipped, and so are inputs read from
 * stdin. Run it before any work, so nothing is overwritten.
 */
export async function refuseOutputOntoInput(
  module: string,
  inputs: readonly (string | undefined)[],
  outputs: readonly (readonly [string, string | undefined])[],
): Promise<void> {
  const files = inputs.filter((f): f is string => f !== undefined && f !== "-");
  const ids = await Promise.all(files.map(async (f) => (await fileKind(f)).id));
  const paths = await Promise.all(files.map(resolvedTarget));
  const seen: { option: string; out: string; id: string | null; path: string | null }[] = [];
  for (const [option, out] of outputs) {
    if (out === undefined || out === "-" || FD_PATH.test(out)) continue;
    const { id, special } = await fileKind(out);
    const path = id === null ? await resolvedTarget(out) : null;
    const field = option.replace(/^-+/, "");
    for (let k = 0; k < files.length; k++) {
      if ((id !== null && id === ids[k]) || (path !== null && path === paths[k])) {
        const same = out === files[k] ? "" : ` (${files[k]!})`;
        throw fail(
          module,
          "BAD_OPTION",
          `${option} ${out} is the input file${same}: writing it would destroy the input; write to another file`,
          { file: out, field },
        );
      }
    }
    // a device (/dev/null) or pipe may take several outputs
    if (special) continue;
    const twin = seen.find((o) => (id !== null && id === o.id) || (path !== null && path === o.path));
    if (twin !== undefined)
      throw fail(
        module,
        "BAD_OPTION",
        `${option} ${out} and ${twin.option} ${twin.out} are the same file: one would overwrite the other; give them different files`,
        { file: out, field },
      );
    seen.push({ option, out, id, path });
  }
}

async function closeQuietly(ws: ReturnType<typeof createWriteStream>): Promise<void> {
  ws.on("error", () => undefined); // a write still in flight reports the destroyed stream; the first error wins
  if (!ws.closed) {
    const closed = once(ws, "close").catch(() => undefined);
    ws.destroy();
    await closed;
  }
}

/** Handed each piece once the file has it (the piece's memory may then be reused). */
export type PieceRelease = (piece: string | Uint8Array) => void;

async function writeStream(
  pieces: Iterable<string | Uint8Array>,
  path: string,
  flags: string,
  release: PieceRelease | null,
): Promise<ReturnType<typeof createWriteStream>> {
  const ws = createWriteStream(path, { flags, highWaterMark: HIGH_WATER });
  try {
    await once(ws, "open");
    if (release === null) await drainInto(pieces, ws);
    else
      for (const piece of pieces) {
        // the callback runs once the file system has the piece (an error is the stream's own, reported by it)
        const ok = ws.write(piece, (e) => {
          if (e == null) release(piece);
        });
        if (!ok) await once(ws, "drain");
      }
    ws.end();
    await once(ws, "finish");
    if (!ws.closed) await once(ws, "close");
  } catch (e) {
    await closeQuietly(ws);
    throw e;
  }
  return ws;
}

/** Writes all of b to fd at its current offset, on libuv's thread pool. */
function writeAll(fd: number, b: Uint8Array): Promise<void> {
  return new Promise((done, failed) => {
    const from = (at: number): void =>
      write(fd, b, at, b.length - at, null, (e, n) => {
        if (e !== null) failed(e);
        else if (at + n < b.length) from(at + n);
        else done();
      });
    from(0);
  });
}

/**
 * Writes the pieces to a new regular file (flags "wx"), each piece's write on libuv's thread pool while the next piece
 * is made, one write in flight at a time (so the file's bytes are in order, and a second core copies into the page
 * cache while this one writes rows); `release` gets each piece once written, so two Buffers serve the whole file.
 * Cheaper than a WriteStream's hand-offs (docs/architecture.md has the figures).
 */
async function writeFilePieces(
  pieces: Iterable<string | Uint8Array>,
  path: string,
  release: PieceRelease | null,
): Promise<void> {
  const fd = openSync(path, "wx", 0o666);
  let inFlight: Promise<void> | null = null;
  try {
    for (const piece of pieces) {
      const b = typeof piece === "string" ? Buffer.from(piece) : piece;
      if (inFlight !== null) await inFlight;
      inFlight = writeAll(fd, b).then(() => release?.(piece));
    }
    if (inFlight !== null) await inFlight;
  } finally {
    // a piece's maker that threw leaves the write before it in flight: the descriptor is closed after it
    await inFlight?.catch(() => undefined);
    closeSync(fd);
  }
}

/** The hidden temporary file beside `file` that an atomic write fills before renaming it onto `file`. */
function tempBeside(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

/**
 * An error creating a file in `dir`: an ENOENT where the directory exists (as /proc, which refuses new files even to
 * root) says so, not that the directory is missing; other errors pass through.
 */
async function createError(e: unknown, dir: string): Promise<unknown> {
  if ((e as { code?: unknown }).code !== "ENOENT") return e;
  try {
    if ((await stat(dir)).isDirectory()) return Object.assign(new Error("cannot create"), { code: "NO_CREATE", dir });
  } catch {
    // the directory is missing after all: the ENOENT says so
  }
  return e;
}

/** How a target is written, or its one-line error (naming the target). */
async function planOf(target: string, module: string, out: OutputOptions): ReturnType<typeof outputPlan> {
  try {
    return await outputPlan(target, out.canReplace ?? userMayReplace, out.noFollow === true);
  } catch (e) {
    throw fsError(e, module, target, true);
  }
}

/**
 * Checks, before any work, that every output target can be written: its directory exists and takes a new file (a
 * file is created there and removed at once), it is not a directory, an existing file may be replaced
 * (userMayReplace). "-", undefined, devices, FIFOs and descriptor paths are written in place and not checked. `targets`
 * are [option, path] pairs (as refuseOutputOntoInput's); the first problem is one line naming the target (exit 2).
 */
export async function checkOutputTargets(
  module: string,
  targets: readonly (readonly [string, string | undefined])[],
  out: OutputOptions = {},
): Promise<void> {
  for (const [, target] of targets) {
    if (target === undefined || target === "-") continue;
    const plan = await planOf(target, module, out);
    if (plan.direct) continue;
    try {
      await probeCreate(dirname(plan.file));
    } catch (e) {
      throw fsError(e, module, target, true);
    }
  }
}

/** Creates a file in the directory `dir` and removes it at once: whether `dir` takes a new file (raw errors). */
async function probeCreate(dir: string): Promise<void> {
  const probe = tempBeside(join(dir, "probe"));
  addTemp(probe);
  try {
    const fd = await open(probe, "wx", 0o600).catch(async (e: unknown) => {
      throw await createError(e, dir);
    });
    await fd.close();
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
    dropTemp(probe);
  }
}

/**
 * Checks, before any work, that the directory `dir` of a directory output (export --out, --split) can take its files:
 * an existing directory that takes a new file, or a missing one (created when written) whose nearest existing
 * ancestor is a directory that takes one. The problem otherwise is one line naming `dir` (exit 2).
 */
export async function checkOutputDirectory(module: string, dir: string): Promise<void> {
  let at = resolve(dir);
  try {
    for (;;) {
      let st: Stats;
      try {
        st = await stat(at);
      } catch (e) {
        if ((e as { code?: unknown }).code !== "ENOENT" || dirname(at) === at) throw e;
        at = dirname(at);
        continue;
      }
      if (!st.isDirectory())
        throw Object.assign(new Error("not a directory"), { code: at === resolve(dir) ? "NOT_DIR" : "ENOTDIR" });
      break;
    }
    await probeCreate(at);
  } catch (e) {
    throw fsError(e, module, dir, true);
  }
}

/** What an lstat or a directory entry says of a path's type. */
interface EntryType {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
}

/** "a symbolic link", "a FIFO", ... for an entry that is not a regular file; null for a regular file. */
function notRegularKind(d: EntryType): string | null {
  if (d.isFile()) return null;
  if (d.isSymbolicLink()) return "a symbolic link";
  if (d.isDirectory()) return "a directory";
  if (d.isFIFO()) return "a FIFO";
  if (d.isSocket()) return "a socket";
  return "a device";
}

/** Why an entry of a directory commplan fills (`kind`: "a symbolic link", "a FIFO", ...) is refused. */
const irregularText = (kind: string): string =>
  `is ${kind}, not a regular file: in a directory it fills, commplan replaces only regular files (it follows no link and writes no FIFO or device there); remove it or choose another directory`;

/**
 * Refuses (code IO, one line naming the entry and why) an existing entry of the directory `dir` at one of its output
 * `names` that is not a regular file (a symbolic link, FIFO, socket, device, directory): a directory commplan fills
 * gets regular files of its own only, so a link there could not make it write outside the directory (or one file
 * twice), nor a FIFO make it wait. Nothing is checked when `dir` does not exist yet (it will be made). Entries are
 * read with lstat's types (a link is a link, whatever it points at); run it before anything is written.
 */
export async function refuseIrregularEntries(module: string, dir: string, names: Iterable<string>): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === "ENOENT") return; // made when written; a non-directory is the writer's to report
    if (code === "ENOTDIR")
      throw fsError(Object.assign(new Error("not a directory"), { code: "NOT_DIR" }), module, dir, true);
    throw fsError(e, module, dir, true);
  }
  const wanted = new Set(names);
  for (const d of entries.filter((x) => wanted.has(x.name)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const kind = notRegularKind(d);
    if (kind !== null) throw fail(module, "IO", irregularText(kind), { file: join(dir, d.name) });
  }
}

/**
 * Makes the directory `dir` and its missing parents, as mkdir -p, and returns the first one it made (the top of the
 * new chain; undefined when `dir` existed), as Node's recursive mkdir does; unlike it, a directory that exists but
 * takes no new directory (/proc says ENOENT there) fails with "cannot create a file in" it, where Node's recursive
 * mkdir spins for ever (Node 20). A part that is not a directory fails as ENOTDIR. Errors are raw (fsError maps them).
 */
export function makeDirectories(dir: string): string | undefined {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    try {
      if (!statSync(at).isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
      break;
    } catch (e) {
      if ((e as { code?: unknown }).code !== "ENOENT" || dirname(at) === at) throw e;
      missing.push(at);
      at = dirname(at);
    }
  }
  for (const d of [...missing].reverse()) {
    try {
      mkdirSync(d);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (code === "EEXIST" && statSync(d).isDirectory()) continue; // another process made it meanwhile
      if (code === "ENOENT") throw Object.assign(new Error("cannot create"), { code: "NO_CREATE", dir: dirname(d) });
      throw e;
    }
  }
  return missing.at(-1);
}

/** Pieces as writePieces takes them: a list, or a function of whether the target is written atomically. */
export type OutputPieces = Iterable<string | Uint8Array> | ((atomic: boolean) => Iterable<string | Uint8Array>);

/** A temporary file filled for a target, to be renamed onto `file`. */
interface StagedFile {
  readonly tmp: string;
  readonly file: string;
  readonly target: string;
}

/** Fills a temporary file beside `plan.file` with the pieces (it keeps the permission bits of the file it replaces). */
async function stageFile(
  pieces: Iterable<string | Uint8Array>,
  target: string,
  plan: { file: string; mode: number | null },
  module: string,
  release: PieceRelease | null,
): Promise<StagedFile> {
  const tmp = tempBeside(plan.file);
  addTemp(tmp);
  try {
    try {
      await writeFilePieces(pieces, tmp, release);
    } catch (e) {
      throw await createError(e, dirname(plan.file));
    }
    if (plan.mode !== null) await chmod(tmp, plan.mode);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    dropTemp(tmp);
    throw fsError(e, module, target, true);
  }
  return { tmp, file: plan.file, target };
}

/** Removes staged temporary files that were not renamed. */
async function dropStaged(staged: readonly StagedFile[]): Promise<void> {
  for (const s of staged) {
    await rm(s.tmp, { force: true }).catch(() => undefined);
    dropTemp(s.tmp);
  }
}

/**
 * Renames the staged files onto their targets, all or none, an interrupt held off until the renames end
 * (commitRenames); an error names the target whose rename failed.
 */
async function commitStaged(staged: readonly StagedFile[], module: string): Promise<void> {
  const target = new Map(staged.map((s) => [s.tmp, s.target]));
  await commitRenames(staged, {
    onError: (e, s) => fsError(e, module, target.get(s.tmp) ?? s.file, true),
    settle: () => {
      for (const s of staged) dropTemp(s.tmp);
    },
  });
}

/**
 * Writes the pieces to a path, or to `out.stdout` for "-", honouring backpressure; errors are
 * CommplanErrors of `module` naming the target. A regular file (new or existing) is written to a
 * temporary file in its directory and renamed into place, so a failure (also an error thrown by the
 * pieces' generator, or SIGINT / SIGTERM) never leaves a half-written file; a symbolic link is
 * followed and kept (the file it points to is replaced), an existing file keeps its permission
 * bits. A target that exists and is not a regular file (a device such as /dev/null, a FIFO, a
 * socket, /dev/stdout, /dev/fd/N) is opened and written in place, never replaced. `release`, when given, is handed
 * each piece a file has been given (not the pieces of "-": a caller's stream may keep them). `pieces` may be a function
 * of whether the target is written atomically (a temporary file renamed into place: an error thrown part-way leaves
 * nothing), for a writer that can check what it writes as it goes only then.
 */
export async function writePieces(
  pieces: OutputPieces,
  target: string,
  module: string,
  out: OutputOptions = {},
  release: PieceRelease | null = null,
): Promise<void> {
  await writeOutputs(module, [{ target, pieces }], out, release);
}

/** One output of a command for writeOutputs. */
export interface OutputDocument {
  /** The path, or "-" for `out.stdout`. */
  readonly target: string;
  /** Its pieces (streamed: a generator's are made as they are written). */
  readonly pieces: OutputPieces;
}

/**
 * Writes several outputs of one command, all or none as far as the file system allows: every regular-file target is
 * first filled as a temporary file beside it (streamed, as writePieces), then the in-place targets ("-", devices,
 * FIFOs) are written in the order given, and only then are the temporary files renamed onto their targets. So an
 * error while any output is made (a pieces' generator that throws, a full disk, a closed pipe) leaves none of the new
 * files. The renames are all or none too (commitRenames): a rename that fails undoes the ones before it (the files
 * they replaced were kept aside; best effort where the directory itself became unwritable or went away, the error
 * then naming what is left), and SIGINT, SIGTERM or SIGHUP during the renames is acted on once they end, so an
 * interrupt leaves the targets all old or all new. `release` is writePieces's (for a single output).
 */
export async function writeOutputs(
  module: string,
  outputs: readonly OutputDocument[],
  out: OutputOptions = {},
  release: PieceRelease | null = null,
): Promise<void> {
  for (const d of outputs)
    if (typeof d.target !== "string" || d.target === "")
      throw fail(module, "BAD_OPTION", `the output must be a path or "-", got ${describeValue(d.target)}`, {
        field: "target",
      });
  const piecesOf = (d: OutputDocument, atomic: boolean): Iterable<string | Uint8Array> =>
    typeof d.pieces === "function" ? d.pieces(atomic) : d.pieces;
  // null: stdout
  const plans: (Awaited<ReturnType<typeof outputPlan>> | null)[] = [];
  for (const d of outputs) plans.push(d.target === "-" ? null : await planOf(d.target, module, out));
  const staged: StagedFile[] = [];
  let committed = false;
  try {
    for (const [k, d] of outputs.entries()) {
      const plan = plans[k] ?? null;
      if (plan !== null && !plan.direct)
        staged.push(await stageFile(piecesOf(d, true), d.target, plan, module, release));
    }
    for (const [k, d] of outputs.entries()) {
      const plan = plans[k] ?? null;
      if (plan === null) {
        try {
          await drainInto(piecesOf(d, false), out.stdout ?? process.stdout);
        } catch (e) {
          throw fsError(e, module, "<stdout>", true);
        }
      } else if (plan.direct) {
        try {
          await writeStream(piecesOf(d, false), d.target, "w", release);
        } catch (e) {
          throw fsError(e, module, d.target, true);
        }
      }
    }
    await commitStaged(staged, module);
    committed = true;
  } finally {
    if (!committed) await dropStaged(staged);
  }
}
