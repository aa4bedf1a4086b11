/**
 * Store programs: the lowered programs `precompute --from-capture` writes to STORE/programs/<key>/ for libcommplan (a
 * split commplan.program/v1 program and its commplan.libplan/v1 plan.json), checked by `store verify`.
 */
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { isCommplanError } from "../model/errors.js";
import { checkMemory } from "../model/memory-budget.js";
import { memoryBudgetOf } from "../host/memory.js";
import { fsErrorText } from "../io/file-output.js";
import { readJsonDocument } from "../io/json-document-read.js";
import { readProgramJson, splitReadBytes } from "../io/program-json-read.js";
import { aKind, pathKind } from "./store-fs.js";
import { MODULE, partDamage, type PlanStore } from "./store-dir.js";

/** The format of STORE/programs/<key>/plan.json, which libcommplan reads. */
export const LIBPLAN_FORMAT = "commplan.libplan/v1";

/**
 * The largest capture record or plan.json precompute reads (libcommplan writes a few hundred bytes; a record lists its
 * call sites, a plan.json the same): 1 MiB.
 */
export const MAX_CAPTURE_RECORD_BYTES = 1 << 20;

/** A capture key, the name of a program's directory: 32 lowercase hex digits (libcommplan's key.c). */
const CAPTURE_KEY = /^[0-9a-f]{32}$/;

/** The directory of the lowered programs. */
export function programsDir(s: PlanStore): string {
  return join(s.dir, "programs");
}

/** What the store keeps at programs/, as a damaged part names it. */
export const PROGRAMS_PART = "its programs (a directory)";

/**
 * The damage of the store's programs/ when anything but a directory stands there (a file, a link: `gc` removes it as it
 * removes a damaged tmp/; precompute --from-capture refuses the store until then, and makes the directory anew after),
 * or null (a directory, or none).
 */
export function programsDamage(s: PlanStore): { file: string; problem: string } | null {
  return partDamage(programsDir(s), "directory", PROGRAMS_PART, true);
}

/**
 * The leftovers of precompute --from-capture in programs/ (`.<key>.<host>.<pid>.tmp`, the program being written, and
 * `.<key>.<host>.<pid>.old`, the one it replaces, moved aside): their paths, keys and writers, the temporary files
 * of the programs as tmp/ holds the entries'.
 */
export function programTemps(
  s: PlanStore,
): { file: string; key: string; host: string; pid: number; movedAside: boolean }[] {
  const dir = programsDir(s);
  if (pathKind(dir) !== "directory") return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // verifyPrograms names a programs/ that does not list
  }
  const out: { file: string; key: string; host: string; pid: number; movedAside: boolean }[] = [];
  for (const n of names) {
    const m = /^\.([0-9a-f]{32})\.(.+)\.(\d+)\.(tmp|old)$/.exec(n);
    if (m !== null)
      out.push({ file: join(dir, n), key: m[1]!, host: m[2]!, pid: Number(m[3]), movedAside: m[4] === "old" });
  }
  return out;
}

/** A program directory of the store that libcommplan could not replay as it is: its key, the file, the problem. */
export interface ProgramDamage {
  /** The directory's name (a capture key, or what stands in programs/ instead). */
  readonly key: string;
  /** The file or directory at fault (a rank file that does not read, plan.json, the directory). */
  readonly file: string;
  readonly problem: string;
}

/** What verifyPrograms found: the program directories checked, the damaged ones, the ones past the memory budget. */
export interface ProgramsReport {
  readonly programs: number;
  readonly damaged: readonly ProgramDamage[];
  /** The programs not checked, too big to read within the memory budget (the problem: the budget's message). */
  readonly unchecked: readonly ProgramDamage[];
}

/**
 * Checks every program directory of the store: each entry of programs/ (but the hidden ones a running precompute
 * writes, `.<key>.*.tmp` and `.old`) is a directory named by a capture key, whose plan.json is a commplan.libplan/v1
 * record for that key, and whose split program reads (index.json and every rank file, read whole and checked as every
 * program reader does) for the record's P and element size. A program past the memory budget (`opts.maxMemory`, else
 * the default budget) is not read: it is listed in `unchecked`, not counted as damage, and nothing is thrown. A store
 * without programs/ has none.
 */
export function verifyPrograms(s: PlanStore, opts: { readonly maxMemory?: number } = {}): ProgramsReport {
  const maxMemory = memoryBudgetOf(opts);
  const dir = programsDir(s);
  const kind = pathKind(dir);
  // anything but a directory at programs/ is a damaged part of the store (programsDamage), not a damaged program
  if (kind !== "directory") return { programs: 0, damaged: [], unchecked: [] };
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => !n.startsWith("."))
      .sort();
  } catch (e) {
    return { programs: 0, damaged: [{ key: "", file: dir, problem: fsErrorText(e, false) }], unchecked: [] };
  }
  const damaged: ProgramDamage[] = [],
    unchecked: ProgramDamage[] = [];
  for (const key of names) {
    const problem = programProblem(join(dir, key), key, maxMemory);
    // past the memory budget: reported apart, not thrown, so a report is always made
    if (problem !== null)
      (problem.tooBig ? unchecked : damaged).push({ key, file: problem.file, problem: problem.problem });
  }
  return { programs: names.length, damaged, unchecked };
}

/** The capture a program directory must serve (precompute's pattern): its P, element size and call kinds. */
export interface ProgramFor {
  readonly p: number;
  readonly elementBytes: number;
  readonly kinds: readonly string[];
}

/**
 * What is wrong with a program directory: the file at fault and the problem (as `store verify` names them), and the
 * same in the words precompute puts after "planned for ..., but" (`its program does not read (...)`).
 */
export interface ProgramProblem {
  readonly file: string;
  readonly problem: string;
  readonly flaw: string;
  /** Not checked, past the memory budget: the problem is the budget's message (not damage; verify lists it apart). */
  readonly tooBig?: true;
}

/**
 * What is wrong with the program directory `dir` named `key`, or null: the one soundness check `store verify` and
 * `precompute --from-capture` share, so a program verify flags is one precompute plans again. It is a directory named
 * by a capture key that lists; its plan.json is a commplan.libplan/v1 record for that key; its split program reads
 * (index.json and every rank file, read whole and checked as every program reader does) for the record's P and element
 * size; and, given the capture `pattern` (precompute), the record is for the capture's P and element size and lists
 * each of its call kinds. A program past the memory budget (`maxMemory`) is not read: its problem says so (`tooBig`).
 */
export function programProblem(
  dir: string,
  key: string,
  maxMemory: number,
  pattern?: ProgramFor,
): ProgramProblem | null {
  const kind = pathKind(dir);
  if (kind !== "directory")
    return {
      file: dir,
      problem: `${aKind(kind)} where the store keeps a program (a directory)`,
      flaw: "not a directory",
    };
  if (!CAPTURE_KEY.test(key)) {
    const problem = "not a program of the store: its name is not a capture key (32 hex digits)";
    return { file: dir, problem, flaw: problem };
  }
  const planFile = join(dir, "plan.json");
  const planSays = (problem: string): ProgramProblem => ({
    file: planFile,
    problem,
    flaw: `its plan.json: ${problem}`,
  });
  let rec: Record<string, unknown>;
  try {
    const v = readJsonDocument(planFile, MAX_CAPTURE_RECORD_BYTES, MODULE, "a plan.json");
    if (v === null || typeof v !== "object" || Array.isArray(v)) return planSays("not an object");
    rec = v as Record<string, unknown>;
  } catch (e) {
    return planSays(messageOf(e));
  }
  if (rec["format"] !== LIBPLAN_FORMAT) return planSays(`/format is not '${LIBPLAN_FORMAT}'`);
  if (rec["key"] !== key) return planSays(`/key is not its directory's name, ${key}`);
  // what precompute --from-capture reports of a program it keeps (its --json document's plan): strings, as written
  for (const f of ["algorithm", "entry", "reason"] as const)
    if (typeof rec[f] !== "string" || rec[f] === "") return planSays(`/${f} is not a non-empty string`);
  if (pattern !== undefined && (rec["p"] !== pattern.p || rec["elementBytes"] !== pattern.elementBytes))
    return planSays(
      `/p and /elementBytes are ${String(rec["p"])} and ${String(rec["elementBytes"])}, not the capture's ${pattern.p} and ${pattern.elementBytes}`,
    );
  let readBytes: number;
  try {
    readBytes = programReadBytes(dir);
  } catch (e) {
    // a directory it can enter but not list (mode 311): damage named by the directory, as one it cannot enter is
    const problem = `cannot list its files: ${fsErrorText(e, false)}`;
    return { file: dir, problem, flaw: `its directory ${problem}` };
  }
  try {
    checkMemory(MODULE, readBytes, `reading the program in ${dir}`, maxMemory, { file: dir });
  } catch (e) {
    const problem = `not checked: ${messageOf(e)}`;
    return { file: dir, problem, flaw: `its program was ${problem}`, tooBig: true };
  }
  try {
    const { program } = readProgramJson(dir, { maxMemory });
    if (program.p !== rec["p"] || program.elementBytes !== rec["elementBytes"]) {
      const problem = `its program is for p ${program.p} and elementBytes ${program.elementBytes}, its plan.json says p ${String(rec["p"])} and elementBytes ${String(rec["elementBytes"])}`;
      return { file: planFile, problem, flaw: problem };
    }
  } catch (e) {
    const file = (isCommplanError(e) ? e.place.file : undefined) ?? dir;
    const whole = isCommplanError(e) ? e.message : String(e);
    return { file, problem: messageOf(e), flaw: `its program does not read (${whole})` };
  }
  if (pattern === undefined) return null;
  const listed = Array.isArray(rec["kinds"]) ? (rec["kinds"] as unknown[]) : [rec["call"]];
  const missing = pattern.kinds.filter((k) => !listed.includes(k));
  if (missing.length === 0) return null;
  return {
    file: planFile,
    problem: `/kinds does not list ${missing.join(" and ")}`,
    flaw: `its plan.json is not for ${missing.join(" and ")}`,
  };
}

/** The memory reading the split program in `dir` takes (splitReadBytes over its files' sizes). */
function programReadBytes(dir: string): number {
  let ranks = 0,
    bytes = 0,
    largest = 0;
  for (const n of readdirSync(dir)) {
    const size = lstatSync(join(dir, n), { throwIfNoEntry: false })?.size ?? 0;
    if (/^rank-\d+\.json$/.test(n)) ranks++;
    bytes += size;
    largest = Math.max(largest, size);
  }
  return splitReadBytes(ranks, bytes, largest);
}

/** An error's message without the "program: FILE: " a damage line puts before it ("line 9: ..." kept). */
function messageOf(e: unknown): string {
  if (!isCommplanError(e)) return String(e);
  const file = e.place.file;
  const at = file === undefined ? -1 : e.message.indexOf(file);
  if (at < 0) return e.message;
  const rest = e.message.slice(at + file!.length);
  return rest.startsWith(": ") ? rest.slice(2) : rest.startsWith(":") ? rest.slice(1) : e.message;
}
