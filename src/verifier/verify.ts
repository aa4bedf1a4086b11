/** verifySchedule: runs every check that applies to a schedule and returns the report. */
import { fail } from "../model/errors.js";
import { checkMadeFor, entry, type CommMatrix } from "../model/matrix.js";
import { matrixStats, type MatrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import { scheduleArgProblem } from "../model/schedule-check.js";
import { CLAIMS } from "./claims.js";
import type { AlgorithmClaims } from "./types.js";
import { checkContention } from "./contention.js";
import { checkDelivery } from "./delivery.js";
import { checkDirect, checkPairwise, checkShiftSteps } from "./structure.js";
import { checkFlow, type FlowResult } from "./flow.js";
import { checkMessageDelivery } from "./message-delivery.js";
import { auditPairs, type PairAudit } from "./pair-audit.js";
import { checkFourStage } from "./four-stage-bounds.js";
import { atLeast, atMost, check, makeReport, PerItemBound, type Check, type Report, type Unproven } from "./report.js";
import { stageMetrics, type StageMetrics } from "./stage-metrics.js";
import { checkTimedContention } from "./timed-overlap.js";
import { checkWellFormed } from "./well-formed.js";
import { checkLinkContention } from "./link-contention.js";
import { networkProblem, type NetworkRoutes } from "../model/network.js";
import { checkOptionKeys, checkOptionsObject, describeValue } from "../model/option-checks.js";
import { checkProgress, progressPhases, type ProgressCallback } from "../model/progress.js";

/** Options of the verifier. */
export interface VerifyOptions {
  /**
   * Send ports and receive ports per node: a positive integer, or Infinity for a machine that serves any number of
   * messages per node at once (default 1: the papers' single-port machines).
   */
  readonly ports?: number;
  /** A network to check link contention on (a `link-contention` row); none by default. */
  readonly network?: NetworkRoutes;
  /**
   * Called now and then while checking: `done` of `total` thousandths of the work (the checks in turn, a payload plan's
   * delivery chunk by chunk).
   */
  readonly progress?: ProgressCallback | null;
}

/** The keys of VerifyOptions. */
const VERIFY_OPTION_KEYS: readonly string[] = Object.freeze(["ports", "network", "progress"]);

/**
 * Weights of the verifier's progress: well-formed, delivery, flow, contention (timed and link
 * contention with it), the stage rows and claims (about their shares of the time).
 */
const VERIFY_PROGRESS: readonly number[] = [50, 450, 150, 150, 200];
const VERIFY_PAYLOAD_PROGRESS: readonly number[] = [20, 900, 30, 30, 20];

/**
 * Checks a schedule against its matrix. Throws a CommplanError: MISMATCH when the schedule was made for another matrix
 * (P or digest differ), BAD_INPUT / BAD_OPTION when `m`, `s` or `opts` is not a matrix, a Schedule object or
 * VerifyOptions (scheduleArgProblem, checkMatrixArg, an unknown key); every other finding, a malformed column of a
 * hand-built schedule included, is a row of the report.
 */
export function verifySchedule(m: CommMatrix, s: Schedule, opts: VerifyOptions = {}): Report {
  checkOptionsObject("verify", "options", opts);
  checkOptionKeys("verify", opts, VERIFY_OPTION_KEYS);
  const arg = scheduleArgProblem(s);
  if (arg !== null) throw fail("verify", "BAD_INPUT", arg, { field: "schedule" });
  const ports = opts.ports ?? 1;
  checkInputs(m, s, ports, opts.network);
  const tell = checkProgress(opts.progress, "verify");

  const progress = progressPhases(tell, s.chunks ? VERIFY_PAYLOAD_PROGRESS : VERIFY_PROGRESS);
  const checks: Check[] = [];
  const wf = checkWellFormed(s);
  checks.push(wf);
  progress.complete(0);
  if (!wf.holds) {
    progress.end();
    return makeReport(s.algorithm, s.p, checks);
  }

  const stats = matrixStats(m);
  const claims: AlgorithmClaims | undefined = CLAIMS[s.algorithm];
  const unproven: Unproven[] = [];
  let audit: PairAudit | undefined;
  const pairs = (): PairAudit => (audit ??= auditPairs(m, s)); // one pass, shared by two checks
  if (s.chunks) {
    const { delivery, causality, passThrough, timedCausality } = checkDelivery(m, s, progress.phase(1));
    checks.push(delivery, causality, passThrough);
    if (timedCausality) checks.push(timedCausality);
  } else {
    const md = checkMessageDelivery(m, s, pairs());
    if (md.check) checks.push(md.check);
    else unproven.push(md.unproven);
  }
  progress.complete(1);
  const flow = checkFlow(m, s, stats);
  checks.push(flow.conservation);
  progress.complete(2);
  const { contention, stalls } = checkContention(s, ports);
  checks.push(contention, stalls);
  const timed = checkTimedContention(s, ports);
  if (timed) checks.push(timed);
  if (opts.network) checks.push(checkLinkContention(s, opts.network));
  progress.complete(3);

  const metrics = stageMetrics(s);
  for (const c of measuredStageRows(s, metrics)) checks.push(c);
  if (claims) for (const c of claimChecks(m, s, claims, stats, metrics, flow, ports, pairs)) checks.push(c);
  else checks.push(measuredPeakBuffer(flow.peakBuffer));
  const report = makeReport(s.algorithm, s.p, checks, flow.peakPerNode);
  progress.end();
  return unproven.length === 0 ? report : { ...report, unproven };
}

/**
 * The one check of the verifier's option ports (VerifyOptions.ports): a positive integer or Infinity; throws a one-line
 * BAD_OPTION error of `module` on field ports.
 */
export function checkVerifyPorts(module: string, ports: unknown): void {
  if (typeof ports === "number" && (Number.isInteger(ports) || ports === Infinity) && ports >= 1) return;
  throw fail(module, "BAD_OPTION", `ports must be a positive integer or unlimited, got ${describeValue(ports)}`, {
    field: "ports",
  });
}

/**
 * Throws when the options are bad (ports, a network with fewer hosts than P) or the schedule was made for another
 * matrix (P or digest differ).
 */
function checkInputs(m: CommMatrix, s: Schedule, ports: number, network: NetworkRoutes | undefined): void {
  checkVerifyPorts("verify", ports);
  const shape = network === undefined ? null : networkProblem(network);
  if (shape !== null) throw fail("verify", "BAD_OPTION", shape, { field: "network" });
  if (network && network.hosts < s.p)
    throw fail(
      "verify",
      "BAD_OPTION",
      `the network ${network.name} has ${network.hosts} hosts, fewer than P = ${s.p}`,
      {
        field: "network",
      },
    );
  checkMadeFor(m, s, "the schedule", "verify");
}

/** The measured rows: per stage the most messages of one node and the longest message, then the steps. */
function measuredStageRows(s: Schedule, metrics: readonly StageMetrics[]): Check[] {
  const checks: Check[] = [];
  for (const [k, st] of metrics.entries()) {
    const n = k + 1; // stage numbers are 1-based wherever a user reads them (docs/verifier.md)
    checks.push(
      check(
        `stage-${n}-messages`,
        `stage ${n} (${st.name}): most messages one node sends / receives`,
        "004 Lemma 1 (measured)",
        true,
        Math.max(st.maxSent, st.maxReceived),
        null,
        null,
      ),
    );
    checks.push(
      check(
        `stage-${n}-longest`,
        `stage ${n} (${st.name}): longest message (elements)`,
        "004 Lemma 3, Table 2 (measured)",
        true,
        st.longest,
        null,
        null,
      ),
    );
  }
  checks.push(check("steps", "steps in the schedule", "004 Theorem 2 (measured)", true, s.stepCount, null, null));
  return checks;
}

/** The peak buffer as a measured row (no bound claimed). */
function measuredPeakBuffer(peak: number): Check {
  return check(
    "peak-buffer",
    "peak elements held by a node (measured)",
    "004 Theorem 1 (measured)",
    true,
    peak,
    null,
    null,
  );
}

/**
 * The rows of the algorithm's claims, in the order: direct (or measured peak), whole, step bounds, four-stage, extra,
 * pairwise, shift.
 */
function claimChecks(
  m: CommMatrix,
  s: Schedule,
  claims: AlgorithmClaims,
  stats: MatrixStats,
  metrics: readonly StageMetrics[],
  flow: FlowResult,
  ports: number,
  pairs: () => PairAudit,
): Check[] {
  const checks: Check[] = [];
  if (claims.direct) for (const c of directChecks(m, s, stats, metrics, flow, ports, pairs)) checks.push(c);
  else checks.push(measuredPeakBuffer(flow.peakBuffer));
  if (claims.whole) checks.push(messagesPerNode(stats, metrics));
  if (claims.maxSteps) {
    const { bound, source } = claims.maxSteps(m.p, stats.h, ports);
    checks.push(atMost("steps-bound", `steps <= ${bound}`, source, s.stepCount, bound, `${s.stepCount} steps`));
  }
  if (claims.exactSteps) {
    const { bound, source } = claims.exactSteps(m.p, stats.h, ports);
    checks.push(
      check(
        "steps-exact",
        `steps == ${bound}`,
        source,
        s.stepCount === bound,
        s.stepCount,
        bound,
        `${s.stepCount} steps, expected ${bound}`,
      ),
    );
  }
  if (claims.fourStage) for (const c of checkFourStage(m, s, stats, flow.peakBuffer)) checks.push(c);
  if (claims.extra) for (const c of claims.extra(m, s, stats, { ports, peakBuffer: flow.peakBuffer })) checks.push(c);
  if (claims.pairwise) checks.push(checkPairwise(s));
  if (claims.shift) checks.push(checkShiftSteps(s, ports));
  return checks;
}

/**
 * A direct schedule: every element goes straight to its destination; steps >= ceil(h / ports), longest message <=
 * M_max, peak buffer <= outgoing + incoming traffic.
 */
function directChecks(
  m: CommMatrix,
  s: Schedule,
  stats: MatrixStats,
  metrics: readonly StageMetrics[],
  flow: FlowResult,
  ports: number,
  pairs: () => PairAudit,
): Check[] {
  return [
    checkDirect(m, s, pairs()),
    atLeast(
      "steps-lower-bound",
      "steps >= ceil(h / ports) for a direct schedule",
      "000 sec 2 (fan-in/fan-out h); each step moves one message per port",
      s.stepCount,
      Math.ceil(stats.h / ports),
      `${s.stepCount} steps cannot carry fan-in/fan-out h = ${stats.h}`,
    ),
    atMost(
      "longest-message",
      "longest message <= M_max (off-diagonal)",
      "004 sec 3 (M_max)",
      metrics.reduce((a, x) => Math.max(a, x.longest), 0), // not Math.max(...): one argument per stage
      stats.mMaxOffDiagonal,
      "a transfer is longer than any message of the matrix",
    ),
    atMost(
      "peak-buffer",
      "peak elements held by a node <= its outgoing + incoming traffic",
      "direct delivery: a node holds what it has not sent plus what it has received",
      flow.peakBuffer,
      directBufferBound(m, stats),
      `node ${flow.peakNode} holds ${flow.peakBuffer} elements`,
    ),
  ];
}

/** Messages are not split: per stage, messages a node sends <= f and receives <= g. */
function messagesPerNode(stats: MatrixStats, metrics: readonly StageMetrics[]): Check {
  const per = new PerItemBound(); // sends against f, receives against g: a FAIL row shows the one that failed
  for (const [k, x] of metrics.entries()) {
    if (per.add(x.maxSent, stats.f))
      per.witness = `node ${x.maxSentNode} sends ${x.maxSent} messages in stage ${k + 1}, f = ${stats.f}`;
    if (per.add(x.maxReceived, stats.g))
      per.witness = `node ${x.maxReceivedNode} receives ${x.maxReceived} messages in stage ${k + 1}, g = ${stats.g}`;
  }
  return per.row(
    "messages-per-node",
    "per stage, messages a node sends <= f and receives <= g (messages are not split)",
    "000 sec 2 (f, g)",
  );
}

/**
 * max over nodes of outgoing + incoming traffic (the diagonal counted once): the statistics' off-diagonal traffic plus
 * the diagonal, O(P) (O(P log E) sparse).
 */
function directBufferBound(m: CommMatrix, stats: MatrixStats): number {
  let best = 0;
  for (let u = 0; u < m.p; u++) best = Math.max(best, stats.rowTraffic[u]! + stats.colTraffic[u]! + entry(m, u, u));
  return best;
}
