/**
 * Store directory: the paths of a plan store's parts, their damage (a part that is not what the store keeps there),
 * opening (and creating) a store, and publishing a file into it.
 */
import { closeSync, fsyncSync, linkSync, openSync, readdirSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { join } from "node:path";
import { fail } from "../model/errors.js";
import { fsError, makeDirectories } from "../io/file-output.js";
import { jsonExcerpt } from "../internal/quoted.js";
import { aKind, pathKind, readRegular } from "./store-fs.js";
import { writeNewFileSynced } from "../io/bytes-output.js";
import { STORE_FORMAT } from "./store-key-id.js";
import { checkArg, isOptionsObject } from "../model/option-checks.js";

/** The module name that starts the store's messages. */
export const MODULE = "store";
const MARKER = "commplan-store.json";
/** The largest marker file read. */
const MARKER_LIMIT = 1 << 16;
const ENTRY_ID = /^[0-9a-f]{64}$/;
/** An open plan store (a directory). */
export interface PlanStore {
  readonly dir: string;
}

/** The directory of the entries (by the first two digits of their ids). */
export function entriesDir(s: PlanStore): string {
  return join(s.dir, "entries");
}

/** The directory of the writers' temporary files. */
export function tmpDir(s: PlanStore): string {
  return join(s.dir, "tmp");
}

/** The log: one creation record per entry written. */
export function logFile(s: PlanStore): string {
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
export function partDamage(
  path: string,
  expected: "directory" | "file",
  what: string,
  missingOk: boolean,
): StoreDamage | null {
  const kind = pathKind(path);
  if (kind === expected || (kind === "missing" && missingOk)) return null;
  return { file: path, problem: `${kind === "missing" ? "nothing" : aKind(kind)} where the store keeps ${what}` };
}

/** What the store keeps in its tmp directory, as a damage report names it. */
export const TMP_PART = "its temporary files";
/** What the store keeps in its entries directory. */
export const ENTRIES_PART = "its entries";
/** What the store keeps in a prefix directory of its entries. */
export const PREFIX_PART = "a directory of entries";
/** What the store keeps at its log's path. */
export const LOG_PART = "its log (a file)";

/** The damage of the parts an entry's path goes through (the entries directory, its prefix directory), or null. */
export function entryPathDamage(s: PlanStore, id: string): StoreDamage | null {
  return (
    partDamage(entriesDir(s), "directory", ENTRIES_PART, false) ??
    partDamage(join(entriesDir(s), id.slice(0, 2)), "directory", PREFIX_PART, true)
  );
}

/** The refusal of a damaged part (`before`: what was refused, e.g. " before adding"). */
export function refusedPart(d: StoreDamage, before: string): Error {
  return fail(MODULE, "BAD_FORMAT", `${d.problem}: refused${before}; 'commplan store gc' repairs it`, {
    file: d.file,
  });
}

/** Writes bytes to a new temporary file in the store, fsynced; returns its path. */
export function writeTemp(s: PlanStore, bytes: Uint8Array): string {
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
export function publish(tmp: string, target: string, dir: string): boolean {
  try {
    makeDirectories(dir);
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
 * The store at `dir` when it is one (its marker names the store format), else null when it has no marker (a new
 * directory, or one not made a store yet); nothing is made. Refuses a store path that is a file and a marker that is
 * not a store's, as openPlanStore does.
 */
export function existingPlanStore(dir: string): PlanStore | null {
  if (typeof dir !== "string" || dir === "")
    throw fail(MODULE, "BAD_OPTION", `the store directory must be a non-empty path, got ${typeof dir}`, {
      field: "dir",
    });
  const marker = join(dir, MARKER);
  try {
    const read = readRegular(marker, MARKER_LIMIT);
    if (read === null) return null;
    if (read.problem !== null) throw new Error(read.problem);
    const text = Buffer.from(read.bytes).toString("utf8");
    if ((JSON.parse(text) as { format?: unknown }).format !== STORE_FORMAT) throw new Error("format");
    return { dir };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    // ENOTDIR: the store path is a file (the marker's parent is not a directory)
    if (code === "ENOTDIR")
      throw fail(MODULE, "BAD_OPTION", "is a file, not a plan store directory (give a directory, new or a store)", {
        file: dir,
      });
    if (code === "ENOENT") return null;
    throw fail(MODULE, "BAD_FORMAT", `${MARKER} is not a ${STORE_FORMAT} marker`, { file: marker });
  }
}

/**
 * Refuses `dir`, a directory that is not a store yet, when it holds anything a store does not keep or a store's part
 * of the wrong kind (a link at tmp, entries or log), with the errors openPlanStore's create gives; a directory that
 * does not exist passes. The checks openPlanStore makes before it makes anything, made alone so that `store add`
 * refuses before it plans.
 */
export function checkNewStoreDirectory(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return; // to be made (or refused) when the store is made
    throw fsError(e, MODULE, dir, true);
  }
  // another process may be creating the same store right now: its parts are not "others"
  const others = names.filter((n) => !["tmp", "entries", "log", MARKER].includes(n));
  if (others.length > 0)
    throw fail(MODULE, "BAD_OPTION", `not empty and not a plan store (holds ${others[0]})`, { file: dir });
  // a store's part already there must be of its kind: nothing is made or written through a link at tmp, entries, log
  const s: PlanStore = { dir };
  const early =
    partDamage(tmpDir(s), "directory", TMP_PART, true) ??
    partDamage(entriesDir(s), "directory", ENTRIES_PART, true) ??
    partDamage(logFile(s), "file", LOG_PART, true);
  if (early !== null)
    throw fail(
      MODULE,
      "BAD_OPTION",
      `${early.problem}, in a directory that is not a plan store yet (no ${MARKER}): refused; remove it or give ` +
        "another directory",
      { file: early.file },
    );
}

/**
 * Opens the store at `dir`; with `create`, makes it (and its marker file) when missing. Refuses a
 * directory that is not empty and not a store.
 */
export function openPlanStore(dir: string, create = false): PlanStore {
  const existing = existingPlanStore(dir);
  if (existing !== null) return existing;
  if (!create)
    throw fail(MODULE, "IO", `not a plan store (no ${MARKER}; openPlanStore(dir, true) makes one)`, { file: dir });
  const s: PlanStore = { dir };
  const marker = join(dir, MARKER);
  try {
    makeDirectories(dir); // not mkdirSync's recursive option, which spins for ever under /proc (Node 20)
    checkNewStoreDirectory(dir);
    makeDirectories(tmpDir(s));
    makeDirectories(entriesDir(s));
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

/** Refuses `s` unless it is a PlanStore (openPlanStore's: an object with its directory), naming `fn`. */
export function checkPlanStore(fn: string, s: unknown): void {
  const ok = isOptionsObject(s) && typeof s["dir"] === "string" && s["dir"] !== "";
  checkArg("store", fn, "store", s, ok, "a PlanStore (openPlanStore's)", "BAD_OPTION");
}
