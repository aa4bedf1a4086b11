/** Permutation bench (issue 4): phases of RS_N / RS_NH / coloring on 003's test sets (tables 4-5), RS_NH's cutoff rules by modelled time, coloring's speed against scipy matching peeling, and the planning time of rs-n and rs-nh. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { findMachine } from "../src/machines/index.js";
import { matrixFromData, type CommMatrix } from "../src/model/matrix.js";
import { createRng } from "../src/model/rng.js";
import type { Schedule } from "../src/model/schedule.js";
import { generatePattern, resolvePatternOptions, wangSet1, wangSet2 } from "../src/patterns/index.js";
import { matrixStats } from "../src/model/matrix-stats.js";
import {
  AUTO_RULES,
  DEFAULT_SPLIT_MACHINE,
  colorBipartite,
  coloring,
  orderBySizeDesc,
  rsN,
  rsNh,
  splitColoring,
} from "../src/planner/permutation/index.js";
import { offDiagonalMessages } from "../src/planner/permutation/messages.js";
import { resolvePlanOptions } from "../src/planner/registry.js";
import type { Planner } from "../src/planner/types.js";
import { machineInfo, mdTable, statsPassMs, timeMs, writeResults } from "./lib.js";

/** 003 tables 4 and 5, "perm" rows (P = 32). RS_N's row is the same in both tables; RS_NH appears only in table 5 (test set 2). */
const PAPER: Readonly<Record<number, { rsN: number; rsNh: number }>> = {
  4: { rsN: 5.54, rsNh: 5.66 },
  16: { rsN: 18.56, rsNh: 19.1 },
  31: { rsN: 34.2, rsNh: 34.56 },
};
const MATRICES = 50;
/** Timed runs (after one warm-up) of our planner and of the scipy peel. */
const RUNS = 5;
/** The machine of the RS_NH rule study: 003 ran on a CM-5; its figures from 004 table 1. */
const RULE_MACHINE = "cm5-004";
/** msg_unit values of the rule study, bytes (003 table 5 uses 2^4 .. 2^13). */
const UNITS = [16, 256, 4096];

interface PhaseRow {
  d: number;
  set: string;
  rsN: number;
  rsNh: number;
  rsNhCutPct: number;
  rsNhNone: number;
  coloring: number;
  paperRsN: number;
  paperRsNh: number;
  dPlusLog2d: number;
}
interface RuleRow {
  d: number;
  rule: string;
  phases: number;
  cutPct: number;
  sumOfMaxima: number;
  timesMs: number[];
}
interface AutoRow {
  d: number;
  unit: number;
  chosen: string;
  phases: number;
  cutPct: number;
  timeMs: number;
  bestFixedMs: number;
  bestFixed: string;
}
interface Spread {
  min: number;
  median: number;
  max: number;
}
/** Planning time of the random-phase planners beside coloring on one matrix. */
interface RandomPhaseRow {
  case: string;
  messages: number;
  rsN: Spread;
  rsNh: Spread;
  rsNhRule: string;
  rsNhPhases: number;
  coloring: Spread;
}

interface SpeedRow {
  case: string;
  p: number;
  edges: number;
  h: number;
  statsMs: number;
  plan: Spread;
  planCpuMs: number;
  core: Spread;
  sumOfMaxima: number;
  lowerBound: number;
  splitChunkMs: number;
  scipy: Spread | null;
  scipyCpuMs: number | null;
  scipyPhases: number | null;
  scipyNote: string;
}

const plan = (
  pl: Planner,
  m: CommMatrix,
  seed: number,
  params = {},
  machine: ReturnType<typeof findMachine> | null = null,
) => pl.plan(m, resolvePlanOptions(pl, { payload: false, seed, machine, params }));
const set2 = (d: number, k: number, elementBytes = 8): CommMatrix =>
  wangSet2.generate(32, resolvePatternOptions(wangSet2, { d, maxFactor: 32, elementBytes }), createRng(1000 + k));

function meanPhases(
  set: typeof wangSet1,
  d: number,
  extra: Record<string, number>,
): { rsN: number; rsNh: number; rsNhCutPct: number; rsNhNone: number; coloring: number } {
  let a = 0,
    b = 0,
    cut = 0,
    none = 0,
    c = 0;
  for (let k = 0; k < MATRICES; k++) {
    const m = set.generate(32, resolvePatternOptions(set, { d, ...extra }), createRng(1000 + k));
    a += plan(rsN, m, k).stepCount;
    const nh = plan(rsNh, m, k);
    b += nh.stepCount;
    cut += cutPercent(m, nh);
    none += plan(rsNh, m, k, { cutoff: "none" }).stepCount;
    c += plan(coloring, m, k).stepCount;
  }
  return {
    rsN: a / MATRICES,
    rsNh: b / MATRICES,
    rsNhCutPct: cut / MATRICES,
    rsNhNone: none / MATRICES,
    coloring: c / MATRICES,
  };
}

/** Sum over steps of the longest transfer. */
function stepMaxima(s: Schedule): number {
  let sum = 0;
  for (let k = 0; k < s.stepCount; k++) {
    let mx = 0;
    for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++) if (s.size[x]! > mx) mx = s.size[x]!;
    sum += mx;
  }
  return sum;
}

/** Percent of the messages sent in more than one transfer. */
function cutPercent(m: CommMatrix, s: Schedule): number {
  const count = new Uint32Array(m.p * m.p);
  for (let x = 0; x < s.transferCount; x++) count[s.src[x]! * m.p + s.dst[x]!]!++;
  let msgs = 0,
    cut = 0;
  for (let x = 0; x < count.length; x++)
    if (count[x]! > 0) {
      msgs++;
      if (count[x]! > 1) cut++;
    }
  return msgs > 0 ? (100 * cut) / msgs : 0;
}

const ruleName = (r: { cutoff: string; factor: number }): string =>
  r.cutoff === "none" ? "none" : `${r.cutoff} x ${r.factor}`;

/**
 * RS_NH's cutoff rules on 003 test set 2 (P = 32, sizes 1..32 x msg_unit): per fixed rule the mean phases,
 * the share of messages cut, the sum of step maxima (in msg_units) and the modelled blocking time
 * phases x alpha + beta x sum on RULE_MACHINE for each msg_unit; then what the default ("auto") picks.
 */
function ruleStudy(log: (s: string) => void): { rules: RuleRow[]; auto: AutoRow[] } {
  const machine = findMachine(RULE_MACHINE);
  const perByte = machine.tc + machine.td;
  const rules: RuleRow[] = [],
    auto: AutoRow[] = [];
  for (const d of [4, 16, 31]) {
    log(`permutation: RS_NH cutoff rules, d = ${d} ...`);
    const fixed: { name: string; params: Record<string, string | number> | null }[] = [
      { name: "RS_N (no heap, no cut)", params: null },
      ...AUTO_RULES.map((r) => ({ name: ruleName(r), params: { cutoff: r.cutoff, factor: r.factor } })),
    ];
    for (const f of fixed) {
      let phases = 0,
        cut = 0,
        sum = 0;
      for (let k = 0; k < MATRICES; k++) {
        const m = set2(d, k);
        const s = f.params === null ? plan(rsN, m, k) : plan(rsNh, m, k, f.params);
        phases += s.stepCount / MATRICES;
        cut += cutPercent(m, s) / MATRICES;
        sum += stepMaxima(s) / MATRICES;
      }
      rules.push({
        d,
        rule: f.name,
        phases,
        cutPct: cut,
        sumOfMaxima: sum,
        timesMs: UNITS.map((u) => (phases * machine.ts + perByte * u * sum) / 1000),
      });
    }
    for (const [ui, unit] of UNITS.entries()) {
      const chosen = new Map<string, number>();
      let phases = 0,
        cut = 0,
        time = 0;
      for (let k = 0; k < MATRICES; k++) {
        const m = set2(d, k, unit); // one element = one msg_unit of bytes
        const s = plan(rsNh, m, k, {}, machine);
        const r = String(s.params["rule"]);
        chosen.set(r, (chosen.get(r) ?? 0) + 1);
        phases += s.stepCount / MATRICES;
        cut += cutPercent(m, s) / MATRICES;
        time += (s.stepCount * machine.ts + perByte * unit * stepMaxima(s)) / 1000 / MATRICES;
      }
      const fixedRows = rules.filter((r) => r.d === d && r.rule !== "RS_N (no heap, no cut)");
      const best = fixedRows.reduce((a, b) => (b.timesMs[ui]! < a.timesMs[ui]! ? b : a));
      const names = [...chosen.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([n, c]) => `${n} (${c})`)
        .join(", ");
      auto.push({
        d,
        unit,
        chosen: names,
        phases,
        cutPct: cut,
        timeMs: time,
        bestFixedMs: best.timesMs[ui]!,
        bestFixed: best.rule,
      });
    }
  }
  return { rules, auto };
}

/** min / median / max of `runs` timings after one warm-up run, wall clock; and the median CPU time. */
function timed(f: () => unknown, runs: number): { wall: Spread; cpuMs: number } {
  f();
  const wall: number[] = [],
    cpu: number[] = [];
  for (let k = 0; k < runs; k++) {
    const c0 = process.cpuUsage();
    wall.push(timeMs(f).ms);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: spread(wall), cpuMs: spread(cpu).median };
}

function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[(s.length - 1) >> 1]!, max: s[s.length - 1]! };
}

/** Runs bench/permutation-scipy.py on the network messages of m; null fields and a note when python or scipy is missing. */
function scipyPeel(
  m: CommMatrix,
  dir: string,
  limitSeconds: number,
): { wall: Spread | null; cpuMs: number | null; phases: number | null; note: string } {
  const { p, data } = m;
  const src: number[] = [],
    dst: number[] = [];
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++)
      if (i !== j && data[i * p + j]! > 0) {
        src.push(i);
        dst.push(j);
      }
  const file = join(dir, `edges-${p}-${src.length}.bin`);
  const words = new Int32Array(2 + 2 * src.length);
  words[0] = p;
  words[1] = src.length;
  words.set(src, 2);
  words.set(dst, 2 + src.length);
  writeFileSync(file, Buffer.from(words.buffer));
  try {
    const out = execFileSync(
      "python3",
      [join(import.meta.dirname, "permutation-scipy.py"), file, String(limitSeconds), String(RUNS)],
      { encoding: "utf8", maxBuffer: 1 << 20 },
    );
    const r = JSON.parse(out.trim().split("\n").pop()!) as {
      error?: string;
      ms?: number[];
      cpuMs?: number[];
      phases?: number;
      complete?: boolean;
      scipy?: string;
    };
    if (r.error !== undefined) return { wall: null, cpuMs: null, phases: null, note: r.error };
    if (!r.complete || r.ms!.length === 0)
      return { wall: null, cpuMs: null, phases: r.phases!, note: `scipy ${r.scipy}, stopped after ${limitSeconds} s` };
    return { wall: spread(r.ms!), cpuMs: spread(r.cpuMs!).median, phases: r.phases!, note: `scipy ${r.scipy}` };
  } catch (e) {
    return {
      wall: null,
      cpuMs: null,
      phases: null,
      note: `python3 / scipy not available (${(e as Error).message.split("\n")[0]})`,
    };
  }
}

function denseMatrix(p: number, seed: number): CommMatrix {
  const rng = createRng(seed);
  const data = new Float64Array(p * p);
  for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j) data[i * p + j] = 1 + rng.int(1000);
  return matrixFromData(p, data);
}

/** A number with `dg` decimals, "n/a" for null. */
function fmt(x: number | null, dg = 1): string {
  return x === null ? "n/a" : x.toFixed(dg);
}

/** A spread as "median (min-max)", "n/a" for null. */
function spreadText(x: Spread | null): string {
  return x === null ? "n/a" : `${fmt(x.median)} (${fmt(x.min)}-${fmt(x.max)})`;
}

/** The ratio a / b as "1.0x", "n/a" when a is missing. */
function ratioText(a: number | null | undefined, b: number): string {
  return a === null || a === undefined ? "n/a" : `${(a / b).toFixed(1)}x`;
}

/** Mean phases of RS_N, RS_NH and coloring on 003's two test sets (P = 32), with the paper's figures. */
function phaseRows(log: (s: string) => void): PhaseRow[] {
  const phases: PhaseRow[] = [];
  for (const d of [4, 16, 31]) {
    log(`permutation: phases, P = 32, d = ${d} ...`);
    const s1 = meanPhases(wangSet1, d, {});
    const s2 = meanPhases(wangSet2, d, { maxFactor: 32 });
    const paper = PAPER[d]!;
    const extra = { d, paperRsN: paper.rsN, paperRsNh: paper.rsNh, dPlusLog2d: d + Math.log2(d) };
    phases.push({ set: "wang-set1 (uniform)", ...s1, ...extra }, { set: "wang-set2 (sizes 1..32)", ...s2, ...extra });
  }
  return phases;
}

/** Times coloring (whole planner and core) against one stats pass and scipy matching peeling on the large cases. */
function speedRows(log: (s: string) => void): SpeedRow[] {
  const dir = mkdtempSync(join(tmpdir(), "commplan-perm-"));
  const speed: SpeedRow[] = [];
  try {
    const cases: [string, () => CommMatrix][] = [
      [
        "P = 1024, d = 16 (wang-set2)",
        () => wangSet2.generate(1024, resolvePatternOptions(wangSet2, { d: 16 }), createRng(7)),
      ],
      ["P = 1024, dense (d = 1023, sizes 1..1000)", () => denseMatrix(1024, 7)],
      [
        "P = 4096, d = 64 (wang-set2)",
        () => wangSet2.generate(4096, resolvePatternOptions(wangSet2, { d: 64 }), createRng(7)),
      ],
    ];
    for (const [name, make] of cases) {
      log(`permutation: speed, ${name} ...`);
      const m = make();
      const statsMs = statsPassMs(m);
      const col = plan(coloring, m, 1);
      const planT = timed(() => plan(coloring, m, 1), RUNS);
      // the colouring proper (message list -> h colour classes), the work the scipy script times
      const msgs = offDiagonalMessages(m);
      const coreT = timed(() => colorBipartite(m.p, msgs.src, msgs.dst, msgs.size, orderBySizeDesc(msgs.size)), RUNS);
      const splitChunkMs = timed(() => plan(splitColoring, m, 1), 1).wall.min;
      log(`permutation: scipy peeling, ${name} ...`);
      const sc = scipyPeel(m, dir, 120);
      speed.push({
        case: name,
        p: m.p,
        edges: col.transferCount,
        h: col.stepCount,
        statsMs,
        plan: planT.wall,
        planCpuMs: planT.cpuMs,
        core: coreT.wall,
        sumOfMaxima: col.params["sumOfMaxima"] as number,
        lowerBound: col.params["lowerBound"] as number,
        splitChunkMs,
        scipy: sc.wall,
        scipyCpuMs: sc.cpuMs,
        scipyPhases: sc.phases,
        scipyNote: sc.note,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return speed;
}

/** Plans rs-n, rs-nh (its default rule, "auto": up to seven runs and the plan) and coloring on random matrices (002's random pattern at 1 in 2 density) and 003 test set 2 at P = 1024. */
function randomPhaseRows(log: (s: string) => void): RandomPhaseRow[] {
  const rows: RandomPhaseRow[] = [];
  const cases: [string, () => CommMatrix][] = [
    ["P = 256, random", () => generatePattern("random", 256, {}, 1)],
    ["P = 1024, random", () => generatePattern("random", 1024, {}, 1)],
    [
      "P = 1024, d = 64 (wang-set2)",
      () => wangSet2.generate(1024, resolvePatternOptions(wangSet2, { d: 64 }), createRng(7)),
    ],
  ];
  for (const [name, make] of cases) {
    log(`permutation: rs-n / rs-nh planning time, ${name} ...`);
    const m = make();
    const nh = plan(rsNh, m, 1);
    rows.push({
      case: name,
      messages: matrixStats(m).messages,
      rsN: timed(() => plan(rsN, m, 1), 3).wall,
      rsNh: timed(() => plan(rsNh, m, 1), 3).wall,
      rsNhRule: String(nh.params["rule"]),
      rsNhPhases: nh.stepCount,
      coloring: timed(() => plan(coloring, m, 1), 3).wall,
    });
  }
  return rows;
}

/** The markdown table of the random-phase planners' planning times. */
function randomPhaseSection(rows: readonly RandomPhaseRow[]): string {
  return (
    "\n### rs-n and rs-nh planning time, beside coloring\n\n" +
    `rs-nh plans with its default rule ("auto": each cutoff rule of AUTO_RULES is run until its modelled time reaches the best so far, then the plan). Each node's messages are kept in priority order and scanned for the first free destination (docs/algorithms/rs-nh.md); the scans of late phases pass many taken destinations, which is where rs-nh's time goes. One warm-up, then 3 timed runs, median (min-max) wall-clock ms.\n\n` +
    mdTable(
      ["case", "messages", "rs-n ms", "rs-nh ms", "rs-nh rule", "rs-nh phases", "coloring ms", "rs-nh / rs-n"],
      rows.map((r) => [
        r.case,
        r.messages.toLocaleString("en-US"),
        spreadText(r.rsN),
        spreadText(r.rsNh),
        r.rsNhRule,
        r.rsNhPhases,
        spreadText(r.coloring),
        fmt(r.rsNh.median / r.rsN.median),
      ]),
    )
  );
}

/** The markdown table of mean phases against 003 tables 4-5. */
function phasesSection(phases: readonly PhaseRow[]): string {
  return (
    `### Permutation decompositions: mean phases over ${MATRICES} seeded matrices, P = 32 (003 tables 4-5, "perm" rows)\n\n` +
    "003's RS_N row is the same in tables 4 and 5 (the same supports); its RS_NH row is only in table 5 (test set 2, sizes 1..32 x msg_unit). " +
    `Our RS_NH column is the default rule ("auto": the cutoff rule of least modelled time) on the default machine ${DEFAULT_SPLIT_MACHINE.name} with 8-byte elements. ` +
    "There a cut pays only when it adds no phase, so the rule picked cuts few messages (the cut column) and the phase counts are those of RS_N with largest-first heaps (the 'heaps only' column, cutoff none): " +
    "the column measures the heaps, not 003's cutoff, whose rule 003 does not give; the cutoff's effect is in the next table. Nothing in it is calibrated to 003's numbers.\n\n" +
    mdTable(
      [
        "d",
        "test set",
        "RS_N",
        "paper RS_N",
        "RS_NH (auto)",
        "RS_NH messages cut %",
        "RS_NH heaps only",
        "paper RS_NH",
        "coloring",
        "d + log2 d",
      ],
      phases.map((r) => [
        r.d,
        r.set,
        fmt(r.rsN, 2),
        r.paperRsN,
        fmt(r.rsNh, 2),
        fmt(r.rsNhCutPct, 2),
        fmt(r.rsNhNone, 2),
        r.paperRsNh,
        fmt(r.coloring, 2),
        fmt(r.dPlusLog2d, 2),
      ]),
    )
  );
}

/** The markdown tables of the RS_NH cutoff rule study and of the "auto" rule. */
function rulesSection(study: { rules: RuleRow[]; auto: AutoRow[] }, rm: ReturnType<typeof findMachine>): string {
  return (
    `\n### RS_NH cutoff rules on 003 test set 2 (P = 32, ${MATRICES} matrices), modelled blocking time on ${rm.name} (alpha = ${rm.ts} us, ${(rm.tc + rm.td).toFixed(3)} us/byte)\n\n` +
    "Per rule: mean phases, share of messages sent in more than one piece, mean sum over phases of the longest message (in msg_units), and phases x alpha + beta x that sum for msg_unit = " +
    `${UNITS.join(", ")} bytes (ms). The rule's phase count, cut share and sum do not depend on msg_unit; the best rule does.\n\n` +
    mdTable(
      ["d", "rule", "phases", "messages cut %", "sum of step maxima", ...UNITS.map((u) => `time ms @ ${u} B`)],
      study.rules.map((r) => [
        r.d,
        r.rule,
        fmt(r.phases, 2),
        fmt(r.cutPct, 2),
        fmt(r.sumOfMaxima, 1),
        ...r.timesMs.map((t) => fmt(t, 2)),
      ]),
    ) +
    `\nThe default, cutoff "auto", plans with each rule above (same seed) and keeps the least modelled time on the machine it is given (here ${rm.name}, elements of msg_unit bytes):\n\n` +
    mdTable(
      [
        "d",
        "msg_unit B",
        "rules chosen (matrices)",
        "phases",
        "messages cut %",
        "time ms",
        "best fixed rule",
        "its time ms",
      ],
      study.auto.map((r) => [
        r.d,
        r.unit,
        r.chosen,
        fmt(r.phases, 2),
        fmt(r.cutPct, 2),
        fmt(r.timeMs, 2),
        r.bestFixed,
        fmt(r.bestFixedMs, 2),
      ]),
    )
  );
}

/** The markdown table of coloring's speed against the stats pass and scipy peeling. */
function speedSection(speed: readonly SpeedRow[], load: string): string {
  return (
    "\n### coloring speed (exact h phases) vs one stats pass and vs scipy matching peeling (one maximum matching per phase)\n\n" +
    `plan = the whole planner (matrix digest for the header, one scan of the P x P matrix for the message list, sort, colouring, lower bound, improve pass, schedule); core = sort + colouring of the message list, the work the scipy script times (it gets the edge list; its interpreter start and imports are not timed). Both sides: one warm-up, then ${RUNS} timed runs, shown as median (min-max) wall-clock ms; the ratios are of medians; "CPU" is the ratio of median CPU times (steadier on a shared machine). Load average at the end of the run (1 / 5 / 15 min): ${load}.\n\n` +
    mdTable(
      [
        "case",
        "edges",
        "h",
        "stats pass ms",
        "coloring plan ms",
        "plan / stats",
        "colouring core ms",
        "scipy peel ms",
        "scipy / plan",
        "scipy / core",
        "scipy / plan (CPU)",
        "scipy phases",
        "sum of maxima",
        "lower bound",
        "split-coloring (chunk) ms",
        "note",
      ],
      speed.map((r) => [
        r.case,
        r.edges.toLocaleString("en-US"),
        r.h,
        fmt(r.statsMs, 2),
        spreadText(r.plan),
        fmt(r.plan.median / r.statsMs),
        spreadText(r.core),
        spreadText(r.scipy),
        ratioText(r.scipy?.median, r.plan.median),
        ratioText(r.scipy?.median, r.core.median),
        ratioText(r.scipyCpuMs, r.planCpuMs),
        r.scipyPhases ?? "n/a",
        r.sumOfMaxima,
        r.lowerBound,
        fmt(r.splitChunkMs),
        r.scipyNote,
      ]),
    )
  );
}

/** Runs the permutation bench; returns the markdown summary. */
export function permutationBench(log: (s: string) => void): string {
  const phases = phaseRows(log);
  const study = ruleStudy(log);
  const speed = speedRows(log);
  const randomPhase = randomPhaseRows(log);
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ");
  const rm = findMachine(RULE_MACHINE);
  const md =
    phasesSection(phases) + rulesSection(study, rm) + speedSection(speed, load) + randomPhaseSection(randomPhase);
  writeResults(
    "permutation",
    { machine: machineInfo(), loadavg: loadavg(), phases, rules: study.rules, auto: study.auto, speed, randomPhase },
    md,
  );
  return md;
}
