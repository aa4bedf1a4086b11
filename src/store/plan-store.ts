/**
 * Plan store: a directory of sealed Arrow plans keyed by content; writers publish with an exclusive link, so concurrent
 * or killed writers leave every entry complete, checksummed and written once.
 */
import { lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { fail, isCommplanError } from "../model/errors.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import {
  decodeScheduleArrow,
  decodeScheduleArrowWithHeader,
  encodeScheduleArrow,
  readScheduleArrowHeader,
} from "../io/schedule-arrow.js";
import { fsError, fsErrorText } from "../io/file-output.js";
import { aKind, appendRegular, judgeRegular, MAX_ENTRY_BYTES, pathKind, readRegular } from "./store-fs.js";
import { SEAL_KEY, SEAL_PLACEHOLDER, sealBytes, sealProblem, sealProblemInPieces } from "./entry-seal.js";
import { checkStoreKey, storeKeyId, type StoreKey } from "./store-key-id.js";
import { decodeSealedEntry, footerMetadata } from "./entry-arrow.js";
import { parseArrowHeader } from "../io/schedule-arrow-meta.js";
import { programsDamage, programTemps, verifyPrograms, type ProgramDamage } from "./store-programs.js";
import { checkStoreOrigin, type StoreOrigin } from "./store-origin.js";
import { creationRecordOf, creationRecords, type CreationRecord } from "./store-log.js";

export type { StoreOrigin } from "./store-origin.js";
export type { CreationRecord } from "./store-log.js";
import { damaged, planKeyMismatch, planOfEntry, readSealedEntry, SEAL_ENDS } from "./entry-read.js";
import {
  ENTRIES_PART,
  entriesDir,
  entryFile,
  entryPathDamage,
  LOG_PART,
  logFile,
  MODULE,
  partDamage,
  PREFIX_PART,
  publish,
  refusedPart,
  TMP_PART,
  tmpDir,
  writeTemp,
  type PlanStore,
  type StoreDamage,
} from "./store-dir.js";
import { checkPlanStore } from "./store-dir.js";
import { checkArg, checkBooleanOption, checkOptionsObject } from "../model/option-checks.js";

export { openPlanStore, type PlanStore, type StoreDamage } from "./store-dir.js";

/** A temporary file of a writer on another host is left alone this long (ms) before gc removes it. */
const FOREIGN_TEMP_AGE = 3600_000;

/** An entry as `list` shows it. */
export interface StoreEntryInfo {
  readonly id: string;
  readonly file: string;
  readonly bytes: number;
  /** null when the entry is damaged. */
  readonly key: StoreKey | null;
  /**
   * Who wrote it and when, from the store's log (an entry an earlier commplan wrote keeps it in its header too); null
   * when the entry is damaged or the log has no line for it.
   */
  readonly created: CreationRecord | null;
  /** Where its matrix came from; null for an entry written without it, or damaged. */
  readonly origin: StoreOrigin | null;
  /** Why the entry is refused, or null. */
  readonly problem: string | null;
  /**
   * The algorithm that made the plan, as its schedule names it: the key's own, but for an `auto` entry auto's pick
   * (e.g. coloring); null when the entry is damaged.
   */
  readonly planned: string | null;
}
/**
 * Adds a plan under its key unless an entry with that key exists. The entry is written to a
 * temporary file in the store, fsynced, and linked into place (an exclusive rename): a reader never
 * sees a partial entry, and two writers of the same key publish it once. `origin`, when given, is kept in the entry
 * for `store list`. The entry's bytes depend on the plan, key and origin alone (the same in every store); who wrote
 * it and when goes to the store's log. Returns whether this call wrote it.
 */
export function addPlan(
  s: PlanStore,
  key: StoreKey,
  plan: Schedule,
  origin: StoreOrigin | null = null,
): { written: boolean; id: string; file: string } {
  checkPlanStore("addPlan", s);
  checkStoreKey(MODULE, "addPlan", key);
  checkStoreOrigin(MODULE, origin);
  const id = storeKeyId(key);
  const file = entryFile(s, id);
  const bad =
    partDamage(tmpDir(s), "directory", TMP_PART, false) ??
    entryPathDamage(s, id) ??
    partDamage(logFile(s), "file", LOG_PART, true);
  if (bad !== null) throw refusedPart(bad, " before adding");
  // no creation record in the entry: the same plan, key and origin give the same bytes in every store
  const extra = {
    store: { id, key: key as unknown as JsonValue },
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
    const created: CreationRecord = { host: hostname(), pid: process.pid, time: new Date().toISOString() };
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

/**
 * The plan stored under `id`, or null when there is none; a damaged entry is refused by name (a CommplanError), never
 * served. An entry laid out as the store writes it is read by the store's own reader, any other by apache-arrow.
 */
export function getPlanById(s: PlanStore, id: string): Schedule | null {
  checkPlanStore("getPlanById", s);
  checkArg("store", "getPlanById", "id", id, typeof id === "string", "a plan id (a string)", "BAD_OPTION");
  const entry = readSealedEntry(s, id);
  if (entry === null) return null;
  return planOfEntry(
    entry,
    id,
    () => decodeSealedEntry(entry.bytes) ?? decodeScheduleArrowWithHeader(entry.bytes, { trusted: true }),
  );
}

/** The plan stored under `key`, or null (see getPlanById); a key that is not one (checkStoreKey) is an error. */
export function getPlan(s: PlanStore, key: StoreKey): Schedule | null {
  checkPlanStore("getPlan", s);
  checkStoreKey(MODULE, "getPlan", key);
  return getPlanById(s, storeKeyId(key));
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    throw fsError(e, MODULE, dir, false);
  }
}

/**
 * An entry file under another prefix than its id's: the store looks an id up in entries/<its first two digits>/, so
 * it is never served (a file moved or copied by hand).
 */
function misplaced(file: string, id: string): StoreDamage {
  return {
    file,
    problem: `an entry under the wrong prefix: the store looks entry ${id} up in entries/${id.slice(0, 2)}/ and never serves it from here`,
  };
}

/**
 * A name under entries/ that the store never reads: anything but a prefix directory (two lowercase hex digits) there,
 * or anything but an entry file (`<64 hex digits>.arrow`) in a prefix directory; put there by hand or another program.
 */
function stray(file: string, where: "entries" | "prefix", young: boolean): StoreDamage {
  const what = aKind(pathKind(file));
  const problem =
    where === "entries"
      ? `${what} the store does not keep (entries/ holds only prefix directories of two hex digits): never read`
      : `${what} the store does not keep (a prefix directory holds only entries, <64 hex digits>.arrow): never read`;
  return { file, problem: young ? `${problem}; young: left alone by gc until an hour old` : problem };
}

/**
 * Whether a stray under entries/ was changed within the last hour (FOREIGN_TEMP_AGE, by its own lstat mtime): gc leaves
 * it alone, as it may be a file still being copied in (rsync's `.<name>.XXXXXX`, cp) or an NFS `.nfsXXXX` file of an
 * entry removed while open.
 */
function isYoung(file: string): boolean {
  const st = lstatSync(file, { throwIfNoEntry: false });
  return st !== undefined && Date.now() - st.mtimeMs <= FOREIGN_TEMP_AGE;
}

/** What scanEntries finds: entry ids, damage, and the strays among it young enough for gc to leave alone. */
type EntriesScan = { ids: string[]; damage: StoreDamage[]; young: Set<string> };

/**
 * The ids of every entry file (sorted), and the damage of the directories holding them (never followed), of the
 * entry files under the wrong prefix (misplaced) and of the names the store does not keep there (stray; the young
 * ones' files in `young`).
 */
function scanEntries(s: PlanStore): EntriesScan {
  const top = partDamage(entriesDir(s), "directory", ENTRIES_PART, false);
  if (top !== null) return { ids: [], damage: [top], young: new Set() };
  const ids: string[] = [];
  const damage: StoreDamage[] = [];
  const young = new Set<string>();
  const addStray = (file: string, where: "entries" | "prefix"): void => {
    const isNew = isYoung(file);
    if (isNew) young.add(file);
    damage.push(stray(file, where, isNew));
  };
  for (const pre of names(entriesDir(s))) {
    if (!/^[0-9a-f]{2}$/.test(pre)) {
      addStray(join(entriesDir(s), pre), "entries");
      continue;
    }
    const bad = partDamage(join(entriesDir(s), pre), "directory", PREFIX_PART, false);
    if (bad !== null) {
      damage.push(bad);
      continue;
    }
    for (const n of names(join(entriesDir(s), pre))) {
      const m = /^([0-9a-f]{64})\.arrow$/.exec(n);
      if (m === null) {
        addStray(join(entriesDir(s), pre, n), "prefix");
        continue;
      }
      if (m[1]!.startsWith(pre)) ids.push(m[1]!);
      else damage.push(misplaced(join(entriesDir(s), pre, n), m[1]!));
    }
  }
  return { ids, damage, young };
}

/**
 * Every damaged part of the store: its tmp and entries directories, the prefix directories, an entry file under the
 * wrong prefix, a name the store does not keep under entries/, the log, programs/.
 */
export function storeDamage(s: PlanStore): StoreDamage[] {
  return damageAndYoung(s).parts;
}

/** storeDamage, and the files of the young strays among it (gc leaves them alone). */
function damageAndYoung(s: PlanStore): { parts: StoreDamage[]; young: Set<string> } {
  const tmp = partDamage(tmpDir(s), "directory", TMP_PART, false);
  const log = partDamage(logFile(s), "file", LOG_PART, true);
  const programs = programsDamage(s);
  const scan = scanEntries(s);
  const parts = [...(tmp === null ? [] : [tmp]), ...scan.damage, ...(log === null ? [] : [log])];
  return { parts: programs === null ? parts : [...parts, programs], young: scan.young };
}

/** The header fields list shows of an entry (`created` only in an entry an earlier commplan wrote). */
type ListedHeader = { store: { key: StoreKey }; created?: unknown; origin?: StoreOrigin; algorithm?: unknown };

/** An entry judged: its size, its problem (null when sound) and its header when it could be read. */
type Judged = { size: number; problem: string | null; header: ListedHeader | null };

/** The header of sealed bytes' metadata text, or why it is refused (not readable, or a key not naming `id`). */
function headerOf(meta: () => string | undefined, id: string): ListedHeader | string {
  try {
    const h = parseArrowHeader(meta()) as unknown as { store?: { key?: StoreKey } };
    if (h.store?.key === undefined || storeKeyId(h.store.key) !== id) return "its key does not match its name";
    return h as ListedHeader;
  } catch (e) {
    return isCommplanError(e) ? e.message : String(e);
  }
}

/**
 * Entry `id`'s file judged as list judges it, never held whole: its seal checked in pieces (sealProblemInPieces),
 * then its header read from its footer alone.
 */
function judgeInPieces(file: string, id: string): Judged {
  let judged: ReturnType<typeof judgeRegular<Judged>>;
  try {
    judged = judgeRegular(file, MAX_ENTRY_BYTES, SEAL_ENDS, (size, readAt): Judged => {
      const bad = sealProblemInPieces(size, readAt);
      if (bad !== null) return { size, problem: bad, header: null };
      const tail = Buffer.alloc(10);
      readAt(tail, size - 10, 10);
      const length = tail.readInt32LE(0);
      const footer = Buffer.alloc(length > 0 && length <= size - 18 ? length : 0);
      const h = headerOf(() => {
        if (footer.length === 0 || readAt(footer, size - 10 - length, length) < length)
          throw new RangeError("its footer cannot be read");
        return footerMetadata(footer);
      }, id);
      return typeof h === "string" ? { size, problem: h, header: null } : { size, problem: null, header: h };
    });
  } catch (e) {
    throw fsError(e, MODULE, file, false);
  }
  if (judged === null) return { size: 0, problem: sealProblem(new Uint8Array(0)), header: null }; // gone since listed
  return judged.problem === null ? judged.verdict : { size: judged.size ?? 0, problem: judged.problem, header: null };
}

/**
 * Entry `id` judged in bounded memory, as `store list` judges it (its path's parts, its kind by lstat, its seal checked
 * in pieces, its key read from its footer; its columns not decoded): null when there is no entry, else its problem
 * (the one-line message getPlanById refuses it with), or null as the problem when it is sound.
 */
export function entryProblemInPieces(s: PlanStore, id: string): { problem: string | null } | null {
  const badPath = entryPathDamage(s, id);
  if (badPath !== null) return { problem: refusedPart(badPath, "").message };
  const file = entryFile(s, id);
  if (pathKind(file) === "missing") return null;
  const { problem } = judgeInPieces(file, id);
  return { problem: problem === null ? null : damaged(id, file, problem).message };
}

/** Entry `id`'s file read whole and judged, its columns decoded too (verify and gc). */
function judgeDecoded(file: string, id: string): Judged {
  let read: ReturnType<typeof readRegular>;
  try {
    read = readRegular(file, MAX_ENTRY_BYTES, SEAL_ENDS);
  } catch (e) {
    throw fsError(e, MODULE, file, false);
  }
  if (read !== null && read.problem !== null) return { size: read.size ?? 0, problem: read.problem, header: null };
  const bytes = read?.bytes ?? new Uint8Array(0);
  const size = bytes.length;
  const bad = entryProblem(bytes, id);
  if (bad !== null) return { size, problem: bad, header: null };
  const header = readScheduleArrowHeader(bytes) as unknown as ListedHeader;
  let problem: string | null;
  try {
    problem = planKeyMismatch(decodeScheduleArrow(bytes), header.store.key);
  } catch (e) {
    problem = isCommplanError(e) ? e.message : String(e);
  }
  return { size, problem, header }; // a plan its key cannot name still shows its key
}

/**
 * The entry `id` as list shows it: read without following a link or opening anything but a regular file; in pieces,
 * or whole with its columns decoded (`decode`).
 */
function inspectEntry(
  s: PlanStore,
  id: string,
  decode: boolean,
  log: ReadonlyMap<string, CreationRecord>,
): StoreEntryInfo {
  const file = entryFile(s, id);
  const { size, problem, header: h } = decode ? judgeDecoded(file, id) : judgeInPieces(file, id);
  const created = h === null ? null : (log.get(id) ?? creationRecordOf(h.created)); // an old header's, checked
  return {
    ...{ id, file, bytes: size, key: h?.store.key ?? null, created, origin: h?.origin ?? null },
    ...{ problem, planned: problem === null && typeof h?.algorithm === "string" ? h.algorithm : null },
  };
}

/**
 * Every entry with its key, creation record (from the store's log) and problem (null when sound): each checked in
 * pieces, never held whole; with `decode`, read whole and its columns decoded too.
 */
export function listPlans(s: PlanStore, decode = false): StoreEntryInfo[] {
  checkPlanStore("listPlans", s);
  checkBooleanOption("store", "decode", decode);
  return listEntries(s, decode, true);
}

/**
 * listPlans without its argument checks; `withLog` false skips reading the store's log (verify and gc never show
 * `created`): every entry's `created` is then its header's, or null.
 */
function listEntries(s: PlanStore, decode: boolean, withLog: boolean): StoreEntryInfo[] {
  const ids = scanEntries(s).ids;
  const log = withLog ? creationRecords(logFile(s), new Set(ids)) : new Map<string, CreationRecord>();
  return ids.map((id) => inspectEntry(s, id, decode, log));
}

/** The temporary files in the store, and whether each is abandoned (its writer is gone; a non-file always is). */
function temps(s: PlanStore): { file: string; abandoned: boolean }[] {
  // precompute's leftovers in programs/ too: a program being written or moved aside, by the same rule
  const host = hostname();
  const programs = programTemps(s).map((t) => {
    // a program moved aside (.old) whose key has no program (its replacement was interrupted between the renames) is
    // the only copy: kept for a hand to move back, until precompute writes the key anew
    if (t.movedAside && pathKind(join(dirname(t.file), t.key)) === "missing") return { file: t.file, abandoned: false };
    if (t.host === host) return { file: t.file, abandoned: !alive(t.pid) };
    const st = lstatSync(t.file, { throwIfNoEntry: false });
    return { file: t.file, abandoned: st !== undefined && Date.now() - st.mtimeMs > FOREIGN_TEMP_AGE };
  });
  return [...entryTemps(s, host), ...programs];
}

/** The temporary files in tmp/, and whether each is abandoned. */
function entryTemps(s: PlanStore, host: string): { file: string; abandoned: boolean }[] {
  if (pathKind(tmpDir(s)) !== "directory") return [];
  let list: string[];
  try {
    list = readdirSync(tmpDir(s));
  } catch {
    return [];
  }
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

/**
 * The result of verifying a store: sound entries, damaged ones (by name), leftover temporary files, damaged parts, and
 * the lowered programs (precompute --from-capture's) checked and damaged.
 */
export interface StoreReport {
  readonly entries: number;
  readonly damaged: readonly StoreEntryInfo[];
  readonly temps: number;
  /** Parts of the store that are not what it keeps there (storeDamage). */
  readonly parts: readonly StoreDamage[];
  /** The program directories in programs/ checked (verifyPrograms). */
  readonly programs: number;
  /** The program directories that libcommplan could not replay as they are. */
  readonly damagedPrograms: readonly ProgramDamage[];
  /** The program directories not checked: too big to read within the memory budget (not counted as damage). */
  readonly uncheckedPrograms: readonly ProgramDamage[];
}

/**
 * Checks every entry (seal, key, columns), every part of the store and every lowered program in programs/
 * (verifyPrograms; `opts.maxMemory` bounds the reading of one, else the default budget: a program past it is listed in
 * `uncheckedPrograms`, not read, and nothing is thrown).
 */
export function verifyStore(s: PlanStore, opts: { readonly maxMemory?: number } = {}): StoreReport {
  checkPlanStore("verifyStore", s);
  checkOptionsObject("store", "options", opts);
  const parts = storeDamage(s);
  const all = listEntries(s, true, false);
  const programs = verifyPrograms(s, opts);
  return {
    entries: all.length,
    damaged: all.filter((e) => e.problem !== null),
    temps: temps(s).length,
    parts,
    programs: programs.programs,
    damagedPrograms: programs.damaged,
    uncheckedPrograms: programs.unchecked,
  };
}

/**
 * A path gcStore could not remove (`kind` "remove") or a directory of the store it removed as damaged and could not
 * make anew (`kind` "remake"), with why (`problem`: `cannot remove: permission denied`, `cannot make it anew:
 * permission denied`). Tell the two apart by `kind`; `problem` is for people.
 */
export interface StoreGcFailure extends StoreDamage {
  readonly kind: "remove" | "remake";
}

/**
 * What gcStore removed (with `dryRun`: would remove): abandoned temporary files, damaged entries (by id), damaged
 * parts; and what it could not remove.
 */
export interface StoreGcResult {
  readonly temps: number;
  readonly damaged: readonly string[];
  readonly parts: readonly StoreDamage[];
  /**
   * Every path gc could not remove or directory it could not make anew, in the order met: `{ file, problem, kind }`,
   * `kind` "remove" or "remake" (StoreGcFailure); empty when every removal was made (and with `dryRun`).
   */
  readonly failed: readonly StoreGcFailure[];
}

/**
 * Removes a path inside the store, following no link (a link is unlinked, its target never touched); a failure is kept
 * in `failed` (the path, why, kind "remove") and the caller goes on with the other removals.
 */
function removeInside(path: string, failed: StoreGcFailure[]): boolean {
  try {
    rmSync(path, { recursive: true, force: true });
    return true;
  } catch (e) {
    failed.push({ file: path, problem: `cannot remove: ${fsErrorText(e, false)}`, kind: "remove" });
    return false;
  }
}

/**
 * Removes abandoned temporary files (their writer is gone), damaged entries and damaged parts of the
 * store (a link, a FIFO, a file where a directory belongs, or the reverse: removed, never followed;
 * the temporary and entries directories made anew); returns what it removed. With `dryRun` it removes nothing and
 * returns what it would remove now (a damaged part's contents are not looked into: removing the part removes them).
 * A stray under entries/ younger than an hour is left alone (isYoung). A path it cannot remove does not stop it: it
 * goes on with every other removal and returns each such path in `failed` with why and its kind (StoreGcFailure),
 * beside what it removed, so a
 * caller can say what state the store is in (`store gc` prints both). An error finding what to remove (a directory
 * that cannot be listed) is thrown.
 */
export function gcStore(s: PlanStore, dryRun = false): StoreGcResult {
  checkPlanStore("gcStore", s);
  checkBooleanOption("store", "dryRun", dryRun);
  const found = damageAndYoung(s);
  const parts = found.parts.filter((d) => !found.young.has(d.file));
  if (dryRun) {
    const abandoned = temps(s).filter((t) => t.abandoned).length;
    const damaged = listEntries(s, true, false).filter((e) => e.problem !== null);
    return { temps: abandoned, damaged: damaged.map((e) => e.id), parts, failed: [] };
  }
  const failed: StoreGcFailure[] = [];
  const removedParts = parts.filter((d) => removeInside(d.file, failed));
  for (const dir of [tmpDir(s), entriesDir(s)]) {
    try {
      if (pathKind(dir) === "missing") mkdirSync(dir);
    } catch (e) {
      failed.push({ file: dir, problem: `cannot make it anew: ${fsErrorText(e, false)}`, kind: "remake" });
    }
  }
  const removedTemps = temps(s).filter((t) => t.abandoned && removeInside(t.file, failed)).length;
  const removed: string[] = [];
  for (const e of listEntries(s, true, false))
    if (e.problem !== null && removeInside(e.file, failed)) removed.push(e.id);
  return { temps: removedTemps, damaged: removed, parts: removedParts, failed };
}
