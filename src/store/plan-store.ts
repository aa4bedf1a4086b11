/**
 * Plan store: a directory of sealed Arrow plans keyed by content; writers publish with an exclusive link, so concurrent
 * or killed writers leave every entry complete, checksummed and written once.
 */
import { closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { join } from "node:path";
import { fail, isCommplanError } from "../model/errors.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import {
  decodeScheduleArrow,
  decodeScheduleArrowWithHeader,
  encodeScheduleArrow,
  readScheduleArrowHeader,
} from "../io/schedule-arrow.js";
import { fsError, fsErrorText } from "../io/file-output.js";
import { jsonExcerpt } from "../internal/quoted.js";
import { aKind, appendRegular, pathKind, readRegular } from "./store-fs.js";
import { writeNewFileSynced } from "../io/bytes-output.js";
import { SEAL_KEY, SEAL_PLACEHOLDER, sealBytes, sealProblem } from "./entry-seal.js";
import { STORE_FORMAT, storeKeyId, type StoreKey } from "./store-key.js";

const MODULE = "store";
const MARKER = "commplan-store.json";
/** A temporary file of a writer on another host is left alone this long (ms) before gc removes it. */
const FOREIGN_TEMP_AGE = 3600_000;
/** The largest marker file read. */
const MARKER_LIMIT = 1 << 16;
const ENTRY_ID = /^[0-9a-f]{64}$/;

/** An open plan store (a directory). */
export interface PlanStore {
  readonly dir: string;
}

/** Who wrote an entry: the creation record kept in the entry and in the store's log. */
export interface CreationRecord {
  readonly host: string;
  readonly pid: number;
  readonly time: string;
}

/**
 * Where an entry's matrix came from, kept in the entry so `store list` can say it without the matrix: a pattern with
 * its options, seed and P (precompute), or the name of the matrix file planned (`store add`; "-" for standard input).
 * Not part of the key: the first writer's record stays.
 */
export type StoreOrigin =
  | {
      readonly pattern: string;
      readonly options: { readonly [k: string]: number };
      readonly seed: number;
      readonly p: number;
    }
  | { readonly matrixFile: string; readonly p: number };

/** An entry as `list` shows it. */
export interface StoreEntryInfo {
  readonly id: string;
  readonly file: string;
  readonly bytes: number;
  /** null when the entry is damaged. */
  readonly key: StoreKey | null;
  readonly created: CreationRecord | null;
  /** Where its matrix came from; null for an entry written without it, or damaged. */
  readonly origin: StoreOrigin | null;
  /** Why the entry is refused, or null. */
  readonly problem: string | null;
}

function entriesDir(s: PlanStore): string {
  return join(s.dir, "entries");
}

function tmpDir(s: PlanStore): string {
  return join(s.dir, "tmp");
}

function logFile(s: PlanStore): string {
  return join(s.dir, "log");
}

/** Refuses an entry id that is not 64 lowercase hex digits (`name` says what gave it); returns it. */
export function checkEntryId(id: unknown, name = "an entry id"): string {
  if (typeof id !== "string" || !ENTRY_ID.test(id))
    throw fail(
      MODULE,
      "BAD_OPTION",
      `${name} must be 64 lowercase hex digits (as 'store list' prints it), got ${jsonExcerpt(id)}`,
      { field: "id" },
    );
  return id;
}

/** The file of entry `id` (refused unless 64 lowercase hex digits). */
export function entryFile(s: PlanStore, id: string): string {
  checkEntryId(id);
  return join(entriesDir(s), id.slice(0, 2), `${id}.arrow`);
}

/** A part of the store that is not what the store keeps there (a link, a FIFO, a file for a directory, ...). */
export interface StoreDamage {
  readonly file: string;
  readonly problem: string;
}

/** The damage at `path` when it is not of the `expected` kind (by lstat: a link is damage); `what` names the part. */
function partDamage(
  path: string,
  expected: "directory" | "file",
  what: string,
  missingOk: boolean,
): StoreDamage | null {
  const kind = pathKind(path);
  if (kind === expected || (kind === "missing" && missingOk)) return null;
  return { file: path, problem: `${kind === "missing" ? "nothing" : aKind(kind)} where the store keeps ${what}` };
}

const TMP_PART = "its temporary files";
const ENTRIES_PART = "its entries";
const PREFIX_PART = "a directory of entries";
const LOG_PART = "its log (a file)";

/** The damage of the parts an entry's path goes through (the entries directory, its prefix directory), or null. */
function entryPathDamage(s: PlanStore, id: string): StoreDamage | null {
  return (
    partDamage(entriesDir(s), "directory", ENTRIES_PART, false) ??
    partDamage(join(entriesDir(s), id.slice(0, 2)), "directory", PREFIX_PART, true)
  );
}

function refusedPart(d: StoreDamage, before: string): Error {
  return fail(MODULE, "BAD_FORMAT", `${d.problem}: refused${before}; 'commplan store gc' repairs it`, {
    file: d.file,
  });
}

/** Writes bytes to a new temporary file in the store, fsynced; returns its path. */
function writeTemp(s: PlanStore, bytes: Uint8Array): string {
  const tmp = join(tmpDir(s), `${hostname()}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  writeNewFileSynced(tmp, bytes);
  return tmp;
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Publishes a temporary file as `target` unless it exists (link: exclusive and atomic); true when this call published
 * it.
 */
function publish(tmp: string, target: string, dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    linkSync(tmp, target);
    fsyncDir(dir);
    return true;
  } catch (e) {
    if ((e as { code?: unknown }).code === "EEXIST") return false;
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Opens the store at `dir`; with `create`, makes it (and its marker file) when missing. Refuses a
 * directory that is not empty and not a store.
 */
export function openPlanStore(dir: string, create = false): PlanStore {
  if (typeof dir !== "string" || dir === "")
    throw fail(MODULE, "BAD_OPTION", `the store directory must be a non-empty path, got ${typeof dir}`, {
      field: "dir",
    });
  const s: PlanStore = { dir };
  const marker = join(dir, MARKER);
  try {
    const read = readRegular(marker, MARKER_LIMIT);
    if (read === null) throw Object.assign(new Error("missing"), { code: "ENOENT" });
    if (read.problem !== null) throw new Error(read.problem);
    const text = Buffer.from(read.bytes).toString("utf8");
    if ((JSON.parse(text) as { format?: unknown }).format !== STORE_FORMAT) throw new Error("format");
    return s;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    // ENOTDIR: the store path is a file (the marker's parent is not a directory)
    if (code === "ENOTDIR")
      throw fail(MODULE, "BAD_OPTION", "is a file, not a plan store directory (give a directory, new or a store)", {
        file: dir,
      });
    if (code !== "ENOENT")
      throw fail(MODULE, "BAD_FORMAT", `${MARKER} is not a ${STORE_FORMAT} marker`, { file: marker });
  }
  if (!create) throw fail(MODULE, "IO", `not a plan store (no ${MARKER})`, { file: dir });
  try {
    mkdirSync(dir, { recursive: true });
    // another process may be creating the same store right now: its parts are not "others"
    const others = readdirSync(dir).filter((n) => !["tmp", "entries", "log", MARKER].includes(n));
    if (others.length > 0)
      throw fail(MODULE, "BAD_OPTION", `not empty and not a plan store (holds ${others[0]})`, { file: dir });
    mkdirSync(tmpDir(s), { recursive: true });
    mkdirSync(entriesDir(s), { recursive: true });
    const bad =
      partDamage(tmpDir(s), "directory", TMP_PART, false) ??
      partDamage(entriesDir(s), "directory", ENTRIES_PART, false);
    if (bad !== null) throw refusedPart(bad, "");
    const tmp = writeTemp(s, Buffer.from(JSON.stringify({ format: STORE_FORMAT }) + "\n"));
    publish(tmp, marker, dir);
  } catch (e) {
    throw fsError(e, MODULE, dir, true);
  }
  return s;
}

/**
 * Adds a plan under its key unless an entry with that key exists. The entry is written to a
 * temporary file in the store, fsynced, and linked into place (an exclusive rename): a reader never
 * sees a partial entry, and two writers of the same key publish it once. `origin`, when given, is kept in the entry
 * for `store list`. Returns whether this call wrote it.
 */
export function addPlan(
  s: PlanStore,
  key: StoreKey,
  plan: Schedule,
  origin: StoreOrigin | null = null,
): { written: boolean; id: string; file: string } {
  const id = storeKeyId(key);
  const file = entryFile(s, id);
  const bad =
    partDamage(tmpDir(s), "directory", TMP_PART, false) ??
    entryPathDamage(s, id) ??
    partDamage(logFile(s), "file", LOG_PART, true);
  if (bad !== null) throw refusedPart(bad, " before adding");
  const created: CreationRecord = { host: hostname(), pid: process.pid, time: new Date().toISOString() };
  const extra = {
    store: { id, key: key as unknown as JsonValue },
    created: created as unknown as JsonValue,
    ...(origin === null ? {} : { origin: origin as unknown as JsonValue }),
  };
  const bytes = encodeScheduleArrow(plan, extra, { [SEAL_KEY]: SEAL_PLACEHOLDER });
  sealBytes(bytes);
  let written: boolean;
  try {
    const tmp = writeTemp(s, bytes);
    written = publish(tmp, file, join(entriesDir(s), id.slice(0, 2)));
  } catch (e) {
    throw fsError(e, MODULE, file, true);
  }
  if (written) {
    try {
      appendRegular(logFile(s), JSON.stringify({ add: id, ...created }) + "\n");
    } catch (e) {
      throw fail(
        MODULE,
        "IO",
        `entry ${id} was added, but its line could not be written to the log: ${fsErrorText(e, true)}`,
        { file: logFile(s) },
      );
    }
  }
  return { written, id, file };
}

/** Why the bytes of entry `id` are refused, or null (seal, then the key inside naming the same id). */
function entryProblem(bytes: Uint8Array, id: string): string | null {
  const bad = sealProblem(bytes);
  if (bad !== null) return bad;
  try {
    const h = readScheduleArrowHeader(bytes) as unknown as { store?: { id?: unknown; key?: StoreKey } };
    if (h.store?.key === undefined || storeKeyId(h.store.key) !== id) return "its key does not match its name";
  } catch (e) {
    return isCommplanError(e) ? e.message : String(e);
  }
  return null;
}

function damaged(id: string, file: string, problem: string): Error {
  return fail(
    MODULE,
    "BAD_FORMAT",
    `entry ${id} is damaged (${problem}): refused; 'commplan store gc' removes it and the next add rewrites it`,
    { file },
  );
}

/**
 * The plan stored under `id`, or null when there is none; a damaged entry is refused by name (a CommplanError), never
 * served.
 */
export function getPlanById(s: PlanStore, id: string): Schedule | null {
  const file = entryFile(s, id);
  const badPath = entryPathDamage(s, id);
  if (badPath !== null) throw refusedPart(badPath, "");
  let read: ReturnType<typeof readRegular>;
  try {
    read = readRegular(file);
  } catch (e) {
    throw fsError(e, MODULE, file, false);
  }
  if (read === null) return null;
  if (read.problem !== null) throw damaged(id, file, read.problem);
  const bytes = read.bytes;
  const bad = sealProblem(bytes);
  if (bad !== null) throw damaged(id, file, bad);
  let decoded: ReturnType<typeof decodeScheduleArrowWithHeader>;
  try {
    // the checksum matched: the bytes are the writer's
    decoded = decodeScheduleArrowWithHeader(bytes, { trusted: true });
  } catch (e) {
    throw damaged(id, file, isCommplanError(e) ? e.message : String(e));
  }
  const key = (decoded.header as unknown as { store?: { key?: StoreKey } }).store?.key;
  if (key === undefined || storeKeyId(key) !== id) throw damaged(id, file, "its key does not match its name");
  return decoded.schedule;
}

/** The plan stored under `key`, or null (see getPlanById). */
export function getPlan(s: PlanStore, key: StoreKey): Schedule | null {
  return getPlanById(s, storeKeyId(key));
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    throw fsError(e, MODULE, dir, false);
  }
}

/** The ids of every entry file (sorted), and the damage of the directories holding them (never followed). */
function scanEntries(s: PlanStore): { ids: string[]; damage: StoreDamage[] } {
  const top = partDamage(entriesDir(s), "directory", ENTRIES_PART, false);
  if (top !== null) return { ids: [], damage: [top] };
  const ids: string[] = [];
  const damage: StoreDamage[] = [];
  for (const pre of names(entriesDir(s))) {
    if (!/^[0-9a-f]{2}$/.test(pre)) continue;
    const bad = partDamage(join(entriesDir(s), pre), "directory", PREFIX_PART, false);
    if (bad !== null) {
      damage.push(bad);
      continue;
    }
    for (const n of names(join(entriesDir(s), pre))) {
      const m = /^([0-9a-f]{64})\.arrow$/.exec(n);
      if (m !== null && m[1]!.startsWith(pre)) ids.push(m[1]!);
    }
  }
  return { ids, damage };
}

/** Every damaged part of the store: its tmp and entries directories, the prefix directories, the log. */
export function storeDamage(s: PlanStore): StoreDamage[] {
  const tmp = partDamage(tmpDir(s), "directory", TMP_PART, false);
  const log = partDamage(logFile(s), "file", LOG_PART, true);
  return [...(tmp === null ? [] : [tmp]), ...scanEntries(s).damage, ...(log === null ? [] : [log])];
}

/** The entry `id` as list shows it: read without following a link or opening anything but a regular file. */
function inspectEntry(s: PlanStore, id: string, decode: boolean): StoreEntryInfo {
  const file = entryFile(s, id);
  let read: ReturnType<typeof readRegular>;
  try {
    read = readRegular(file);
  } catch (e) {
    throw fsError(e, MODULE, file, false);
  }
  if (read !== null && read.problem !== null)
    return { id, file, bytes: 0, key: null, created: null, origin: null, problem: read.problem };
  const bytes = read?.bytes ?? new Uint8Array(0);
  let problem = entryProblem(bytes, id);
  let key: StoreKey | null = null,
    created: CreationRecord | null = null,
    origin: StoreOrigin | null = null;
  if (problem === null) {
    const h = readScheduleArrowHeader(bytes) as unknown as {
      store: { key: StoreKey };
      created: CreationRecord;
      origin?: StoreOrigin;
    };
    key = h.store.key;
    created = h.created;
    origin = h.origin ?? null;
    if (decode) {
      try {
        decodeScheduleArrow(bytes);
      } catch (e) {
        problem = isCommplanError(e) ? e.message : String(e);
      }
    }
  }
  return { id, file, bytes: bytes.length, key, created, origin, problem };
}

/** Every entry with its key, creation record and problem (null when sound); `decode` also decodes the columns. */
export function listPlans(s: PlanStore, decode = false): StoreEntryInfo[] {
  return scanEntries(s).ids.map((id) => inspectEntry(s, id, decode));
}

/** The temporary files in the store, and whether each is abandoned (its writer is gone; a non-file always is). */
function temps(s: PlanStore): { file: string; abandoned: boolean }[] {
  if (pathKind(tmpDir(s)) !== "directory") return [];
  let list: string[];
  try {
    list = readdirSync(tmpDir(s));
  } catch {
    return [];
  }
  const host = hostname();
  return list.map((n) => {
    const file = join(tmpDir(s), n);
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (st === undefined) return { file, abandoned: false };
    if (!st.isFile()) return { file, abandoned: true };
    const m = /^(.*)\.(\d+)\.[0-9a-f]+\.tmp$/.exec(n);
    if (m !== null && m[1] === host) return { file, abandoned: !alive(Number(m[2])) };
    return { file, abandoned: Date.now() - st.mtimeMs > FOREIGN_TEMP_AGE };
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: unknown }).code === "EPERM";
  }
}

/** The result of verifying a store: sound entries, damaged ones (by name), leftover temporary files, damaged parts. */
export interface StoreReport {
  readonly entries: number;
  readonly damaged: readonly StoreEntryInfo[];
  readonly temps: number;
  /** Parts of the store that are not what it keeps there (storeDamage). */
  readonly parts: readonly StoreDamage[];
}

/** Checks every entry (seal, key, columns) and every part of the store. */
export function verifyStore(s: PlanStore): StoreReport {
  const parts = storeDamage(s);
  const all = listPlans(s, true);
  return {
    entries: all.length,
    damaged: all.filter((e) => e.problem !== null),
    temps: temps(s).length,
    parts,
  };
}

/** What gcStore removed: abandoned temporary files, damaged entries (by id), damaged parts. */
export interface StoreGcResult {
  readonly temps: number;
  readonly damaged: readonly string[];
  readonly parts: readonly StoreDamage[];
}

/** Removes a path inside the store, following no link (a link is unlinked, its target never touched). */
function removeInside(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/**
 * Removes abandoned temporary files (their writer is gone), damaged entries and damaged parts of the
 * store (a link, a FIFO, a file where a directory belongs, or the reverse: removed, never followed;
 * the temporary and entries directories made anew); returns what it removed.
 */
export function gcStore(s: PlanStore): StoreGcResult {
  const parts = storeDamage(s);
  for (const d of parts) removeInside(d.file);
  for (const dir of [tmpDir(s), entriesDir(s)]) {
    try {
      if (pathKind(dir) === "missing") mkdirSync(dir);
    } catch (e) {
      throw fsError(e, MODULE, dir, true);
    }
  }
  let removedTemps = 0;
  for (const t of temps(s)) {
    if (!t.abandoned) continue;
    removeInside(t.file);
    removedTemps++;
  }
  const removed: string[] = [];
  for (const e of listPlans(s, true)) {
    if (e.problem === null) continue;
    removeInside(e.file);
    removed.push(e.id);
  }
  return { temps: removedTemps, damaged: removed, parts };
}
