/**
 * Entry read: a store entry's bytes read and their seal checked, and its plan decoded and checked against its name;
 * loadPlanById does it without importing apache-arrow for an entry laid out as the store writes it.
 */
import { fail, isCommplanError } from "../model/errors.js";
import type { Schedule } from "../model/schedule.js";
import type { ScheduleArrowHeader } from "../io/schedule-arrow-meta.js";
import { fsError } from "../io/file-output.js";
import { MAX_ENTRY_BYTES, readRegular, readRegularInPieces, type EndsCheck } from "./store-fs.js";
import {
  SEAL_FRAME_BYTES,
  SEAL_TAIL,
  sealFrameProblem,
  sealProblem,
  sealStream,
  type SealStream,
} from "./entry-seal.js";

/** An entry's two ends checked before it is read whole: one with no seal there is refused unread. */
export const SEAL_ENDS: EndsCheck = { ends: SEAL_FRAME_BYTES, problem: sealFrameProblem };
import { storeKeyId, type StoreKey } from "./store-key-id.js";
import { planOfLayout, sealedEntryLayout } from "./entry-arrow.js";
import { entryFile, entryPathDamage, MODULE, refusedPart, type PlanStore } from "./store-dir.js";

/** A damaged entry refused by name. */
export function damaged(id: string, file: string, problem: string): Error {
  return fail(
    MODULE,
    "BAD_FORMAT",
    `entry ${id} is damaged (${problem}): refused; 'commplan store gc' removes it and the next add rewrites it`,
    { file },
  );
}

/** The bytes of entry `id` with their seal checked, or null when there is none; a damaged entry is refused by name. */
export function readSealedEntry(s: PlanStore, id: string): { bytes: Uint8Array; file: string } | null {
  const file = checkedEntryFile(s, id);
  let read: ReturnType<typeof readRegular>;
  try {
    read = readRegular(file, MAX_ENTRY_BYTES, SEAL_ENDS);
  } catch (e) {
    throw fsError(e, MODULE, file, false);
  }
  return sealChecked(id, file, read, sealProblem);
}

/** The file of entry `id`, its path refused when a part of it is not what the store makes. */
function checkedEntryFile(s: PlanStore, id: string): string {
  const badPath = entryPathDamage(s, id);
  if (badPath !== null) throw refusedPart(badPath, "");
  return entryFile(s, id);
}

/** The entry read, refused by name when it cannot be read or its seal (`problem` of its bytes) does not match. */
function sealChecked(
  id: string,
  file: string,
  read: ReturnType<typeof readRegular>,
  problem: (bytes: Uint8Array) => string | null,
): { bytes: Uint8Array; file: string } | null {
  if (read === null) return null;
  if (read.problem !== null) throw damaged(id, file, read.problem);
  const bad = problem(read.bytes);
  if (bad !== null) throw damaged(id, file, bad);
  return { bytes: read.bytes, file };
}

/**
 * readSealedEntry with the checksum computed while the file is read (the reads on the thread pool): on a 20 MB entry
 * the seal check then costs little more wall time than the read alone.
 */
async function readSealedEntryInPieces(s: PlanStore, id: string): Promise<{ bytes: Uint8Array; file: string } | null> {
  const file = checkedEntryFile(s, id);
  let check: SealStream | null | undefined;
  let read: Awaited<ReturnType<typeof readRegularInPieces>>;
  try {
    read = await readRegularInPieces(
      file,
      SEAL_TAIL,
      (bytes, upTo, tailFrom) => {
        if (check === undefined) check = sealStream(bytes, upTo, tailFrom);
        else check?.feed(upTo);
      },
      MAX_ENTRY_BYTES,
      SEAL_ENDS,
    );
  } catch (e) {
    throw fsError(e, MODULE, file, false);
  }
  return sealChecked(id, file, read, (bytes) => (check ? check.end() : sealProblem(bytes)));
}

/**
 * The plan of sealed entry bytes, decoded by `decode`; a decode error or a key that does not name `id` refuses the
 * entry by name.
 */
export function planOfEntry(
  entry: { bytes: Uint8Array; file: string },
  id: string,
  decode: () => { schedule: Schedule; header: ScheduleArrowHeader },
): Schedule {
  let decoded: ReturnType<typeof decode>;
  try {
    // the checksum matched: the bytes are the writer's
    decoded = decode();
  } catch (e) {
    throw damaged(id, entry.file, isCommplanError(e) ? e.message : String(e));
  }
  const key = (decoded.header as unknown as { store?: { key?: StoreKey } }).store?.key;
  if (key === undefined || storeKeyId(key) !== id) throw damaged(id, entry.file, "its key does not match its name");
  const other = planKeyMismatch(decoded.schedule, key);
  if (other !== null) throw damaged(id, entry.file, other);
  return decoded.schedule;
}

/**
 * Why a plan is not one its key can name (its P, element size or matrix digest differ from the key's: a plan of
 * another matrix filed under this key), or null. The seal finds damage, not a writer that filed the wrong plan.
 */
export function planKeyMismatch(
  plan: { readonly matrixDigest: string; readonly p: number; readonly elementBytes: number },
  key: StoreKey,
): string | null {
  for (const f of ["p", "elementBytes", "matrixDigest"] as const)
    if (plan[f] !== key[f])
      return `its plan's ${f} ${JSON.stringify(plan[f])} is not its key's ${JSON.stringify(key[f])}`;
  return null;
}

/**
 * getPlanById for a caller that reads one entry and need not load apache-arrow: the plan stored under `id`, or null
 * when there is none; apache-arrow is imported only for an entry the store's own reader does not read.
 */
export async function loadPlanById(s: PlanStore, id: string): Promise<Schedule | null> {
  return (await loadEntryById(s, id))?.plan ?? null;
}

/**
 * loadPlanById with the entry's bytes beside its plan: a sealed Arrow file that any schedule Arrow reader reads (its
 * extra header keys, the creation record (host, pid, time) among them, and its seal included), so a caller that wants
 * the plan as Arrow can write them as they are.
 */
export async function loadEntryById(s: PlanStore, id: string): Promise<{ plan: Schedule; bytes: Uint8Array } | null> {
  const entry = await readSealedEntryInPieces(s, id);
  if (entry === null) return null;
  const layout = sealedEntryLayout(entry.bytes);
  const arrow = layout === null ? await import("../io/schedule-arrow.js") : null;
  const plan = planOfEntry(entry, id, () =>
    layout === null ? arrow!.decodeScheduleArrowWithHeader(entry.bytes, { trusted: true }) : planOfLayout(layout),
  );
  return { plan, bytes: entry.bytes };
}
