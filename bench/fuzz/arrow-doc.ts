/** Raw Arrow schedules for the fuzzer: a schedule's Arrow file with header fields replaced as a hostile writer would. */
import { Schema, Table, tableFromIPC, tableToIPC } from "apache-arrow";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { encodeScheduleArrow, SCHEDULE_ARROW_META_KEY } from "../../src/io/schedule-arrow.js";

/** The Arrow file of a valid schedule JSON text with header fields set to `patch`'s values; null if it cannot be made. */
export function arrowWithHeader(json: string, patch: Readonly<Record<string, unknown>>): Uint8Array | null {
  let t: Table;
  try {
    t = tableFromIPC(encodeScheduleArrow(parseScheduleJsonText(json)));
  } catch {
    return null;
  }
  if (Object.keys(patch).length === 0) return tableToIPC(t, "file");
  const h = JSON.parse(t.schema.metadata.get(SCHEDULE_ARROW_META_KEY)!) as Record<string, unknown>;
  Object.assign(h, patch);
  const meta = new Map(t.schema.metadata);
  meta.set(SCHEDULE_ARROW_META_KEY, JSON.stringify(h));
  return tableToIPC(new Table(new Schema(t.schema.fields, meta), t.batches), "file");
}
