/** Auto on networks: `plan --algorithm auto --network` against the best planner simulated on the same network (link contention), over the held-out patterns of bench/auto.ts on five network generators. */
import { planAuto } from "../src/auto/index.js";
import { variantLabel, type AutoVariant } from "../src/auto/index.js";
import { networkOptions } from "../src/machines/sim/network-options.js";
import { hostLinkBound } from "../src/bounds/link-bound.js";
import { MACHINES } from "../src/machines/presets.js";
import type { PortSharing } from "../src/machines/sim/options.js";
import type { CommMatrix } from "../src/model/matrix.js";
import { generatePattern, PATTERNS } from "../src/patterns/index.js";
import { buildTopology, compileRoutes } from "../src/topology/index.js";
import { oracle, quantile, SEED_BASE, SET, spmvInput } from "./auto.js";
import { machineInfo, mdTable, timeMs, writeResults } from "./lib.js";

/** The networks, each with every pattern of SET (their generators' defaults sized to P). */
const NETWORKS = ["fat-tree", "fat-tree:oversub=4", "torus", "dragonfly", "rail"];
/** P, cycled over (pattern, network). */
const P_SAMPLE = [16, 25, 32, 48, 64, 100, 128];
/** The machines a network can replace the topology of (flat topology), cycled. */
const FLAT_MACHINES = MACHINES.filter((m) => (m.fabric ?? "flat") === "flat");
/** Seeds apart from bench/auto.ts's flat cases. */
const NETWORK_SEED_BASE = SEED_BASE + 5000;

interface Row {
  pattern: string;
  network: string;
  p: number;
  machine: string;
  portSharing: PortSharing;
  auto: string;
  best: string;
  ratioBest: number;
  ratioShift: number;
  /** auto's makespan over the host-link bound (src/bounds/link-bound.ts), null when the matrix moves nothing. */
  ratioBound: number | null;
  autoMs: number;
  oracleMs: number;
}

function oneCase(pattern: string, options: { readonly [k: string]: number }, a: number, n: number): Row | string {
  const network = NETWORKS[n]!;
  const p = P_SAMPLE[(a * NETWORKS.length + n) % P_SAMPLE.length]!;
  const machine = FLAT_MACHINES[(a * 3 + n) % FLAT_MACHINES.length]!;
  const portSharing: PortSharing = (a + n) % 2 === 0 ? "serial" : "fair";
  const seed = NETWORK_SEED_BASE + a * 100 + n;
  let m: CommMatrix;
  try {
    m = generatePattern(pattern, p, options, seed, pattern === "spmv" ? spmvInput(seed) : {});
  } catch (e) {
    return `${pattern} P=${p}: ${(e as Error).message}`;
  }
  const routes = compileRoutes(buildTopology(network, p, machine));
  const orc = timeMs(() => oracle(m, machine, networkOptions({ network: routes, portSharing })));
  const auto = timeMs(() => planAuto(m, machine, { network: routes, portSharing }));
  const winner = auto.value.report.candidates.find((c) => c.note === "winner")!;
  const makespan = winner.simulated!;
  const bound = hostLinkBound(m, routes, machine.barrier, machine.ts).value;
  return {
    pattern,
    network,
    p,
    machine: machine.name,
    portSharing,
    auto: variantLabel(auto.value.report.winner as AutoVariant),
    best: orc.value.best,
    ratioBest: makespan / orc.value.makespan,
    ratioShift: makespan / orc.value.shift,
    ratioBound: bound > 0 ? makespan / bound : null,
    autoMs: auto.ms,
    oracleMs: orc.ms,
  };
}

/** Runs the bench; returns the markdown. */
export function autoNetworkBench(log: (s: string) => void): string {
  const rows: Row[] = [];
  const skipped: string[] = [];
  const t0 = Date.now();
  SET.forEach(({ pattern, options }, a) => {
    if (!PATTERNS.some((d) => d.name === pattern)) return;
    for (let n = 0; n < NETWORKS.length; n++) {
      const r = oneCase(pattern, options, a, n);
      if (typeof r === "string") skipped.push(r);
      else rows.push(r);
      if ((rows.length + skipped.length) % 20 === 0)
        log(`auto-network: ${rows.length} cases, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  });
  return report(rows, skipped, (Date.now() - t0) / 1000);
}

function summaryTable(rows: readonly Row[]): string {
  const f = (x: number, d = 3): string => x.toFixed(d);
  const within = rows.filter((r) => r.ratioBest <= 1.05).length;
  const worst = rows.reduce((x, y) => (y.ratioBest > x.ratioBest ? y : x));
  const worstShift = rows.reduce((x, y) => (y.ratioShift > x.ratioShift ? y : x));
  const toBound = rows.flatMap((r) => (r.ratioBound === null ? [] : [r.ratioBound]));
  const med = (xs: readonly number[]): number => quantile(xs, 0.5);
  return mdTable(
    ["measure", "target (as on the flat set)", "measured"],
    [
      [
        "auto within 5 % of the best planner",
        ">= 95 %",
        `${f((100 * within) / rows.length, 1)} % (${within} of ${rows.length})`,
      ],
      [
        "worst auto / best",
        "<= 1.20",
        `${f(worst.ratioBest)} (${worst.pattern} P=${worst.p} ${worst.network} ${worst.machine}: ${worst.auto} vs ${worst.best})`,
      ],
      ["median auto / best", "", f(med(rows.map((r) => r.ratioBest)))],
      [
        "worst auto / shift",
        "<= 1.01",
        `${f(worstShift.ratioShift)} (${worstShift.pattern} P=${worstShift.p} ${worstShift.network})`,
      ],
      ["median auto / shift", "", f(med(rows.map((r) => r.ratioShift)))],
      ["auto / host-link bound (median, max)", "", `${f(med(toBound))}, ${f(Math.max(...toBound))}`],
      [
        "auto ms (median, max)",
        "",
        `${f(med(rows.map((r) => r.autoMs)), 1)}, ${f(Math.max(...rows.map((r) => r.autoMs)), 1)}`,
      ],
    ],
  );
}

function byNetworkTable(rows: readonly Row[]): string {
  const f = (x: number, d = 3): string => x.toFixed(d);
  return mdTable(
    ["network", "cases", "within 5 %", "worst auto/best", "median auto/shift", "winners"],
    NETWORKS.map((net) => {
      const rs = rows.filter((r) => r.network === net);
      const wins = new Map<string, number>();
      for (const r of rs) wins.set(r.auto, (wins.get(r.auto) ?? 0) + 1);
      return [
        net,
        rs.length,
        rs.filter((r) => r.ratioBest <= 1.05).length,
        f(Math.max(...rs.map((r) => r.ratioBest))),
        f(
          quantile(
            rs.map((r) => r.ratioShift),
            0.5,
          ),
        ),
        [...wins].map(([k, n]) => `${k} ${n}`).join(", "),
      ];
    }),
  );
}

/** The cases more than 5 % off the best, as a table, or a line saying there is none. */
function offTable(rows: readonly Row[]): string {
  const off = rows.filter((r) => r.ratioBest > 1.05);
  if (off.length === 0) return "\nCases more than 5 % off the best: none.\n";
  return (
    `\nCases more than 5 % off the best:\n\n` +
    mdTable(
      ["pattern", "P", "network", "machine", "port sharing", "auto", "best", "auto/best"],
      off.map((r) => [r.pattern, r.p, r.network, r.machine, r.portSharing, r.auto, r.best, r.ratioBest.toFixed(3)]),
    )
  );
}

function report(rows: readonly Row[], skipped: readonly string[], seconds: number): string {
  const md =
    `### Auto on networks (\`plan --algorithm auto --network\`)\n\n` +
    `${rows.length} matrices (the ${SET.length} pattern entries of bench/auto.ts SET x ${NETWORKS.join(", ")}; P ${P_SAMPLE.join(", ")} in turn; ` +
    `the flat-topology presets ${FLAT_MACHINES.map((m) => m.name).join(", ")} in turn; port sharing serial and fair in turn; seeds ${NETWORK_SEED_BASE}+), ` +
    `blocking mode. auto screens on the flat model and simulates its finalists on the network; "best" simulates every applicable planner on the network ` +
    `(as bench/auto.ts's oracle, with link contention: one replay, no f_lc). The host-link bound is the network lower bound of docs/bounds.md. ${seconds.toFixed(0)} s.\n\n` +
    summaryTable(rows) +
    `\nBy network:\n\n` +
    byNetworkTable(rows) +
    offTable(rows) +
    (skipped.length > 0 ? `\nNot generated (the pattern refuses that P): ${skipped.join("; ")}.\n` : "");
  writeResults("auto-network", { machine: machineInfo(), rows, skipped }, md);
  return md;
}
