/**
 * precompute --from-capture: every count matrix libcommplan captured (DIR/*.capture.json and its matrix) planned by
 * auto for a machine (and an MPI runtime model, or the papers' one-port model), kept in the store, lowered in the
 * program variant auto names, and written for libcommplan's replay as STORE/programs/<key>/ (a split
 * commplan.program/v1 program and plan.json, a commplan.libplan/v1 record saying whether to replay it).
 */
import { cliMessage } from "./option-flags.js";
import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fail, isCommplanError } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { NetworkRoutes } from "../model/network.js";
import type { PortSharing } from "../machines/sim/options.js";
import type { ProgramVariant } from "../model/program.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import { canonicalJson } from "../io/canonical-json.js";
import { fsError } from "../io/file-output.js";
import { readJsonDocument } from "../io/json-document-read.js";
import { readMatrixFile } from "../io/matrix-read.js";
import { writeProgramSplit } from "../io/program-json-write.js";
import { hasMessages, NO_MESSAGES_REASON, planAuto, type AutoReport } from "../auto/index.js";
import { lowerSchedule } from "../lower/index.js";
import { RUNTIME_MODELS, type RuntimeModel } from "../machines/runtime/runtime-model.js";
import { plan } from "../planner/registry.js";
import { addPlan, getPlanById, openPlanStore, resolveStoreRequest } from "../store/index.js";
import { LIBPLAN_FORMAT, MAX_CAPTURE_RECORD_BYTES, programProblem } from "../store/store-programs.js";
import { captureKey } from "./capture-key.js";

const MODULE = "precompute";
const CAPTURE_FORMAT = "commplan.capture/v1";
/** The format of STORE/programs/<key>/plan.json, and the largest capture record or plan.json read (src/store). */
export { LIBPLAN_FORMAT, MAX_CAPTURE_RECORD_BYTES };

/** One captured pattern (the records of one key merged: calls summed, call sites and call kinds listed). */
export interface CapturedPattern {
  readonly key: string;
  /** The record's P and element size (its matrix must have them: checkCapture). */
  readonly p: number;
  readonly elementBytes: number;
  /** The first record's call. */
  readonly call: string;
  /** Every record's call, each once, sorted (MPI_Alltoall and MPI_Alltoallv may share a count matrix). */
  readonly kinds: readonly string[];
  readonly sites: readonly string[];
  readonly calls: number;
  readonly matrixFile: string;
  readonly files: readonly string[];
}

/** What precompute did with a captured pattern. */
export interface CaptureOutcome {
  readonly pattern: CapturedPattern;
  /** added: planned anew; present: planned before for the same target; replaced: planned before for another. */
  readonly status: "added" | "present" | "replaced";
  /** What the replaced program was planned for (replaced only). */
  readonly was?: string;
  /**
   * Why it was replaced (replaced only): planned for another target, or damaged (no plan.json or an unreadable one, a
   * program that does not read or is for another P or element size, a plan.json for fewer call kinds).
   */
  readonly replacedBecause?: "another target" | "damaged";
  readonly algorithm: string;
  /** The program variant written (nonblocking, or the one auto names on a runtime). */
  readonly variant: ProgramVariant;
  readonly replay: boolean;
  readonly reason: string;
  /** Whether the plan was made with payload chunks (a plan that relays). */
  readonly payload: boolean;
  /** The plan's id in the store. */
  readonly entry: string;
  /** The predicted makespans (us) of the plan and of MPI_Alltoallv's default run as the library runs it (or null). */
  readonly planUs: number | null;
  readonly libraryUs: number | null;
  /** Percent of the default's makespan the plan saves (auto's verdict), or null: unknown (or not in plan.json). */
  readonly gain: number | null;
}

/** What auto plans the captures for: a machine, and the MPI runtime model it runs on (null: one-port model). */
export interface CaptureTarget {
  readonly machine: MachineModel;
  readonly runtime: RuntimeModel | null;
  readonly maxMemory: number;
  /** The network auto plans on (--network: its spec, its routes for p ranks), or none: the machine's flat cluster. */
  readonly network?:
    | {
        readonly spec: string;
        /** --port-sharing (serial when not given). */
        readonly portSharing: PortSharing;
        readonly routes: (p: number) => { network: NetworkRoutes | null; portSharing: PortSharing };
      }
    | undefined;
}

/**
 * The runtime model precompute --from-capture plans for by default: the one made for the machine (ib-hdr-200-mpi for
 * ib-hdr-200), else SMPI's plain one (`smpi`), the machine's links with every message in flight at once.
 */
export function defaultCaptureRuntime(machine: MachineModel): RuntimeModel {
  return RUNTIME_MODELS.find((r) => r.machine === machine.name) ?? RUNTIME_MODELS.find((r) => r.machine === "")!;
}

function field<T>(rec: Record<string, unknown>, name: string, ok: (v: unknown) => v is T, file: string): T {
  const v = rec[name];
  if (!ok(v))
    throw fail(MODULE, "BAD_INPUT", `a ${CAPTURE_FORMAT} record needs a valid '${name}'`, { file, field: name });
  return v;
}

/**
 * A capture record's (or a plan.json's) JSON value, read as every whole-document reader reads its document: at most
 * MAX_CAPTURE_RECORD_BYTES (readBounded: a FIFO or a device such as /dev/zero is refused once past it, not read until
 * memory runs out), UTF-8, a byte-order mark skipped, a syntax error or a key given twice refused; every problem is one
 * line naming the file.
 */
function readCaptureDocument(file: string, what: string): unknown {
  return readJsonDocument(file, MAX_CAPTURE_RECORD_BYTES, MODULE, what);
}

const isString = (v: unknown): v is string => typeof v === "string";
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isPositive = (v: unknown): v is number => isCount(v) && v > 0;

/** Reads DIR's capture records (sorted by file name), merged by key. */
export function readCaptures(dir: string): CapturedPattern[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".capture.json"))
      .sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOTDIR" && existsSync(dir))
      throw fail(MODULE, "BAD_INPUT", "is a file, not a capture directory (give the COMMPLAN_CAPTURE directory)", {
        file: dir,
      });
    throw fsError(e, MODULE, dir, false);
  }
  if (names.length === 0)
    throw fail(MODULE, "BAD_INPUT", "no *.capture.json records (run the program with COMMPLAN_CAPTURE=DIR)", {
      file: dir,
    });
  const byKey = new Map<string, CapturedPattern>();
  for (const n of names) {
    const file = join(dir, n);
    const rec = readCaptureDocument(file, "a capture record") as Record<string, unknown>;
    if (rec === null || typeof rec !== "object" || rec["format"] !== CAPTURE_FORMAT)
      throw fail(MODULE, "BAD_INPUT", `/format is not '${CAPTURE_FORMAT}'`, { file });
    const key = field(rec, "key", (v): v is string => isString(v) && /^[0-9a-f]{32}$/.test(v), file);
    const matrix = field(rec, "matrix", (v): v is string => isString(v) && /^[^/\\]+$/.test(v) && v !== "..", file);
    const call = field(rec, "call", isString, file);
    const site = field(rec, "site", isString, file);
    const calls = field(rec, "calls", isCount, file);
    const p = field(rec, "p", isPositive, file);
    const elementBytes = field(rec, "elementBytes", isPositive, file);
    const prev = byKey.get(key);
    if (prev !== undefined && (prev.p !== p || prev.elementBytes !== elementBytes))
      throw fail(
        MODULE,
        "BAD_INPUT",
        `key ${key} has p ${prev.p} and elementBytes ${prev.elementBytes} in ${prev.files[0]!}`,
        {
          file,
          field: prev.p !== p ? "p" : "elementBytes",
        },
      );
    byKey.set(key, {
      key,
      p,
      elementBytes,
      call: prev?.call ?? call,
      kinds: prev === undefined ? [call] : prev.kinds.includes(call) ? prev.kinds : [...prev.kinds, call].sort(),
      sites: prev === undefined ? [site] : prev.sites.includes(site) ? prev.sites : [...prev.sites, site],
      calls: (prev?.calls ?? 0) + calls,
      matrixFile: prev?.matrixFile ?? join(dir, matrix),
      files: [...(prev?.files ?? []), file],
    });
  }
  return [...byKey.values()];
}

/**
 * Reads a captured pattern's matrix and checks it against its record: the key is the matrix's (as libcommplan computes
 * it), and so are P and the element size. precompute checks every pattern this way before it plans any, so a damaged
 * capture directory is refused before anything is written.
 */
export function checkCapture(pat: CapturedPattern, maxMemory: number): CommMatrix {
  const m = readMatrixFile(pat.matrixFile, { maxMemory });
  const file = pat.files[0]!;
  if (m.p !== pat.p)
    throw fail(MODULE, "BAD_INPUT", `the record's p ${pat.p} is not its matrix's (${m.p})`, { file, field: "p" });
  if (m.elementBytes !== pat.elementBytes)
    throw fail(
      MODULE,
      "BAD_INPUT",
      `the record's elementBytes ${pat.elementBytes} is not its matrix's (${m.elementBytes})`,
      {
        file,
        field: "elementBytes",
      },
    );
  const key = captureKey(m);
  if (key !== pat.key)
    throw fail(MODULE, "BAD_INPUT", `the capture's key ${pat.key} is not its matrix's (${key})`, { file });
  return m;
}

/** The makespan (us) auto gave its winner (that variant of it): simulated when a finalist, else predicted. */
function winnerTime(report: AutoReport): number | null {
  const { algorithm, params } = report.winner;
  const c = report.candidates.find((x) => x.algorithm === algorithm && canonicalEqual(x.params, params));
  return c === undefined ? null : (c.simulated ?? c.predicted);
}

function canonicalEqual(a: JsonValue, b: JsonValue): boolean {
  return canonicalJson(a, MODULE) === canonicalJson(b, MODULE);
}

/**
 * Whether libcommplan should replay auto's pick: only when auto answers "use the plan" against MPI_Alltoallv's default
 * run as the library runs it (AutoReport.mpi); when it answers "call MPI_Alltoallv" the library's own call is as fast.
 */
function replayDecision(report: AutoReport, m: CommMatrix): { replay: boolean; reason: string } {
  if (!hasMessages(m)) return { replay: false, reason: NO_MESSAGES_REASON };
  const v = report.mpi;
  if (v.answer === "call MPI_Alltoallv") return { replay: false, reason: `call MPI_Alltoallv: ${v.effect}` };
  const on = report.runtime === undefined ? report.machine : `${report.machine}, runtime ${report.runtime.name}`;
  const against =
    v.gain === null || v.speedup === null
      ? ""
      : ` (${v.speedup}x as fast as MPI_Alltoallv's default on ${on}: ${v.gain} % of its time saved)`;
  return { replay: true, reason: `${report.winner.algorithm}${against}: ${v.effect}` };
}

/** Whether lowering refused `s` because it relays without payload chunks. */
function needsPayload(e: unknown): boolean {
  return isCommplanError(e) && e.message.includes("plan with the option payload");
}

/** Auto's plan and report, its program (in `variant`), whether it was planned with payload, and its store key. */
interface Planned {
  readonly schedule: Schedule;
  readonly report: AutoReport;
  readonly payload: boolean;
  readonly variant: ProgramVariant;
  readonly program: ReturnType<typeof lowerSchedule>["program"];
  readonly storeId: string;
}

/**
 * On the one-port model: auto's plan for m, planned again with payload when its pick relays (lowering needs the
 * payload), lowered nonblocking, kept as `store add -a auto --machine M` would.
 */
function planOnePort(store: string, m: CommMatrix, machine: MachineModel, maxMemory: number): Planned {
  for (const payload of [false, true]) {
    const res = planAuto(m, machine, { payload, seed: 1, maxMemory });
    try {
      const program = lowerSchedule(m, res.schedule, { variant: "nonblocking", maxMemory }).program;
      const storeId = keepInStore(store, m, "auto", { machine, seed: 1, payload }, res.schedule);
      return { ...res, payload, variant: "nonblocking", program, storeId };
    } catch (e) {
      if (payload || !needsPayload(e)) throw e;
    }
  }
  throw fail(MODULE, "BAD_INPUT", "unreachable");
}

/**
 * On a runtime: auto's plan for m on that runtime, lowered in the variant auto found fastest (report.runtime). A pick
 * that relays is planned again with payload chunks (its planner, parameters and seed, as auto's prediction did). The
 * plan is kept under its planner's own key (`store add -a <winner> --param ...`): the store's auto key stands for
 * auto on the one-port model.
 */
function planOnRuntime(store: string, m: CommMatrix, t: CaptureTarget, runtime: RuntimeModel): Planned {
  const { machine, maxMemory } = t;
  const res = planAuto(m, machine, { seed: 1, maxMemory, runtime, ...t.network?.routes(m.p) });
  const variant = res.report.runtime?.variant ?? "nonblocking";
  const { algorithm, params } = res.report.winner;
  let schedule = res.schedule;
  let payload = false;
  let program;
  try {
    program = lowerSchedule(m, schedule, { variant, maxMemory }).program;
  } catch (e) {
    if (!needsPayload(e)) throw e;
    payload = true;
    schedule = plan(m, algorithm, { payload, seed: 1, machine, params, maxMemory });
    program = lowerSchedule(m, schedule, { variant, maxMemory }).program;
  }
  const storeId = keepInStore(store, m, algorithm, { machine, seed: 1, payload, params }, schedule);
  return { schedule, report: res.report, payload, variant, program, storeId };
}

/** Keeps a plan in the store under the key of `algorithm` and `req` (as `commplan store` would), unless present. */
function keepInStore(
  store: string,
  m: CommMatrix,
  algorithm: string,
  req: Parameters<typeof resolveStoreRequest>[2],
  s: Schedule,
): string {
  const st = openPlanStore(store);
  const r = resolveStoreRequest(m, algorithm, req);
  if (getPlanById(st, r.id) === null) addPlan(st, r.key, s);
  return r.id;
}

/**
 * Plans, stores and lowers one pattern into STORE/programs/<key>/ (written in a temporary directory and renamed, so
 * libcommplan never reads half of it); a pattern planned there for the same target is left as it is, one planned for
 * another (or a directory whose plan.json is missing or unreadable) is replaced.
 */
export async function precomputeCapture(
  store: string,
  pat: CapturedPattern,
  target: CaptureTarget,
): Promise<CaptureOutcome> {
  const { machine, runtime, maxMemory } = target;
  const dir = join(store, "programs", pat.key);
  const planFile = join(dir, "plan.json");
  const target0 = existsSync(dir) ? planTarget(planFile) : null;
  // planned for this target, but a program that does not read or a plan.json for fewer calls is planned again
  const flaw = target0 !== null && target0 === targetText(target) ? programFlaw(dir, pat, maxMemory) : null;
  if (target0 !== null && target0 === targetText(target) && flaw === null) return present(pat, planFile);
  const before = target0 === null || flaw === null ? target0 : `${target0}, but ${flaw}`;
  const m = checkCapture(pat, maxMemory);
  const res = runtime === null ? planOnePort(store, m, machine, maxMemory) : planOnRuntime(store, m, target, runtime);
  const decision = replayDecision(res.report, m);
  const tmp = join(store, "programs", `.${pat.key}.${hostname()}.${process.pid}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  await writeProgramSplit(res.program, tmp);
  const rec = {
    format: LIBPLAN_FORMAT,
    key: pat.key,
    p: m.p,
    elementBytes: m.elementBytes,
    algorithm: res.schedule.algorithm,
    payload: res.payload,
    machine: machine.name,
    runtime: runtime === null ? null : runtime.name,
    network: target.network?.spec ?? null,
    portSharing: target.network?.portSharing ?? null,
    freeCopies: runtime === null ? null : !runtime.copies,
    variant: res.variant,
    entry: res.storeId,
    replay: decision.replay,
    reason: decision.reason,
    planUs: winnerTime(res.report),
    libraryUs: res.report.mpi.mpiSimulated,
    gain: res.report.mpi.gain,
    call: pat.call,
    kinds: pat.kinds,
    sites: pat.sites,
    calls: pat.calls,
  };
  try {
    writeFileSync(join(tmp, "plan.json"), JSON.stringify(rec, null, 2) + "\n");
    if (before !== null) {
      // the old program moves aside first, so the key's directory is always a whole program (or none for an instant)
      const old = join(store, "programs", `.${pat.key}.${hostname()}.${process.pid}.old`);
      rmSync(old, { recursive: true, force: true });
      renameSync(dir, old);
      try {
        renameSync(tmp, dir);
      } finally {
        // the old program is put back when the new one did not take its name, so none is left aside
        if (existsSync(dir)) rmSync(old, { recursive: true, force: true });
        else renameSync(old, dir);
      }
    } else renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    // another run wrote the key meanwhile: its program stands when it was planned for this target
    if (existsSync(planFile) && planTarget(planFile) === targetText(target)) return present(pat, planFile);
    throw fsError(e, MODULE, dir, true);
  }
  const status = before === null ? "added" : "replaced";
  const damaged = flaw !== null || target0 === NO_PLAN_JSON || target0 === UNREADABLE_PLAN_JSON;
  const because = damaged ? ("damaged" as const) : ("another target" as const);
  const was = before === null ? {} : { was: before, replacedBecause: because };
  const { algorithm, variant, payload, entry, planUs, libraryUs, gain } = rec;
  return { pattern: pat, status, ...was, algorithm, variant, ...decision, payload, entry, planUs, libraryUs, gain };
}

/** What planTarget says of a key's directory without plan.json, and of one whose plan.json does not read. */
const NO_PLAN_JSON = "a directory without plan.json";
const UNREADABLE_PLAN_JSON = "an unreadable plan.json";

/** The target a plan.json names, as targetText writes it; what is wrong with it when it is missing or unreadable. */
function planTarget(planFile: string): string {
  if (!existsSync(planFile)) return NO_PLAN_JSON;
  try {
    const rec = readCaptureDocument(planFile, "a plan.json") as Record<string, unknown>;
    const text = (x: unknown): string | null => (typeof x === "string" ? x : null);
    const on = { runtime: text(rec["runtime"]), network: text(rec["network"]), sharing: text(rec["portSharing"]) };
    return describeTarget(text(rec["machine"]) ?? "?", on, rec["freeCopies"]);
  } catch {
    return UNREADABLE_PLAN_JSON;
  }
}

/**
 * What is wrong with a program directory planned for this target, or null: store verify's check (programProblem) with
 * the capture's P, element size and call kinds, so what verify flags is planned again; a program that cannot be checked
 * (past the memory budget) is planned again too.
 */
function programFlaw(dir: string, pat: CapturedPattern, maxMemory: number): string | null {
  const flaw = programProblem(dir, pat.key, maxMemory, pat)?.flaw;
  return flaw === undefined ? null : cliMessage(flaw); // the budget's message names --max-memory
}

/** What precompute plans for, in words: the machine, the runtime (or the one-port model), copies, the network. */
function targetText(t: CaptureTarget): string {
  const free = t.runtime === null ? null : !t.runtime.copies;
  const on = { runtime: t.runtime?.name ?? null, network: t.network?.spec ?? null, sharing: t.network?.portSharing };
  return describeTarget(t.machine.name, on, free);
}

function describeTarget(
  machine: string,
  t: { runtime: string | null; network: string | null; sharing: string | null | undefined },
  freeCopies: unknown,
): string {
  const on =
    t.runtime === null ? "one-port model" : `runtime ${t.runtime}${freeCopies === true ? ", copies free" : ""}`;
  // serial, the default, goes unnamed (a plan.json written without the field was planned with it)
  const sharing = t.sharing === "fair" ? ", port sharing fair" : "";
  return `${machine}, ${on}${t.network === null ? "" : `, network ${t.network}${sharing}`}`;
}

/**
 * The outcome of a pattern whose STORE/programs/<key>/plan.json is there already, as it says (no `variant`:
 * nonblocking; no `gain`, written before plan.json had one: null).
 */
function present(pat: CapturedPattern, planFile: string): CaptureOutcome {
  const rec = readCaptureDocument(planFile, "a plan.json") as Record<string, unknown>;
  const num = (k: string): number | null => (typeof rec[k] === "number" ? rec[k] : null);
  const variant = rec["variant"] === undefined ? "nonblocking" : (rec["variant"] as ProgramVariant);
  return {
    pattern: pat,
    status: "present",
    algorithm: String(rec["algorithm"]),
    variant,
    replay: rec["replay"] === true,
    reason: String(rec["reason"]),
    payload: rec["payload"] === true,
    entry: String(rec["entry"]),
    ...{ planUs: num("planUs"), libraryUs: num("libraryUs"), gain: num("gain") },
  };
}
