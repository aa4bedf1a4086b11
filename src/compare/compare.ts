/**
 * compareMatrix: every applicable planner's plan of a matrix side by side (commplan.compare/v1), with the ratio to the
 * best lower bound.
 */
import { lowerBounds, bestBound, type LowerBound } from "../bounds/index.js";
import type { PortSharing, SimMode } from "../machines/sim/options.js";
import { matrixDigest, type CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import {
  checkCandidateRequestObject,
  runCandidates,
  simulatedBounds,
  type Candidate,
  type CandidateMeasures,
  type CandidateRequest,
  type CandidateRun,
} from "./candidates.js";
import { fmtNumber, textTable } from "./compare-format.js";
import { oneLine } from "../internal/quoted.js";
import { fail } from "../model/errors.js";
import { describeValue, isOptionsObject } from "../model/option-checks.js";
import { hasMessages, runtimeTarget } from "../auto/index.js";
import { checkProgress } from "../model/progress.js";
import { fastestOnRuntime, runtimeComparison, type RuntimeComparison } from "./compare-runtime.js";

/** One planner's row of the comparison (times in us). */
export interface CompareRow extends CandidateMeasures {
  /** simulatedUs / the best bound for every schedule; null when the matrix moves nothing. */
  readonly ratio: number | null;
  readonly direct: boolean;
  readonly contentionFree: boolean;
  /** The best simulated-machine bound that applies to this plan's class (direct ones included), if any. */
  readonly classBound: { readonly name: string; readonly value: number } | null;
}

/**
 * A row's measurements as text cells, in the column order of the text table and the HTML report: steps, start-ups,
 * longest, traffic, peak relay, blocking, nonblocking, simulated, x bound.
 */
export function measureCells(x: CompareRow): string[] {
  return [
    fmtNumber(x.steps),
    fmtNumber(x.startups),
    fmtNumber(x.longestElements),
    fmtNumber(x.trafficBytes),
    fmtNumber(x.peakBufferElements),
    fmtNumber(x.blockingUs),
    fmtNumber(x.nonblockingUs),
    fmtNumber(x.simulatedUs),
    x.ratio === null ? "-" : x.ratio.toFixed(2),
  ];
}

/** A bound as the report lists it. */
export type BoundEntry = Pick<LowerBound, "name" | "target" | "scope" | "contentionFree" | "value" | "formula">;

/** The comparison document (`commplan compare --json`, schemas/compare.v1.schema.json). */
export interface CompareReport {
  readonly format: "commplan.compare/v1";
  readonly machine: string;
  readonly p: number;
  readonly elementBytes: number;
  readonly matrixDigest: string;
  readonly seed: number;
  /** Mode of the simulated machine. */
  readonly mode: SimMode;
  readonly ports: number;
  /** The machine's fabric the plans were simulated on (flat, cm5-fat-tree or ocpc). */
  readonly topology: string;
  /** The network the plans were simulated on (compare --network), with its port sharing; absent without one. */
  readonly network?: { readonly name: string; readonly portSharing: PortSharing };
  /** Every bound of docs/bounds.md for this matrix: cost model (both modes) and the simulated machine in `mode`. */
  readonly bounds: readonly BoundEntry[];
  /** The best simulated-machine bound valid for every schedule (the ratio's denominator). */
  readonly bound: BoundEntry | null;
  /**
   * In blocking mode with MPI rows: the best simulated-machine bound valid for every schedule in nonblocking mode, the
   * mode the library runs in, which the rows' `mpi.libraryUs` are compared with (null without traffic); absent
   * otherwise (in nonblocking mode it is `bound`).
   */
  readonly libraryBound?: BoundEntry | null;
  /**
   * The planner with the shortest simulated makespan, or with `runtime` the shortest time on that runtime (the first in
   * registry order on a tie).
   */
  readonly best: string | null;
  /**
   * compare --runtime: every row's plan timed on that MPI runtime (its program replayed as the runtime runs it, as plan
   * -a auto --runtime predicts), which then ranks (`best`), and MPI_Alltoallv's default there; absent otherwise.
   */
  readonly runtime?: RuntimeComparison;
  readonly rows: readonly CompareRow[];
  readonly skipped: readonly { readonly algorithm: string; readonly reason: string }[];
}

const entry = (b: LowerBound): BoundEntry => ({
  name: b.name,
  target: b.target,
  scope: b.scope,
  contentionFree: b.contentionFree,
  value: b.value,
  formula: b.formula,
});

/** The row of one candidate. */
function rowOf(c: Candidate, run: CandidateRun): CompareRow {
  const cb = bestBound(run.simBounds, c.cls);
  return {
    algorithm: c.algorithm,
    stages: c.stages,
    steps: c.steps,
    transfers: c.transfers,
    startups: c.startups,
    longestElements: c.longestElements,
    trafficBytes: c.trafficBytes,
    busiestNodeBytes: c.busiestNodeBytes,
    peakBufferElements: c.peakBufferElements,
    blockingUs: c.blockingUs,
    nonblockingUs: c.nonblockingUs,
    simulatedUs: c.simulatedUs,
    ratio: run.bound === null ? null : c.simulatedUs / run.bound.value,
    direct: c.cls.direct,
    mpi: c.mpi,
    contentionFree: c.cls.contentionFree,
    classBound: cb === null || cb.value === 0 ? null : { name: cb.name, value: cb.value },
  };
}

/** The index of the fastest candidate (simulated makespan), -1 when there is none. */
export function fastest(candidates: readonly Candidate[]): number {
  let best = -1;
  candidates.forEach((c, k) => {
    if (best < 0 || c.simulatedUs < candidates[best]!.simulatedUs) best = k;
  });
  return best;
}

/**
 * Runs every applicable planner on `m` (runCandidates) and builds the comparison document; the run is returned for the
 * charts.
 */
export function compareMatrix(m: CommMatrix, req: CandidateRequest): { report: CompareReport; run: CandidateRun } {
  // a bad runtime or progress is refused before anything is planned
  checkCandidateRequestObject(req);
  const target = req.runtime === undefined || req.runtime === null ? null : runtimeTarget(req.runtime, req.network);
  const progress = checkProgress(req.progress, "compare");
  // on a runtime the planners' count is reported as half the work, the replays as the other half
  const run = runCandidates(
    m,
    target !== null && progress !== null ? { ...req, progress: (d, t, name) => progress(d, 2 * t, name) } : req,
  );
  const machine: MachineModel = req.machine;
  // the replays share the second half out (a skipped planner has none)
  const t = run.candidates.length + run.skipped.length;
  const share = (d: number, n: number): number => t + Math.round((d * t) / n);
  const runtime =
    target === null
      ? null
      : runtimeComparison(m, run.candidates, req, target, (d, n) =>
          progress?.(share(d, n), 2 * t, run.candidates[d - 1]!.algorithm),
        );
  // with no message between ranks no plan moves anything: none is the fastest (a ranking would be by empty barriers)
  const k = !hasMessages(m) ? -1 : runtime === null ? fastest(run.candidates) : fastestOnRuntime(runtime.times);
  const bounds = [
    ...lowerBounds(m, "cost-blocking", { machine }),
    ...lowerBounds(m, "cost-nonblocking", { machine }),
    ...run.simBounds,
  ].map(entry);
  const report: CompareReport = {
    format: "commplan.compare/v1",
    machine: machine.name,
    p: m.p,
    elementBytes: m.elementBytes,
    matrixDigest: matrixDigest(m),
    seed: req.seed ?? 1,
    mode: run.mode,
    ports: run.ports,
    topology: run.candidates[0]?.sim.fabric ?? machine.fabric ?? "flat",
    ...(req.network ? { network: { name: req.network.name, portSharing: req.portSharing ?? "serial" } } : {}),
    bounds,
    bound: run.bound === null ? null : entry(run.bound),
    ...(run.mode === "blocking" && run.candidates.some((c) => c.mpi !== null)
      ? { libraryBound: libraryBound(m, req, run.ports) }
      : {}),
    best: k < 0 ? null : run.candidates[k]!.algorithm,
    ...(runtime === null ? {} : { runtime }),
    rows: run.candidates.map((c) => rowOf(c, run)),
    skipped: run.skipped,
  };
  return { report, run };
}

/** The best nonblocking simulated-machine bound valid for every schedule (the library's runs), null without traffic. */
function libraryBound(m: CommMatrix, req: CandidateRequest, ports: number): BoundEntry | null {
  const b = bestBound(simulatedBounds(m, req, "nonblocking", ports), { direct: false, contentionFree: false });
  return b === null || b.value <= 0 ? null : entry(b);
}

/** What your MPI does: the (MPI) rows with the library they mirror and their time as the library runs them. */
function mpiText(r: CompareReport): string {
  const mpi = r.rows.filter((x) => x.mpi !== null);
  if (mpi.length === 0) return "";
  const lines = mpi.map(
    (x) =>
      `  ${x.algorithm}: ${x.mpi!.does}, ${fmtNumber(x.mpi!.libraryUs)} us as the library runs it${x.mpi!.isDefault ? " (MPI_Alltoallv's default)" : ""}\n`,
  );
  // the library runs nonblocking: in blocking mode the header's bound is the blocking one, which its times may go
  // below; its own bound is the nonblocking one (libraryBound), which they do not
  const own = r.libraryBound;
  const beyond =
    r.mode === "blocking" && r.bound !== null && own != null && mpi.some((x) => x.mpi!.libraryUs < r.bound!.value)
      ? `; below the lower bound above, which is for blocking runs: the library runs nonblocking, where the lower bound is ${fmtNumber(own.value)} us (${own.name})`
      : "";
  // with --runtime the block's times are still the simulated machine's: the runtime's are the column and the line above
  const where = r.runtime === undefined ? "" : " on the simulated machine";
  // the rows' plans have no empty transfers: the library's messages of zero count are left out, which only the
  // runtime's library mirror (compare's runtime column) posts (docs/mpi-algorithms.md, "Empty messages")
  const empties = "its messages of zero count left out, which a runtime's library mirror posts";
  return `(MPI) what your MPI library does for MPI_Alltoallv${where} (every round posted at once, nonblocking, ${empties}${beyond}):\n${lines.join("")}`;
}

/**
 * compare --runtime's lines under the table: which time ranks, MPI_Alltoallv's default on the runtime, and why a plan
 * has no time there.
 */
function runtimeText(r: CompareReport, rt: RuntimeComparison): string {
  const name = oneLine(rt.name);
  let text =
    `column '${name} us': each plan's program replayed as runtime ${name} runs it (the faster of its dataflow and ` +
    `nonblocking programs, as auto predicts on a runtime), on ${r.network ? `network ${oneLine(r.network.name)}` : "the machine's flat cluster"}, ` +
    `with unlimited ports (a port count is the simulated machine's); it ranks the plans, not the simulated machine\n`;
  if (r.best !== null) text += `* fastest on runtime ${name}: ${r.best}\n`;
  text += `MPI_Alltoallv's default on runtime ${name}, as the library runs it (every pair posted at once): ${fmtNumber(rt.libraryDefaultUs)} us\n`;
  for (const t of rt.times) if (t.us === null) text += `no time on runtime ${name} for ${t.algorithm}: ${t.note}\n`;
  return text;
}

/**
 * What compare says of a matrix with no messages between ranks (every count on the diagonal, or none) in place of its
 * table: a plan's only cost there is its stages' barriers at P > 1, and none at P = 1 (no barrier is charged there,
 * docs/cost-model.md), not worth ranking (auto leaves it to MPI_Alltoallv).
 */
export const NO_MESSAGES_TEXT =
  "no messages between ranks: every plan moves nothing, so none is ranked (at P > 1 they would differ only by their " +
  "empty stages' barriers, at P = 1 not at all; plan -a auto leaves such a matrix to MPI_Alltoallv)";

/** Whether a report is of a matrix with no messages between ranks: plans were made, and none moves a byte. */
export function movesNothing(r: CompareReport): boolean {
  return r.best === null && r.rows.length > 0 && r.rows.every((x) => x.trafficBytes === 0);
}

/**
 * Throws a one-line BAD_INPUT error on `report`, after the name of the function `fn` that was given it, unless `r` is
 * compareMatrix's report (its format, its rows).
 */
export function checkReport(r: unknown, fn: string): void {
  const x = isOptionsObject(r) ? r : null;
  if (x !== null && x["format"] === "commplan.compare/v1" && Array.isArray(x["rows"])) return;
  throw fail(
    "compare",
    "BAD_INPUT",
    `${fn}: the report is not a CompareReport (compareMatrix's), got ${x === null ? describeValue(r) : "an object without its format and rows"}`,
    { field: "report" },
  );
}

/**
 * The comparison as a text table with a header line and the skipped planners (one line instead for a matrix with no
 * messages between ranks: NO_MESSAGES_TEXT); with `width` (a terminal's columns) the
 * table is fitted to it (textTable).
 */
export function compareText(r: CompareReport, width?: number): string {
  checkReport(r, "compareText");
  const b = r.bound;
  let text =
    `compare on ${oneLine(r.machine)} (P = ${r.p}, ${r.elementBytes} bytes per element, simulated ${r.mode}, ${r.ports} port${r.ports === 1 ? "" : "s"}, ${r.network ? `network ${oneLine(r.network.name)}, port sharing ${r.network.portSharing}` : oneLine(r.topology)}): ` +
    (b === null ? "no network traffic\n" : `lower bound ${fmtNumber(b.value)} us (${b.name}: ${b.formula})\n`);
  if (movesNothing(r)) return text + NO_MESSAGES_TEXT + "\n";
  const rows = [
    [
      "algorithm",
      "steps",
      "start-ups",
      "longest",
      "traffic B",
      "peak relay",
      "blocking us",
      "nonblocking us",
      "simulated us",
      "x bound",
    ],
  ];
  const rt = r.runtime;
  if (rt !== undefined) rows[0]!.push(`${rt.name} us`);
  r.rows.forEach((x, k) => {
    const cells = [x.algorithm + (x.mpi ? " (MPI)" : "") + (x.algorithm === r.best ? " *" : ""), ...measureCells(x)];
    rows.push(rt === undefined ? cells : [...cells, fmtNumber(rt.times[k]!.us)]);
  });
  text += textTable(rows, width);
  if (rt !== undefined) text += runtimeText(r, rt);
  else if (r.best !== null) text += `* fastest on the simulated machine: ${r.best}\n`;
  text += mpiText(r);
  for (const s of r.skipped) text += `skipped ${s.algorithm}: ${s.reason}\n`;
  return text;
}
