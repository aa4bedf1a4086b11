/**
 * The vs-MPI bench's report: per-case table, headline table (per configuration and P) and the contract checks, from
 * the cached cases.
 */
import { LIBRARY_ALLTOALLV } from "../src/machines/program-replay/library-alltoallv-registry.js";
import { SMPI_ALLTOALLV } from "./vs-mpi-config.js";
import { SMPI_UNMIRRORED } from "./vs-mpi-discover.js";
import type { VsMpiCaseResult } from "./vs-mpi-case.js";
import { mdTable } from "./lib.js";

/**
 * The report's sentence on MPI's algorithms: each predicted by its library mirror (`simulate --library`), else through
 * the planner that mirrors it (`mpiPlanners`, from the planners' traits), the others named with the reason none does.
 */
export function mirrorText(mpiPlanners: Readonly<Record<string, string>>): string {
  const library = SMPI_ALLTOALLV.filter((a) => LIBRARY_ALLTOALLV.includes(a));
  const planned = SMPI_ALLTOALLV.filter((a) => !LIBRARY_ALLTOALLV.includes(a) && mpiPlanners[a] !== undefined);
  const rest = SMPI_ALLTOALLV.filter((a) => !LIBRARY_ALLTOALLV.includes(a) && mpiPlanners[a] === undefined);
  const why = (a: string): string => (SMPI_UNMIRRORED[a] === undefined ? a : `${a}: ${SMPI_UNMIRRORED[a]}`);
  return (
    `; MPI_Alltoallv under each SMPI algorithm predicted by its library mirror, the operations SMPI's code posts ` +
    `replayed (\`commplan simulate m.json --library NAME\`: ${library.join(", ")})` +
    (planned.length > 0
      ? `; through the commplan planner that mirrors it (${planned.map((a) => `${a}: ${mpiPlanners[a]}`).join(", ")})`
      : "") +
    (rest.length > 0 ? `; not predicted (${rest.map(why).join("; ")})` : "")
  );
}

/** The contract's figures. */
export const CONTRACT = {
  /** auto may be at most this much slower than the fastest SMPI algorithm. */
  maxSlowdown: 1.03,
  /** With overheads, small messages, P >= minP: median default / auto at least this. */
  smallSpeedup: 1.5,
  smallMinP: 256,
  /** Every prediction within this relative error of SMPI. */
  predictionError: 0.1,
} as const;

/** A case's derived figures (null where a time is missing). */
export interface CaseFigures {
  readonly c: VsMpiCaseResult;
  readonly autoUs: number | null;
  readonly dataflowUs: number | null;
  readonly bestUs: number | null;
  readonly bestLabel: string;
  readonly fastest: { readonly name: string; readonly us: number } | null;
  readonly defaultUs: number | null;
}

/** Whether the case ran MPI_Alltoallv under every SMPI algorithm (a run that failed counts as run). */
export function everyAlgorithmRun(c: VsMpiCaseResult): boolean {
  return SMPI_ALLTOALLV.every((a) => a in c.alltoallv);
}

/** Figures of one case. */
export function caseFigures(c: VsMpiCaseResult): CaseFigures {
  // "call MPI_Alltoallv": the user calls the library, so auto's time is the default's
  const auto =
    c.answer === "call MPI_Alltoallv"
      ? (c.alltoallv["default"] ?? null)
      : (c.plans.find((r) => r.role === "auto")?.smpiUs ?? null);
  const df = c.plans.find((r) => r.role === "auto-dataflow")?.smpiUs ?? null;
  let best: { us: number; label: string } | null = null;
  for (const r of c.plans)
    if (r.smpiUs !== null && (best === null || r.smpiUs < best.us))
      best = { us: r.smpiUs, label: `${r.algorithm}${paramText(r.params)} ${r.variant}` };
  // the fastest of every algorithm; none when the case ran only some of them (the bench's --algorithms)
  let fastest: { name: string; us: number } | null = null;
  for (const a of everyAlgorithmRun(c) ? SMPI_ALLTOALLV : []) {
    const t = c.alltoallv[a];
    if (t !== null && t !== undefined && (fastest === null || t < fastest.us)) fastest = { name: a, us: t };
  }
  return {
    c,
    autoUs: auto,
    dataflowUs: df,
    bestUs: best?.us ?? null,
    bestLabel: best?.label ?? "",
    fastest,
    defaultUs: c.alltoallv["default"] ?? null,
  };
}

function paramText(p: Readonly<Record<string, unknown>>): string {
  const e = Object.entries(p);
  // a plan's header also records derived figures (bounds, modelled times): the label keeps the short parameters
  const short = e
    .filter(([, v]) => typeof v !== "number" || Number.isInteger(v))
    .filter(([, v]) => String(v).length <= 24);
  return short.length === 0 ? "" : `(${short.map(([k, v]) => `${k}=${String(v)}`).join(",")})`;
}

/** Median, min and max of a list (NaN when empty). */
export function spread(xs: readonly number[]): { median: number; min: number; max: number } {
  if (xs.length === 0) return { median: NaN, min: NaN, max: NaN };
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return { median: s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2, min: s[0]!, max: s[s.length - 1]! };
}

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : "-");
const us = (x: number | null): string => (x === null ? "-" : x < 100 ? x.toFixed(2) : x.toFixed(1));

/**
 * Every prediction with its SMPI time: [label, predicted, smpi, kind]. kind "plan": an executed commplan program;
 * "library": MPI_Alltoallv as SMPI ran it, predicted by its library mirror (the same operations as SMPI's code posts,
 * zero-byte messages and barriers included), and the default as auto predicts it; "mirror": an `mpi-*` planner's
 * program beside the SMPI algorithm it mirrors (cases predicted before the library mirrors, or algorithms without
 * one), which leaves empty messages out while the library sends them, so on sparse workloads it predicts less.
 */
export function predictionPairs(c: VsMpiCaseResult): [string, number | null, number | null, string][] {
  const out: [string, number | null, number | null, string][] = c.plans.map((r) => [
    `${r.role} ${r.algorithm}`,
    r.predictedUs,
    r.smpiUs,
    "plan",
  ]);
  // an algorithm the case did not run under SMPI (the bench's --algorithms) has nothing to be compared with
  for (const [a, pr] of Object.entries(c.alltoallvPredicted).filter(([a]) => a in c.alltoallv))
    out.push([
      `alltoallv ${a}`,
      pr,
      c.alltoallv[a] ?? null,
      c.alltoallvPredictedBy?.[a] === "library" ? "library" : "mirror",
    ]);
  if (c.defaultPredictedUs !== undefined)
    out.push(["alltoallv default (library replay)", c.defaultPredictedUs, c.alltoallv["default"] ?? null, "library"]);
  return out;
}

/** The headline rows: per configuration and P, auto / fastest and default / auto with cases won. */
export function headlineTable(figs: readonly CaseFigures[]): string {
  const groups = new Map<string, CaseFigures[]>();
  for (const f of figs) {
    const k = `${f.c.config}|${f.c.p}`;
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  const rows: (string | number)[][] = [];
  const order = ([a]: [string, unknown], [b]: [string, unknown]): number => {
    const [ca, pa] = a.split("|"),
      [cb, pb] = b.split("|");
    return ca! < cb! ? -1 : ca! > cb! ? 1 : Number(pa) - Number(pb);
  };
  for (const [k, fs] of [...groups].sort(order)) {
    const [config, p] = k.split("|");
    const ok = fs.filter((f) => f.autoUs !== null && f.defaultUs !== null);
    const full = ok.filter((f) => f.fastest !== null);
    const vsFastest = spread(full.map((f) => f.autoUs! / f.fastest!.us));
    const vsDefault = spread(ok.map((f) => f.defaultUs! / f.autoUs!));
    const beatDefault = ok.filter((f) => f.autoUs! < f.defaultUs!).length;
    const beatAll = full.filter((f) => f.autoUs! < f.fastest!.us).length;
    rows.push([
      config!,
      p!,
      ok.length,
      full.length === 0
        ? "not run (default only)"
        : `${f3(vsFastest.median)} (${f3(vsFastest.min)}-${f3(vsFastest.max)})${full.length < ok.length ? ` over ${full.length}` : ""}`,
      `${f3(vsDefault.median)} (${f3(vsDefault.min)}-${f3(vsDefault.max)})`,
      `${beatDefault} of ${ok.length}`,
      full.length === 0 ? "-" : `${beatAll} of ${full.length}`,
    ]);
  }
  return mdTable(
    [
      "SMPI config",
      "P",
      "cases",
      "auto / fastest MPI: median (min-max)",
      "default / auto (speed-up): median (min-max)",
      "auto faster than default",
      "auto faster than every algorithm",
    ],
    rows,
  );
}

/**
 * The headline in words: how many cases at which P, auto's largest slowdown against the fastest algorithm, and its
 * median speed-up over the default with per-message overheads and small messages per P (and the largest).
 */
export function headlineText(figs: readonly CaseFigures[]): string {
  const ok = figs.filter((f) => f.autoUs !== null && f.defaultUs !== null);
  if (ok.length === 0) return "No case has been measured yet.";
  const byP = new Map<number, number>();
  for (const f of ok) byP.set(f.c.p, (byP.get(f.c.p) ?? 0) + 1);
  const ps = [...byP].sort((a, b) => a[0] - b[0]).map(([p, n]) => `${n} at P = ${p}`);
  const full = ok.filter((f) => f.fastest !== null);
  const worst = spread(full.map((f) => f.autoUs! / f.fastest!.us)).max;
  const slowest =
    full.length === 0
      ? ""
      : worst > 1
        ? `, auto was at most ${((worst - 1) * 100).toFixed(1)} % slower than the fastest of SMPI's algorithms`
        : ", auto was never slower than the fastest of SMPI's algorithms";
  const small = ok.filter((f) => f.c.config === "overheads" && f.c.size === "small");
  const smallPs = [...new Set(small.map((f) => f.c.p))].sort((a, b) => a - b);
  const speed = smallPs.map((p) => {
    const sp = spread(small.filter((f) => f.c.p === p).map((f) => f.defaultUs! / f.autoUs!));
    return `${sp.median.toFixed(1)}x at P = ${p}`;
  });
  const best = spread(small.map((f) => f.defaultUs! / f.autoUs!)).max;
  const overheads =
    small.length === 0
      ? ""
      : ` With per-message overheads and small messages its plans are faster than the default by a median ` +
        `${speed.join(", ")} (up to ${best.toFixed(0)}x).`;
  return `In ${ok.length} cases (${ps.join(", ")})${slowest}.${overheads}`;
}

/** One contract check. */
export interface ContractCheck {
  readonly name: string;
  readonly met: boolean | null;
  readonly figures: string;
}

/** The contract checks over the cases. */
export function contractChecks(figs: readonly CaseFigures[]): ContractCheck[] {
  const ok = figs.filter((f) => f.autoUs !== null && f.defaultUs !== null);
  const full = ok.filter((f) => f.fastest !== null);
  const slow = spread(full.map((f) => f.autoUs! / f.fastest!.us));
  const within = full.filter((f) => f.autoUs! <= CONTRACT.maxSlowdown * f.fastest!.us).length;
  const partial = ok.length - full.length;
  const over = ok.filter((f) => f.c.config === "overheads");
  const small = over.filter((f) => f.c.size === "small" && f.c.p >= CONTRACT.smallMinP);
  const smallSpeed = spread(small.map((f) => f.defaultUs! / f.autoUs!));
  const won = over.filter((f) => f.autoUs! < f.defaultUs!).length;
  const answered = ok.filter((f) => f.c.answer === "use the plan");
  const answeredWon = answered.filter((f) => f.autoUs! < f.defaultUs!).length;
  const predicted = (kind: (k: string) => boolean): { met: boolean | null; figures: string; count: number } => {
    const pairs = figs.flatMap((f) => predictionPairs(f.c)).filter(([, , , k]) => kind(k));
    const measured = pairs.filter(([, p, s]) => p !== null && s !== null && s > 0);
    const ratios = measured.map(([, p, s]) => p! / s!);
    const r = spread(ratios);
    const inTen = ratios.filter((x) => Math.abs(x - 1) <= CONTRACT.predictionError).length;
    return {
      met: measured.length === 0 ? null : inTen === measured.length && measured.length === pairs.length,
      figures: `${inTen} of ${measured.length} predictions within (${pairs.length - measured.length} missing); prediction / SMPI median ${f3(r.median)}, min ${f3(r.min)}, max ${f3(r.max)}`,
      count: pairs.length,
    };
  };
  const executed = predicted((k) => k !== "mirror");
  const mirrors = predicted((k) => k === "mirror");
  return [
    {
      name: `auto never more than ${((CONTRACT.maxSlowdown - 1) * 100).toFixed(0)} % slower than the fastest SMPI algorithm`,
      // cases that ran only some algorithms leave the check open: met needs every case
      met: full.length === 0 || (within === full.length && partial > 0) ? null : within === full.length,
      figures:
        `${within} of ${full.length} cases within; auto / fastest median ${f3(slow.median)}, max ${f3(slow.max)}` +
        (partial > 0 ? `; ${partial} cases ran only some algorithms (not counted)` : ""),
    },
    {
      name: `with overheads, small messages, P >= ${CONTRACT.smallMinP}: auto >= ${CONTRACT.smallSpeedup}x faster than default (median)`,
      met: small.length === 0 ? null : smallSpeed.median >= CONTRACT.smallSpeedup,
      figures:
        small.length === 0
          ? "no case measured at this P"
          : `median default / auto ${f3(smallSpeed.median)} over ${small.length} cases (min ${f3(smallSpeed.min)}, max ${f3(smallSpeed.max)})`,
    },
    {
      name: "with overheads: auto faster than the default on at least half of all cases",
      met: over.length === 0 ? null : 2 * won >= over.length,
      figures: `${won} of ${over.length} cases`,
    },
    {
      name: "where auto answers 'use the plan', its plan beats the default in SMPI",
      met: answered.length === 0 ? null : answeredWon === answered.length,
      figures: `${answeredWon} of ${answered.length} cases answered "use the plan"`,
    },
    {
      name: `every executed plan (commplan's programs, MPI_Alltoallv under each mirrored SMPI algorithm) predicted within ${(CONTRACT.predictionError * 100).toFixed(0)} % of SMPI`,
      met: executed.met,
      figures: executed.figures,
    },
    // only when some algorithm was predicted through a planner (cases from before the library mirrors)
    ...(mirrors.count === 0
      ? []
      : [
          {
            name: `MPI's algorithms without a library mirror, through their mpi-* planners, within ${(CONTRACT.predictionError * 100).toFixed(0)} % (no empty messages)`,
            met: mirrors.met,
            figures: mirrors.figures,
          },
        ]),
  ];
}

/** The contract checks as a table. */
export function contractTable(checks: readonly ContractCheck[]): string {
  return mdTable(
    ["check", "status", "figures"],
    checks.map((k) => [k.name, k.met === null ? "not (fully) measured" : k.met ? "met" : "not met", k.figures]),
  );
}

/** The per-case table. */
export function caseTable(figs: readonly CaseFigures[]): string {
  const sorted = [...figs].sort((a, b) =>
    [a.c.config, a.c.p, a.c.workload, a.c.platform, a.c.size].join("|") <
    [b.c.config, b.c.p, b.c.workload, b.c.platform, b.c.size].join("|")
      ? -1
      : 1,
  );
  return mdTable(
    [
      "config",
      "P",
      "workload",
      "platform",
      "size",
      "mean msg B",
      "auto plan",
      "auto us",
      "auto pred / SMPI",
      "dataflow us",
      "best commplan (SMPI)",
      "best us",
      "default us",
      "fastest MPI",
      "fastest us",
      "default / auto",
      "slowest MPI us",
      "problems",
    ],
    sorted.map((f) => {
      const auto = f.c.plans.find((r) => r.role === "auto");
      const times = Object.values(f.c.alltoallv).filter((x): x is number => x !== null);
      return [
        f.c.config,
        f.c.p,
        f.c.workload,
        f.c.platform,
        f.c.size,
        Math.round(f.c.meanMessageBytes),
        f.c.answer === "call MPI_Alltoallv"
          ? `call MPI_Alltoallv (plan: ${auto?.algorithm ?? "-"})`
          : auto
            ? `${auto.algorithm}${paramText(auto.params)} ${auto.variant}`
            : "-",
        us(f.autoUs),
        auto && auto.predictedUs !== null && auto.smpiUs !== null ? f3(auto.predictedUs / auto.smpiUs) : "-",
        us(f.dataflowUs),
        f.bestLabel || "-",
        us(f.bestUs),
        us(f.defaultUs),
        f.fastest?.name ?? "-",
        us(f.fastest?.us ?? null),
        f.autoUs !== null && f.defaultUs !== null ? f3(f.defaultUs / f.autoUs) : "-",
        times.length > 0 ? us(Math.max(...times)) : "-",
        f.c.problems.length === 0 ? "" : f.c.problems.join("; ").replaceAll("|", "/").slice(0, 200),
      ];
    }),
  );
}
