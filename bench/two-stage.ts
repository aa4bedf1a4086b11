/** Two-stage bench (issue 5): start-ups, longest message, traffic and buffers of A1-A4 on 004 Pattern1/Pattern2 beside 004 Tables 3-4. */
import { findMachine } from "../src/machines/presets.js";
import { scheduleCost } from "../src/machines/cost-model.js";
import { matrixStats } from "../src/model/matrix-stats.js";
import type { Schedule } from "../src/model/schedule.js";
import { generatePattern } from "../src/patterns/index.js";
import { plan } from "../src/planner/index.js";
import { verifySchedule } from "../src/verifier/index.js";
import { machineInfo, mdTable, timeMs, writeResults } from "./lib.js";

interface Row {
  pattern: string;
  p: number;
  paper: string;
  algorithm: string;
  params: string;
  verified: boolean;
  steps: number;
  startups: number;
  startupsTable3: number;
  longest: number;
  traffic: number;
  trafficTable3: number;
  stepLongestSum: number;
  theorem2: number | null;
  peakBuffer: number;
  bufferTable4: number;
  t3dBlockingUs: number;
  sp2NonblockingUs: number;
  planMs: number;
}

/**
 * Most network messages and elements one node sends over the whole schedule, the longest message,
 * and the sum over steps of the step's longest message (local copies included: the traffic term
 * of the blocking time, which 004 Theorem 2 bounds).
 */
function measure(s: Schedule): { startups: number; traffic: number; longest: number; stepLongestSum: number } {
  const n = new Uint32Array(s.p),
    bytes = new Float64Array(s.p);
  let longest = 0,
    stepLongestSum = 0;
  for (let x = 0; x < s.transferCount; x++) {
    if (s.src[x] === s.dst[x]) continue;
    n[s.src[x]!]!++;
    bytes[s.src[x]!] = bytes[s.src[x]!]! + s.size[x]!;
    longest = Math.max(longest, s.size[x]!);
  }
  for (let k = 0; k < s.stepCount; k++) {
    let mx = 0;
    for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++) mx = Math.max(mx, s.size[x]!);
    stepLongestSum += mx;
  }
  return { startups: Math.max(0, ...n), traffic: Math.max(0, ...bytes), longest, stepLongestSum };
}

const ALGS: readonly {
  paper: string;
  algorithm: string;
  params: Record<string, string | boolean>;
  squareOnly?: boolean;
}[] = [
  { paper: "A1", algorithm: "shift", params: {} },
  { paper: "A2", algorithm: "two-stage", params: { schedule: "shift" } },
  { paper: "A2", algorithm: "two-stage", params: { schedule: "linear-permutation" } },
  { paper: "A2", algorithm: "two-stage", params: { schedule: "shift", reshuffle: true } },
  { paper: "A3", algorithm: "mesh-two-stage", params: {}, squareOnly: true },
  { paper: "A4", algorithm: "four-stage", params: {} },
];

/** Runs the cases; returns the markdown summary. */
export function twoStageBench(log: (s: string) => void): string {
  const rows: Row[] = [];
  const t3d = findMachine("t3d-004"),
    sp2 = findMachine("sp2-004");
  for (const pattern of ["pattern1", "pattern2"]) {
    for (const p of [64, 61]) {
      const m = generatePattern(pattern, p, { mmax: 1024, small: 1 }, 1);
      const st = matrixStats(m);
      const L = st.lMax,
        M = st.mMax,
        cs = Math.ceil(Math.sqrt(p));
      for (const a of ALGS) {
        if (a.squareOnly && cs * cs !== p) continue;
        log(`two-stage bench: ${a.algorithm} ${JSON.stringify(a.params)} on ${pattern}, P = ${p}`);
        const { ms, value: s } = timeMs(() => plan(m, a.algorithm, { payload: true, params: a.params }));
        const report = verifySchedule(m, s);
        const peak = report.checks.find((c) => c.id === "peak-buffer")?.measured ?? 0;
        const { startups, traffic, longest, stepLongestSum } = measure(s);
        const table3 = {
          A1: [p, L],
          A2: [2 * p, 2 * L],
          A3: [2 * Math.sqrt(p), 2 * L],
          A4: [4 * cs + 2, (4 * cs * cs * L) / p],
        }[a.paper]!;
        const table4 = { A1: M * p + L, A2: 2 * L, A3: 2 * M * p, A4: (2 * cs * cs * L) / p }[a.paper]!;
        rows.push({
          pattern,
          p,
          paper: a.paper,
          algorithm: a.algorithm,
          params: Object.entries(a.params)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(" "),
          verified: report.ok,
          steps: s.stepCount,
          startups,
          startupsTable3: table3[0]!,
          longest,
          traffic,
          trafficTable3: table3[1]!,
          stepLongestSum,
          theorem2: a.paper === "A4" ? (4 * (cs + 1) * cs * L) / p : null,
          peakBuffer: peak,
          bufferTable4: table4,
          t3dBlockingUs: scheduleCost(s, t3d, "blocking").total,
          sp2NonblockingUs: scheduleCost(s, sp2, "nonblocking").total,
          planMs: ms,
        });
      }
    }
  }
  const f = (x: number): string =>
    Number.isInteger(x) ? x.toLocaleString("en-US") : x.toLocaleString("en-US", { maximumFractionDigits: 1 });
  const md =
    "### Two-stage: A1-A4 on 004 Pattern1 / Pattern2 (M_max = 1024, small = 1), beside 004 Tables 3 and 4\n\n" +
    "Start-ups: most network messages one node sends (Table 3 counts the local copies: P, 2P, 2 sqrt P, 4 ceil(sqrt P) + 2). " +
    'Traffic: most elements one node sends over all stages, network only (Table 3\'s "total traffic": L_max, 2 L_max, 2 L_max, 4 ceil(sqrt P)^2 L_max / P). ' +
    "Step-longest sum: the sum over steps of the step's longest message, local copies included, i.e. the traffic term of the blocking time; for A4 004 Theorem 2 bounds it by 4 (ceil(sqrt P) + 1) ceil(sqrt P) L_max / P " +
    "(Table 3's 4 ceil(sqrt P)^2 L_max / P bounds the traffic, not this term: docs/algorithms/four-stage.md, decision 7). " +
    "Buffer: peak elements held by one node (Table 4 sBUF + rBUF: M_max P + L_max, 2 L_max, 2 M_max P, 2 ceil(sqrt P)^2 L_max / P). " +
    "Costs: flat model (docs/cost-model.md), T3D blocking and SP2 nonblocking, 004 table 1 figures. Every plan is verified at payload level.\n\n" +
    mdTable(
      [
        "pattern",
        "P",
        "paper",
        "algorithm",
        "params",
        "verified",
        "steps",
        "start-ups",
        "Table 3 start-ups",
        "longest msg",
        "traffic",
        "Table 3 traffic",
        "step-longest sum",
        "Theorem 2 (A4)",
        "peak buffer",
        "Table 4",
        "T3D blocking us",
        "SP2 nonblocking us",
        "plan ms",
      ],
      rows.map((r) => [
        r.pattern,
        r.p,
        r.paper,
        r.algorithm,
        r.params || "-",
        r.verified ? "yes" : "NO",
        r.steps,
        r.startups,
        f(r.startupsTable3),
        f(r.longest),
        f(r.traffic),
        f(r.trafficTable3),
        f(r.stepLongestSum),
        r.theorem2 === null ? "-" : f(r.theorem2),
        f(r.peakBuffer),
        f(r.bufferTable4),
        f(r.t3dBlockingUs),
        f(r.sp2NonblockingUs),
        r.planMs.toFixed(1),
      ]),
    );
  writeResults("two-stage", { machine: machineInfo(), rows }, md);
  return md;
}
