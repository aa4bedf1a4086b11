/**
 * commplan store: add, get, list, verify and gc entries of a plan store (a directory of sealed Arrow plans keyed by
 * content).
 */
import { lstatSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { checkMemory } from "../../model/memory-budget.js";
import { oneLine } from "../../internal/quoted.js";
import { didYouMean } from "../../internal/did-you-mean.js";
import type { Command } from "commander";
import { MAX_SEED } from "../../model/param-spec.js";
import { fail } from "../../model/errors.js";
import { findMachine } from "../../machines/presets.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { PLANNERS } from "../../planner/registry.js";
import {
  addPlan,
  gcStore,
  getPlanById,
  listPlans,
  openPlanStore,
  planForRequest,
  resolveStoreRequest,
  verifyStore,
} from "../../store/index.js";
import type { PlanStore, ResolvedRequest, StoreEntryInfo, StoreOrigin, StoreReport } from "../../store/index.js";
import { programsDamage } from "../../store/store-programs.js";
import { storeDamage } from "../../store/plan-store.js";
import { gcFailedText } from "./store-gc-failed.js";
import { checkNewStoreDirectory, entryFile, existingPlanStore } from "../../store/store-dir.js";
import type { CliContext } from "../context.js";
import { cliMessage } from "../option-flags.js";
import { isSubCommand, subCommandError } from "../sub-command.js";
import { checkAlgorithmName } from "../algorithm-name.js";
import { checkStorePlanMemory } from "../plan-bytes.js";
import { fmt, intOption, keyValues, matrixReadOptions, RANKS_FLAGS, refuseDashDirectory, table } from "../io.js";
import { machineOptionHelp, planRequestOptions } from "./lists.js";
import { counted } from "../../internal/plural.js";
import { JSON_SUMMARY_HELP, printJson } from "./json-summary.js";
import { ENTRY_BYTES_PER_BYTE, entrySize, storeGet, type StoreGetOptions } from "./store-get.js";

interface RequestOpts {
  algorithm: string;
  machine?: string;
  payload?: boolean;
  seed: string;
  param: string[];
  elementBytes?: string;
  json?: boolean;
}

/** The request options shared by add and get. */
function requestOptions(c: Command): Command {
  return planRequestOptions(
    c.option(
      "-a, --algorithm <name>",
      `planning algorithm (needed with a matrix): ${PLANNERS.map((p) => p.name).join(", ")}; or auto, auto's pick for --machine (plan --algorithm auto without --network: blocking, on the machine's topology)`,
    ),
    {
      machine: `${machineOptionHelp()}; auto needs it (the machine it chooses for, part of the key)`,
      payload: "element-level plan",
      seed: "random seed",
    },
  );
}

function resolveRequest(
  matrixFile: string,
  o: RequestOpts,
  maxMemory: number,
): { m: ReturnType<typeof readMatrixFile>; r: ResolvedRequest } {
  if (o.algorithm === undefined)
    throw fail("store", "BAD_OPTION", "give -a ALGORITHM with the matrix", { field: "algorithm" });
  checkAlgorithmName("store", o.algorithm);
  const m = readMatrixFile(matrixFile, matrixReadOptions(o, maxMemory));
  const r = resolveStoreRequest(m, o.algorithm, {
    payload: Boolean(o.payload),
    seed: intOption("seed", o.seed, 0, MAX_SEED),
    machine: o.machine === undefined ? null : findMachine(o.machine),
    params: keyValues("param", o.param),
    maxMemory,
  });
  return { m, r };
}

/** The request options by attribute and flag: they find an entry from a matrix, so --id (the entry) takes none. */
const REQUEST_FLAGS: readonly (readonly [keyof RequestOpts, string])[] = [
  ["algorithm", "-a"],
  ["machine", "--machine"],
  ["payload", "--payload"],
  ["seed", "--seed"],
  ["param", "--param"],
  ["elementBytes", "--element-bytes"],
];

/** Refuses a request option given with --id, which names the entry itself (the option would be ignored). */
function refuseRequestWithId(cmd: Command): void {
  for (const [key, flag] of REQUEST_FLAGS) {
    if (cmd.getOptionValueSource(key) === "cli")
      throw fail(
        "store",
        "BAD_OPTION",
        `${flag} goes with a matrix file (the request that finds the entry), not with --id (the entry itself)`,
        { field: key },
      );
  }
}

/**
 * Says that programs/ is damaged (a file or a link there), as list does, and goes on: add writes an entry, never a
 * program, so the damage does not stand in its way (precompute --from-capture, which writes programs, refuses it).
 */
function warnProgramsDamage(s: PlanStore, ctx: CliContext): void {
  const bad = programsDamage(s);
  if (bad !== null)
    ctx.io.err(
      `store add: ${oneLine(bad.file)}: ${oneLine(bad.problem)}: add goes on (it writes entries, never a program); 'commplan store gc' repairs it\n`,
    );
}

function registerAddGet(store: Command, ctx: CliContext): void {
  requestOptions(
    store
      .command("add")
      .description("plan a matrix and add the plan to the store (nothing is planned when the entry is present)")
      .argument("<dir>", "the store directory (created when missing)")
      .argument("<matrix>", "matrix file (JSON, CSV or Matrix Market); - for stdin"),
  )
    .option("--json", "print the entry's id and whether it was added as commplan.store-add/v1 JSON")
    .action((dir: string, matrixFile: string, o: RequestOpts) => {
      refuseDashDirectory("store", "the store directory", dir, "dir");
      // the matrix read (and the request checked) before the store is made: a missing, empty or bad matrix leaves no
      // new directory behind
      const { m, r } = resolveRequest(matrixFile, o, ctx.maxMemory);
      const added = (status: "added" | "present", byAnotherWriter: boolean): void =>
        o.json
          ? printJson(ctx, { format: "commplan.store-add/v1", id: r.id, status, byAnotherWriter })
          : ctx.io.out(`${r.id}\n`);
      // an existing store is looked into without making anything; a new one is made only once the plan is made, so
      // a plan the memory check or the planner refuses leaves no new directory behind either
      const existing = existingPlanStore(dir);
      // a directory that cannot become a store is refused before planning, which can take seconds at large P
      if (existing === null) checkNewStoreDirectory(dir);
      else warnProgramsDamage(existing, ctx);
      if (existing !== null && getPlanById(existing, r.id) !== null) {
        ctx.io.err(`store add: ${r.id} present\n`);
        added("present", false);
        return;
      }
      checkStorePlanMemory("store", m, r.key.algorithm, r.key.payload, ctx.maxMemory, { file: matrixFile });
      const plan = planForRequest(m, r);
      const s = existing ?? openPlanStore(dir, true);
      const res = addPlan(s, r.key, plan, { matrixFile: basename(matrixFile), p: m.p });
      ctx.io.err(`store add: ${r.id} ${res.written ? "added" : "present (added by another writer)"}\n`);
      added(res.written ? "added" : "present", !res.written);
    });
  requestOptions(
    store
      .command("get")
      .description("write a stored plan (by --id, or by matrix and request); exit 1 when absent, 2 when damaged")
      .argument("<dir>", "the store directory")
      .argument("[matrix]", "matrix file the plan was made for (with -a and the request options); - for stdin"),
  )
    .option("--id <id>", "the entry's id (as 'store list' prints it)")
    .option("-o, --output <file>", "output file (- for stdout: JSON only)", "-")
    .option(
      "-f, --format <f>",
      "json (commplan.schedule/v1) or arrow; default: from the output file's extension, else json",
    )
    .option("--json", JSON_SUMMARY_HELP)
    .action(async (dir: string, matrixFile: string | undefined, o: RequestOpts & StoreGetOptions, cmd: Command) => {
      if (o.id !== undefined) refuseRequestWithId(cmd);
      await storeGet(dir, matrixFile, o, ctx, (file) => resolveRequest(file, o, ctx.maxMemory).r.id);
    });
}

/**
 * An entry's origin as one cell: `pattern(seed=S,k=v,...)` or `file:NAME`; empty for an entry written without one. The
 * pattern's P is the entry's own (the P column). Kept on one line (oneLine): the name is whatever file name the writer
 * gave, newlines and terminal escapes included, and the store may be another user's.
 */
function originText(o: StoreOrigin | null): string {
  if (o === null) return "";
  if ("matrixFile" in o) return oneLine(`file:${o.matrixFile}`);
  const opts = Object.entries(o.options).map(([k, v]) => `,${k}=${v}`);
  return oneLine(`${o.pattern}(seed=${o.seed}${opts.join("")})`);
}

/** "directory" when `path` is one (not through a link), else "other". */
function pathKindOf(path: string): "directory" | "other" {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true ? "directory" : "other";
}

/**
 * Refuses, before any entry is read, a store whose largest entry the budget cannot hold (`perByte` bytes of memory
 * per byte of the file: verify and gc hold the bytes and the decoded columns); entries are read one at a time.
 */
function checkLargestEntry(s: PlanStore, perByte: number, maxMemory: number): void {
  const top = dirname(dirname(entryFile(s, "0".repeat(64))));
  let largest = { size: 0, file: "" };
  for (const pre of readdirSync(top, { withFileTypes: true })) {
    if (!pre.isDirectory() || !/^[0-9a-f]{2}$/.test(pre.name)) continue; // a stray is damage, never read
    for (const n of readdirSync(join(top, pre.name), { withFileTypes: true })) {
      if (!n.isFile() || !/^[0-9a-f]{64}\.arrow$/.test(n.name)) continue;
      const file = join(top, pre.name, n.name);
      const size = entrySize(file);
      if (size > largest.size) largest = { size, file };
    }
  }
  if (largest.size > 0)
    checkMemory("store", perByte * largest.size, `reading the ${largest.size}-byte entry`, maxMemory, {
      file: largest.file,
    });
}

/** A program directory as a damage line names it: by its key (or as the programs directory itself). */
const programName = (key: string): string => (key === "" ? "the programs directory" : `program ${oneLine(key)}`);

/**
 * The end of verify's summary: consistent, or what repairs the damage: gc for entries and parts; a damaged program
 * (which gc leaves alone) is written anew by precompute --from-capture from its captures.
 */
function verdict(rep: StoreReport): string {
  const gc = rep.damaged.length + rep.parts.length > 0;
  const programs = rep.damagedPrograms.length > 0;
  const unchecked = rep.uncheckedPrograms.length > 0;
  if (!gc && !programs && !unchecked) return "- consistent";
  const rewrite = "run 'commplan precompute --from-capture' again to write the damaged programs anew";
  const todo = [
    ...(gc ? ["run 'commplan store gc'"] : []),
    ...(programs ? [rewrite] : []),
    ...(unchecked ? ["give a larger --max-memory to check the programs not checked"] : []),
  ];
  return `- ${todo.join("; ")}`;
}

/**
 * An entry's planner parameters as list shows them: the key's (resolved: defaults filled), `k=v` joined by commas, on
 * one line (a hostile store's key may hold any text); empty for a planner of none or a damaged entry.
 */
function paramsText(e: StoreEntryInfo): string {
  if (e.key === null) return "";
  return oneLine(
    Object.entries(e.key.params)
      .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(","),
  );
}

/** An entry's algorithm as list shows it: the key's, with auto's pick beside it ("auto (coloring)"), or DAMAGED. */
function algorithmText(e: StoreEntryInfo): string {
  if (e.key === null) return "DAMAGED";
  const a = e.key.algorithm;
  return e.planned === null || e.planned === a ? a : `${a} (${oneLine(e.planned)})`;
}

/** The filters of store list, as given. */
interface ListFilters {
  algorithm?: string;
  ranks?: string;
  seed?: string;
  machine?: string;
  pattern?: string;
}

/**
 * Whether an entry passes list's filters (checked once, before any entry is read); a damaged entry, whose key is not
 * known, always does: a filter never hides damage.
 */
function listFilter(o: ListFilters): (e: StoreEntryInfo) => boolean {
  if (o.algorithm !== undefined) checkAlgorithmName("store", o.algorithm);
  const p = o.ranks === undefined ? undefined : intOption("ranks", o.ranks, 1, Number.MAX_SAFE_INTEGER, RANKS_FLAGS);
  const seed = o.seed === undefined ? undefined : intOption("seed", o.seed, 0, MAX_SEED);
  const machine = o.machine === undefined ? undefined : findMachine(o.machine).name;
  return (e) => {
    const k = e.key;
    if (k === null) return true;
    const from = originName(e);
    return (
      (o.algorithm === undefined || k.algorithm === o.algorithm) &&
      (p === undefined || k.p === p) &&
      (seed === undefined || k.seed === seed) &&
      (machine === undefined || k.machine?.["name"] === machine) &&
      (o.pattern === undefined || from === o.pattern)
    );
  };
}

/** The name `--pattern` matches in an entry: its origin's pattern, or the matrix file's name of store add. */
function originName(e: StoreEntryInfo): string | null {
  return e.origin === null ? null : "matrixFile" in e.origin ? e.origin.matrixFile : e.origin.pattern;
}

/**
 * The line list prints on stderr when filters are given and no entry (with a key: a damaged one is always listed)
 * passes them, naming the filters; for a `--pattern` no entry has, the origins the store holds and the nearest of
 * them (a pattern also matches a matrix file's name, so a typo cannot be refused up front). Null when some entry passes
 * or no filter is given: an empty result is not an error (exit 0).
 */
function noMatchLine(o: ListFilters, all: readonly StoreEntryInfo[], kept: readonly StoreEntryInfo[]): string | null {
  const given = (["algorithm", "ranks", "seed", "machine", "pattern"] as const).filter((f) => o[f] !== undefined);
  if (given.length === 0 || kept.some((e) => e.key !== null)) return null;
  const flags = given.map((f) => `--${f} ${oneLine(o[f]!)}`).join(" ");
  const intact = all.filter((e) => e.key !== null);
  let why = intact.length === 0 ? " (the store holds no entry)" : "";
  if (o.pattern !== undefined && intact.length > 0 && !intact.some((e) => originName(e) === o.pattern)) {
    const names = [...new Set(intact.map(originName).filter((n) => n !== null))].sort();
    const shown =
      names.length > 10 ? `${names.slice(0, 10).join(", ")} and ${names.length - 10} more` : names.join(", ");
    const near = didYouMean(o.pattern, names).replace(/^ \((.*)\)$/, "; $1");
    why =
      names.length === 0
        ? " (no entry in this store records its origin)"
        : ` (origins in this store: ${oneLine(shown)}${oneLine(near)})`;
  }
  return `store list: no entry matches ${flags}${why}\n`;
}

/** The largest entry checked against the budget before any is read (`perByte`: what a command holds per file byte). */
function checkStoreBudget(s: PlanStore, perByte: number, ctx: CliContext): void {
  if (pathKindOf(dirname(dirname(entryFile(s, "0".repeat(64))))) === "directory")
    checkLargestEntry(s, perByte, ctx.maxMemory);
}

function registerList(store: Command, ctx: CliContext): void {
  store
    .command("list")
    .description(
      "list the entries (by id; the filters keep those that match all of them, and every damaged one): id, algorithm (auto's pick beside auto: auto (coloring)), P, seed, payload, machine, bytes, created (damaged ones marked), origin: the pattern with its seed and options (precompute) or the matrix file's name (add), the planner's parameters (defaults filled) and the element bytes",
    )
    .argument("<dir>", "the store directory")
    .option("--json", "print the entries and the damaged parts as one commplan.store-list/v1 JSON document")
    .option("-a, --algorithm <name>", "only the entries of this algorithm (auto: auto's picks)")
    .option("--p, --ranks <n>", "only the entries of this P (spelt as gen and demo spell it)")
    .option("--seed <s>", "only the entries of this seed")
    .option("--machine <name>", "only the entries keyed with this machine (rs-nh, split-coloring and auto's)")
    .option(
      "--pattern <name>",
      "only the entries of this origin: a pattern's name (precompute) or a matrix file's (add)",
    )
    .action((dir: string, o: { json?: boolean } & ListFilters) => {
      const keep = listFilter(o);
      const s = openPlanStore(dir); // no budget to check: list reads each entry in 1 MiB pieces, never whole
      const damage = storeDamage(s);
      for (const d of damage) ctx.io.err(`store list: ${oneLine(d.file)}: ${oneLine(d.problem)}\n`);
      const all = listPlans(s);
      const entries = all.filter(keep);
      const none = noMatchLine(o, all, entries);
      if (none !== null) ctx.io.err(none);
      if (o.json) return printJson(ctx, { format: "commplan.store-list/v1", entries, damage });
      const rows = entries.map((e) => [
        e.id, // whole: 'store get --id' takes it as printed
        algorithmText(e),
        e.key === null ? "" : String(e.key.p),
        e.key === null ? "" : String(e.key.seed),
        e.key === null ? "" : e.key.payload ? "yes" : "no",
        e.key?.machine === null || e.key === null ? "" : String(e.key.machine["name"]),
        fmt(e.bytes),
        e.created?.time ?? e.problem ?? "",
        originText(e.origin),
        paramsText(e),
        e.key === null ? "" : String(e.key.elementBytes),
      ]);
      ctx.io.out(
        table(
          [
            [
              ...["id", "algorithm", "P", "seed", "payload", "machine", "bytes", "created", "origin"],
              ...["params", "element bytes"],
            ],
            ...rows,
          ],
          ctx.io.stdoutColumns,
        ),
      );
    });
}

function registerMaintenance(store: Command, ctx: CliContext): void {
  registerList(store, ctx);
  store
    .command("verify")
    .description(
      "check every entry (checksum, key, columns) and every program precompute --from-capture lowered into programs/; exit 1 naming each damaged one",
    )
    .argument("<dir>", "the store directory")
    .option("--json", "print the counts and the damaged entries, parts and programs as commplan.store-verify/v1 JSON")
    .action((dir: string, o: { json?: boolean }) => {
      const s = openPlanStore(dir);
      checkStoreBudget(s, ENTRY_BYTES_PER_BYTE, ctx);
      const rep = verifyStore(s, { maxMemory: ctx.maxMemory });
      for (const d of rep.parts) ctx.io.err(`store verify: ${oneLine(d.file)}: ${oneLine(d.problem)}\n`);
      for (const d of rep.damaged)
        ctx.io.err(`store verify: ${oneLine(d.file)}: entry ${d.id} is damaged: ${oneLine(String(d.problem))}\n`);
      for (const d of rep.damagedPrograms)
        ctx.io.err(`store verify: ${oneLine(d.file)}: ${programName(d.key)} is damaged: ${oneLine(d.problem)}\n`);
      // the budget's message names the command line's flag (--max-memory), as a refusal of the whole store does
      const unchecked = rep.uncheckedPrograms.map((d) => ({ ...d, problem: cliMessage(d.problem) }));
      for (const d of unchecked)
        ctx.io.err(`store verify: ${oneLine(d.file)}: ${programName(d.key)} was ${oneLine(d.problem)}\n`);
      // a program past the memory budget is not damage, but the store is not known consistent either: exit 1
      const bad = rep.damaged.length + rep.parts.length + rep.damagedPrograms.length + rep.uncheckedPrograms.length;
      if (o.json) {
        if (bad > 0) ctx.exitCode = 1;
        return printJson(ctx, {
          format: "commplan.store-verify/v1",
          consistent: bad === 0,
          entries: rep.entries,
          temps: rep.temps,
          damaged: rep.damaged.map((d) => ({ id: d.id, file: d.file, problem: d.problem })),
          parts: rep.parts,
          programs: rep.programs,
          damagedPrograms: rep.damagedPrograms,
          uncheckedPrograms: unchecked,
        });
      }
      // the damaged parts (tmp, log, a misplaced file) apart from the entries, as --json keeps them apart
      const parts = rep.parts.length === 0 ? "" : `, ${counted(rep.parts.length, "damaged part", "damaged parts")}`;
      // programs only when the store has any (precompute --from-capture's), so a store of entries reads as before
      const programs =
        rep.programs + rep.damagedPrograms.length === 0
          ? ""
          : `, ${counted(rep.programs, "program", "programs")} (${rep.damagedPrograms.length} damaged${rep.uncheckedPrograms.length === 0 ? "" : `, ${rep.uncheckedPrograms.length} not checked`})`;
      ctx.io.out(
        `store verify: ${counted(rep.entries, "entry", "entries")}, ${rep.damaged.length} damaged${parts}${programs}, ${counted(rep.temps, "temporary file", "temporary files")} ${verdict(rep)}\n`,
      );
      if (bad > 0) ctx.exitCode = 1;
    });
  store
    .command("gc")
    .description(
      "remove abandoned temporary files (their writer is gone), damaged entries and damaged parts (--dry-run: list them)",
    )
    .argument("<dir>", "the store directory")
    .option("--json", "print what was removed as commplan.store-gc/v1 JSON")
    .option("--dry-run", "remove nothing: say what would be removed now")
    .action((dir: string, o: { json?: boolean; dryRun?: boolean }) => {
      const s = openPlanStore(dir);
      // gc decodes every entry, as verify does, to find the damaged ones
      checkStoreBudget(s, ENTRY_BYTES_PER_BYTE, ctx);
      const dry = o.dryRun === true;
      const r = gcStore(s, dry);
      const removed = dry ? "would remove" : "removed";
      for (const d of r.parts) ctx.io.err(`store gc: ${removed} ${oneLine(d.file)} (${oneLine(d.problem)})\n`);
      for (const id of r.damaged) ctx.io.err(`store gc: ${removed} damaged entry ${id}\n`);
      // what could not be removed, after what was: the store's state is both
      for (const f of r.failed) ctx.io.err(`store gc: ${oneLine(f.file)}: ${oneLine(f.problem)}\n`);
      if (o.json)
        printJson(ctx, {
          format: "commplan.store-gc/v1",
          ...(dry ? { dryRun: true } : {}),
          temps: r.temps,
          damaged: r.damaged,
          parts: r.parts,
          ...(r.failed.length > 0 ? { failed: r.failed } : {}),
        });
      const temps = counted(r.temps, "temporary file", "temporary files");
      const entries = counted(r.damaged.length, "damaged entry", "damaged entries");
      const parts = counted(r.parts.length, "damaged part", "damaged parts");
      const summary = `${removed} ${r.parts.length === 0 ? temps : `${parts}, ${temps}`} and ${entries}`;
      // the line starts "store gc: " (the command's name), so it says "removed", not "gc removed"
      if (r.failed.length > 0) throw fail("store", "IO", `${summary}, but ${gcFailedText(r.failed)} (named above)`);
      if (!o.json) ctx.io.out(`store gc: ${summary}\n`);
    });
}

/** Registers `store` and its sub-commands. */
export function registerStore(program: Command, ctx: CliContext): void {
  const store = program
    .command("store")
    .description(
      "a plan store: a directory of checksummed Arrow plans keyed by matrix, algorithm, parameters, machine",
    );
  registerAddGet(store, ctx);
  registerMaintenance(store, ctx);
  // alone, one line (as the bare commplan), not the whole help
  store.allowExcessArguments(true).action(() => {
    const word = store.args[0];
    // 'store help [sub]' is commander's own help, which an action of the parent takes over
    if (word === "help") {
      const sub = store.args[1];
      if (sub !== undefined && !isSubCommand(store, sub)) throw subCommandError(store, sub);
      (store.commands.find((c) => c.name() === sub) ?? store).help();
    }
    throw subCommandError(store, word);
  });
}
