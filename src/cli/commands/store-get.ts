/**
 * commplan store get: a stored plan written as JSON or Arrow (the entry's bytes). Loads no planner, and apache-arrow
 * only to read an entry the store's own reader does not read, so `store get --id` starts almost as fast as Node.
 */
import { lstatSync } from "node:fs";
import { dirname } from "node:path";
import { counted } from "../../internal/plural.js";
import { oneLine } from "../../internal/quoted.js";
import { checkMemory } from "../../model/memory-budget.js";
import { fail, isCommplanError } from "../../model/errors.js";
import type { Schedule } from "../../model/schedule.js";
import { writeScheduleJson } from "../../io/schedule-json-write.js";
import { refuseOutputOntoInput } from "../../io/file-output.js";
import { writeBytesAtomic } from "../../io/bytes-output.js";
import { checkEntryId, entryFile, openPlanStore, type PlanStore } from "../../store/store-dir.js";
import { MAX_ENTRY_BYTES } from "../../store/store-fs.js";
import { loadEntryById } from "../../store/entry-read.js";
import type { CliContext } from "../context.js";
import { inputErrorLine } from "../exit-code.js";
import { memoryOption } from "../memory-option.js";
import { outputFormat, scheduleFormatOfName } from "../output-format.js";
import type { StoreGetArgv } from "../store-get-argv.js";
import { printJson, refuseJsonOnStdout, writtenBytes } from "./json-summary.js";

/** The options of store get that say what to write and where. */
export interface StoreGetOptions {
  readonly id?: string;
  readonly output: string;
  /** json or arrow; absent: from the output file's extension (scheduleFormatOfName), else json. */
  readonly format?: string | undefined;
  readonly json?: boolean;
}

/**
 * Bytes a loaded entry takes per byte of its file: the bytes read whole, and the columns decoded from them (as the
 * Arrow schedule reader counts).
 */
export const ENTRY_BYTES_PER_BYTE = 2;

/**
 * The size of a plausible entry file: 0 for a missing one, anything but a regular file, an unreadable path or one
 * larger than any entry can be (the store itself reports those as damage, never reading them). Nothing is followed, as
 * the store's readers follow nothing (lstat): a link as the entry, or as its prefix directory or the entries directory
 * (where the store looks it up, `entries/<ab>/`), is 0, never the size of what it points at outside the store.
 */
export function entrySize(file: string): number {
  try {
    const prefix = dirname(file);
    for (const dir of [dirname(prefix), prefix])
      if (lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) return 0;
    const st = lstatSync(file, { throwIfNoEntry: false });
    return st?.isFile() === true && st.size <= MAX_ENTRY_BYTES ? st.size : 0;
  } catch {
    return 0;
  }
}

/** Refuses, before reading it, an entry whose file the budget cannot hold (nothing for a missing entry). */
export function checkEntryMemory(file: string, id: string, maxMemory: number): void {
  const size = entrySize(file);
  checkMemory("store", ENTRY_BYTES_PER_BYTE * size, `loading the ${size}-byte entry ${id}`, maxMemory, { file });
}

/**
 * Writes the plan: as JSON, or as Arrow the entry's own bytes (its seal checked and its plan decoded, so they are the
 * writer's: a schedule Arrow file whose header also keeps the entry's key, creation record (host, pid, time), origin
 * and seal), not encoded again.
 */
async function writeSchedule(
  entry: { plan: Schedule; bytes: Uint8Array },
  output: string,
  format: string,
  ctx: CliContext,
): Promise<void> {
  if (format === "arrow") {
    await writeBytesAtomic(entry.bytes, output, "store");
  } else await writeScheduleJson(entry.plan, output, { stdout: ctx.stdout });
}

/**
 * loadEntryById; with --json, a damaged entry (refused as BAD_FORMAT, as store verify finds it) is also reported on
 * stdout, as store verify and a missing entry report theirs, before its refusal exits 2 (`damaged`: the line stderr
 * prints).
 */
async function loadEntryOrReport(
  s: PlanStore,
  id: string,
  json: boolean,
  ctx: CliContext,
): Promise<Awaited<ReturnType<typeof loadEntryById>>> {
  try {
    return await loadEntryById(s, id);
  } catch (e) {
    if (json && isCommplanError(e) && e.code === "BAD_FORMAT")
      printJson(ctx, { format: "commplan.store-get/v1", id, found: true, damaged: inputErrorLine(e, ctx.command) });
    throw e;
  }
}

/**
 * Runs store get: the options checked, the entry's id (`--id`, or `idOf` the matrix file's request) found in the store
 * at `dir`, its plan written; exit 1 when the store has no such entry, 2 when it is damaged.
 */
export async function storeGet(
  dir: string,
  matrixFile: string | undefined,
  o: StoreGetOptions,
  ctx: CliContext,
  idOf: (matrixFile: string) => string,
): Promise<void> {
  if (o.format !== undefined && o.format !== "json" && o.format !== "arrow")
    throw fail("store", "BAD_OPTION", `--format must be json or arrow, got '${o.format}'`, { field: "format" });
  if ((o.id === undefined) === (matrixFile === undefined))
    throw fail("store", "BAD_OPTION", "give either --id or a matrix file (with -a)", { field: "id" });
  if (o.id !== undefined) checkEntryId(o.id, "--id");
  refuseJsonOnStdout("store", o.json, o.output);
  await refuseOutputOntoInput("store", [matrixFile], [["-o", o.output]]);
  const s: PlanStore = openPlanStore(dir);
  const id = o.id ?? idOf(matrixFile!);
  // the entry is an input too: writing onto its own file would destroy it
  await refuseOutputOntoInput("store", [entryFile(s, id)], [["-o", o.output]]);
  // after the inputs' refusals: -o onto the entry is told as that, whatever its extension says
  const format = outputFormat("store", o.format, o.output, scheduleFormatOfName, "json");
  checkEntryMemory(entryFile(s, id), id, ctx.maxMemory);
  const entry = await loadEntryOrReport(s, id, o.json === true, ctx);
  if (entry === null) {
    ctx.io.err(`store get: no entry ${id}\n`);
    ctx.exitCode = 1;
    if (o.json) printJson(ctx, { format: "commplan.store-get/v1", id, found: false });
    return;
  }
  await writeSchedule(entry, o.output, format, ctx);
  const plan = entry.plan;
  if (o.output !== "-")
    ctx.io.err(
      `store get: ${id}: ${oneLine(plan.algorithm)}, P = ${plan.p}, ${counted(plan.transferCount, "transfer", "transfers")}, ${format} -> ${o.output}\n`,
    );
  if (o.json)
    printJson(ctx, {
      format: "commplan.store-get/v1",
      id,
      found: true,
      algorithm: plan.algorithm,
      p: plan.p,
      transfers: plan.transferCount,
      fileFormat: format,
      output: o.output,
      bytes: writtenBytes(o.output),
    });
}

/** Runs `store get DIR --id ID` as its arguments say (storeGetArgv), as commander would run it. */
export async function runStoreGetArgv(a: StoreGetArgv, ctx: CliContext): Promise<void> {
  if (a.maxMemory !== undefined) ctx.maxMemory = memoryOption(a.maxMemory);
  const o = { id: a.id, output: a.output, format: a.format, ...(a.json ? { json: true } : {}) };
  await storeGet(a.dir, undefined, o, ctx, () => a.id);
}
