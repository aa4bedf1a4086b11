/** Plan store: a directory of sealed Arrow plans keyed by content; writers publish with an exclusive link, so concurrent or killed writers leave every entry complete, checksummed and written once. */
import {
  appendFileSync,
  closeSync,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  unlinkSync,
} from "node:fs";
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
import { fsError } from "../io/file-output.js";
import { writeNewFileSynced } from "../io/bytes-output.js";
import { SEAL_KEY, SEAL_PLACEHOLDER, sealBytes, sealProblem } from "./entry-seal.js";
import { STORE_FORMAT, storeKeyId, type StoreKey } from "./store-key.js";

const MODULE = "store";
const MARKER = "commplan-store.json";
/** A temporary file of a writer on another host is left alone this long (ms) before gc removes it. */
const FOREIGN_TEMP_AGE = 3600_000;

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

/** An entry as `list` shows it. */
export interface StoreEntryInfo {
  readonly id: string;
  readonly file: string;
  readonly bytes: number;
  /** null when the entry is damaged. */
  readonly key: StoreKey | null;
  readonly created: CreationRecord | null;
  /** Why the entry is refused, or null. */
  readonly problem: string | null;
}

function entriesDir(s: PlanStore): string {
  return join(s.dir, "entries");
}

function tmpDir(s: PlanStore): string {
  return join(s.dir, "tmp");
}

/** The file of entry `id`. */
export function entryFile(s: PlanStore, id: string): string {
  return join(entriesDir(s), id.slice(0, 2), `${id}.arrow`);
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

/** Publishes a temporary file as `target` unless it exists (link: exclusive and atomic); true when this call published it. */
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
    const text = readFileSync(marker, "utf8");
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
 * sees a partial entry, and two writers of the same key publish it once. Returns whether this call
 * wrote it.
 */
export function addPlan(s: PlanStore, key: StoreKey, plan: Schedule): { written: boolean; id: string; file: string } {
  const id = storeKeyId(key);
  const file = entryFile(s, id);
  const created: CreationRecord = { host: hostname(), pid: process.pid, time: new Date().toISOString() };
  const extra = { store: { id, key: key as unknown as JsonValue }, created: created as unknown as JsonValue };
  const bytes = encodeScheduleArrow(plan, extra, { [SEAL_KEY]: SEAL_PLACEHOLDER });
  sealBytes(bytes);
  try {
    const tmp = writeTemp(s, bytes);
    const written = publish(tmp, file, join(entriesDir(s), id.slice(0, 2)));
    if (written) appendFileSync(join(s.dir, "log"), JSON.stringify({ add: id, ...created }) + "\n");
    return { written, id, file };
  } catch (e) {
    throw fsError(e, MODULE, file, true);
  }
}

/** The whole file in a fresh (8-byte aligned) buffer, or null when it does not exist. */
function readWhole(file: string): Uint8Array | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    if ((e as { code?: unknown }).code === "ENOENT") return null;
    throw fsError(e, MODULE, file, false);
  }
  try {
    const out = Buffer.allocUnsafeSlow(fstatSync(fd).size); // its own ArrayBuffer, 8-byte aligned, not zeroed
    let at = 0;
    while (at < out.length) {
      const n = readSync(fd, out, at, out.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === out.length ? out : out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
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

/** The plan stored under `id`, or null when there is none; a damaged entry is refused by name (a CommplanError), never served. */
export function getPlanById(s: PlanStore, id: string): Schedule | null {
  const file = entryFile(s, id);
  const bytes = readWhole(file);
  if (bytes === null) return null;
  const bad = sealProblem(bytes);
  if (bad !== null) throw damaged(id, file, bad);
  let decoded: ReturnType<typeof decodeScheduleArrowWithHeader>;
  try {
    decoded = decodeScheduleArrowWithHeader(bytes, { trusted: true }); // the checksum matched: the bytes are the writer's
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

/** The ids of every entry file (sorted). */
function entryIds(s: PlanStore): string[] {
  const ids: string[] = [];
  let prefixes: string[];
  try {
    prefixes = readdirSync(entriesDir(s));
  } catch (e) {
    throw fsError(e, MODULE, entriesDir(s), false);
  }
  for (const pre of prefixes.sort()) {
    for (const n of readdirSync(join(entriesDir(s), pre)).sort()) {
      const m = /^([0-9a-f]{64})\.arrow$/.exec(n);
      if (m !== null && m[1]!.startsWith(pre)) ids.push(m[1]!);
    }
  }
  return ids;
}

/** Every entry with its key, creation record and problem (null when sound); `decode` also decodes each plan's columns. */
export function listPlans(s: PlanStore, decode = false): StoreEntryInfo[] {
  return entryIds(s).map((id) => {
    const file = entryFile(s, id);
    const bytes = readWhole(file) ?? new Uint8Array(0);
    let problem = entryProblem(bytes, id);
    let key: StoreKey | null = null,
      created: CreationRecord | null = null;
    if (problem === null) {
      const h = readScheduleArrowHeader(bytes) as unknown as { store: { key: StoreKey }; created: CreationRecord };
      key = h.store.key;
      created = h.created;
      if (decode) {
        try {
          decodeScheduleArrow(bytes);
        } catch (e) {
          problem = isCommplanError(e) ? e.message : String(e);
        }
      }
    }
    return { id, file, bytes: bytes.length, key, created, problem };
  });
}

/** The temporary files in the store, and whether each is abandoned (its writer is gone). */
function temps(s: PlanStore): { file: string; abandoned: boolean }[] {
  let names: string[];
  try {
    names = readdirSync(tmpDir(s));
  } catch {
    return [];
  }
  const host = hostname();
  return names.map((n) => {
    const file = join(tmpDir(s), n);
    const m = /^(.*)\.(\d+)\.[0-9a-f]+\.tmp$/.exec(n);
    let abandoned: boolean;
    if (m !== null && m[1] === host) abandoned = !alive(Number(m[2]));
    else {
      try {
        abandoned = Date.now() - statSync(file).mtimeMs > FOREIGN_TEMP_AGE;
      } catch {
        abandoned = false;
      }
    }
    return { file, abandoned };
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

/** The result of verifying a store: sound entries, damaged ones (by name), leftover temporary files. */
export interface StoreReport {
  readonly entries: number;
  readonly damaged: readonly StoreEntryInfo[];
  readonly temps: number;
}

/** Checks every entry (seal, key, columns). */
export function verifyStore(s: PlanStore): StoreReport {
  const all = listPlans(s, true);
  return { entries: all.length, damaged: all.filter((e) => e.problem !== null), temps: temps(s).length };
}

/** Removes abandoned temporary files (their writer is gone) and damaged entries; returns what it removed. */
export function gcStore(s: PlanStore): { temps: number; damaged: readonly string[] } {
  let removedTemps = 0;
  for (const t of temps(s)) {
    if (!t.abandoned) continue;
    rmSync(t.file, { force: true });
    removedTemps++;
  }
  const removed: string[] = [];
  for (const e of listPlans(s, true)) {
    if (e.problem === null) continue;
    unlinkSync(e.file);
    removed.push(e.id);
  }
  return { temps: removedTemps, damaged: removed };
}
