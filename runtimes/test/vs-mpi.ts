/**
 * vs-MPI pipeline test (CI, after the unit tests; a minute or two): the vs-mpi bench's small case, P = 16, two
 * workloads (random, moe), the flat ib-hdr-200 cluster, small messages, both SMPI configurations, and uniform 64 KiB
 * messages on the 4:1 fat tree (plain), where the ranks' start order changes SMPI's rates. Asserts the pipeline's
 * invariants: every SMPI alltoallv algorithm's time present and positive, auto's program run and every byte delivered
 * (the executor checks), its time the same in every run, every executed plan and every mirrored algorithm predicted
 * within 10 % (the bench's contract), the overhead configuration applied (slower than plain), and the output
 * parser's failure cases.
 * Exits 1 on any failure, 0 with one line when smpirun is absent. Run: npx tsx runtimes/test/vs-mpi.ts
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildSmpiExecutor, measureCases, parseVsMpiArgs, vsMpiCases, vsMpiMarkdown } from "../../bench/vs-mpi.js";
import { parseSmpiRun, type VsMpiCaseResult } from "../../bench/vs-mpi-case.js";
import { SMPI_ALLTOALLV } from "../../bench/vs-mpi-config.js";
import { discoverCapabilities } from "../../bench/vs-mpi-discover.js";

/** The parser must turn a deadlock, a failed byte check and a missing time into problems. */
function parserChecks(): string[] {
  const ok =
    "program shift nonblocking P=2: 1 exchange(s), time per exchange (max over ranks) min 1e-06 s, median 2e-06 s, max 3e-06 s; every byte ok (8 bytes per exchange)\n" +
    "alltoallv P=2: 1 exchange(s), time per exchange (max over ranks) min 1e-06 s, median 4e-06 s, max 5e-06 s; every byte ok (8 bytes per exchange)\n" +
    "[0.1] [smpi_utils/INFO] Simulated time: 0.1 seconds.\n";
  const bad: string[] = [];
  const good = parseSmpiRun(0, ok, true);
  if (good.problem !== "" || good.programUs !== 2 || good.alltoallvUs !== 4)
    bad.push(`a good run parsed as ${JSON.stringify(good)}`);
  const cases: [string, number, string][] = [
    ["deadlock", 0, ok + "[0.1] [smpi/WARNING] Deadlock detected\n"],
    ["wrong byte", 1, ok.replace("every byte ok (8 bytes per exchange)", "FAIL: 1 wrong byte(s); first: ...")],
    ["no simulated time", 0, ok.replace(/.*Simulated time.*\n/, "")],
    ["timeout", 124, ok],
  ];
  for (const [what, status, text] of cases)
    if (parseSmpiRun(status, text, true).problem === "") bad.push(`a run with ${what} parsed as ok`);
  // --baseline-only: the alltoallv line alone is a good run; a program line in it is not
  const only = ok.replace(/^program .*\n/m, "");
  const alone = parseSmpiRun(0, only, true, undefined, false);
  if (alone.problem !== "" || alone.programUs !== null || alone.alltoallvUs !== 4)
    bad.push(`a good --baseline-only run parsed as ${JSON.stringify(alone)}`);
  if (parseSmpiRun(0, ok, true, undefined, false).problem === "")
    bad.push("a --baseline-only run with a program line parsed as ok");
  if (parseSmpiRun(0, only, true).problem === "") bad.push("a run without its program line parsed as ok");
  return bad;
}

/** The largest relative error of a prediction (of an executed plan, or of an SMPI algorithm by its mirror). */
const PREDICTION_ERROR = 0.1;

/** The invariants of one measured case. */
function caseChecks(c: VsMpiCaseResult): string[] {
  const bad = c.problems.map((p) => `${c.key}: ${p}`);
  for (const a of SMPI_ALLTOALLV) {
    const t = c.alltoallv[a];
    if (t === null || t === undefined || !(t > 0)) bad.push(`${c.key}: alltoallv ${a}: no positive time (${t})`);
  }
  const auto = c.plans.find((r) => r.role === "auto");
  if (auto === undefined || auto.smpiUs === null || !(auto.smpiUs > 0))
    bad.push(`${c.key}: auto's program has no time`);
  if (c.autoSpreadUs === null || Math.abs(c.autoSpreadUs[1] - c.autoSpreadUs[0]) > 1e-9 * c.autoSpreadUs[1])
    bad.push(`${c.key}: auto's program time differs between the alltoallv runs: ${JSON.stringify(c.autoSpreadUs)}`);
  for (const r of c.plans)
    if (r.predictedUs === null || !(r.predictedUs > 0)) bad.push(`${c.key}: ${r.role} ${r.algorithm}: no prediction`);
    else if (r.smpiUs !== null && !(Math.abs(r.predictedUs / r.smpiUs - 1) <= PREDICTION_ERROR))
      bad.push(`${c.key}: ${r.role} ${r.algorithm} ${r.variant}: predicted ${r.predictedUs} us, SMPI ${r.smpiUs} us`);
  for (const [a, pr] of Object.entries(c.alltoallvPredicted)) {
    const t = c.alltoallv[a];
    if (pr !== null && t !== null && t !== undefined && !(Math.abs(pr / t - 1) <= PREDICTION_ERROR))
      bad.push(`${c.key}: MPI_Alltoallv ${a}: predicted ${pr} us, SMPI ${t} us`);
  }
  if (!(c.meanMessageBytes > 0)) bad.push(`${c.key}: empty matrix`);
  // the steps' wall seconds: auto's planning and every smpirun of an algorithm not given another's time
  const steps = c.stepWallS ?? {};
  const ran = SMPI_ALLTOALLV.filter((a) => c.alltoallvSameAs?.[a] === undefined).map((a) => `smpirun ${a}`);
  for (const k of ["auto", ...ran])
    if (!(steps[k]! > 0 && steps[k]! <= c.wallS)) bad.push(`${c.key}: step ${k}: ${steps[k]} s (case ${c.wallS} s)`);
  return bad;
}

async function main(): Promise<number> {
  if (spawnSync("smpirun", ["-version"]).error !== undefined) {
    process.stdout.write("vs-mpi: skipped: smpirun (SimGrid's SMPI) is not installed\n");
    return 0;
  }
  const t0 = performance.now();
  const bad = parserChecks();
  const opts = parseVsMpiArgs([
    "--p=16",
    "--workloads=random,moe",
    "--platforms=flat-ib-hdr-200",
    "--sizes=small",
    "--configs=plain,overheads",
    "--jobs=2",
  ]);
  const caps = discoverCapabilities();
  const exe = buildSmpiExecutor();
  const cache: Record<string, VsMpiCaseResult> = {};
  // and one case where the ranks' start order decides SMPI's rates (every rank sends 64 KiB to every other at once
  // on the oversubscribed fat tree): the executor must start them as the replay does
  const tree = parseVsMpiArgs(["--p=16", "--workloads=uniform", "--platforms=fat-tree-k8-4to1", "--sizes=large"]);
  const specs = [...vsMpiCases(opts), ...vsMpiCases({ ...tree, configs: ["plain"] })];
  await measureCases(
    specs,
    cache,
    caps,
    exe,
    opts.jobs,
    (s) => void process.stdout.write(s + "\n"),
    () => {},
  );
  const cases = Object.values(cache);
  if (cases.length !== specs.length) bad.push(`${cases.length} of ${specs.length} cases measured`);
  for (const c of cases) bad.push(...caseChecks(c));
  // the overheads must reach SMPI: the same exchange is slower with them
  for (const c of cases.filter((x) => x.config === "overheads")) {
    const plain = cache[c.key.replace("|overheads", "|plain")];
    const a = c.alltoallv["default"],
      b = plain?.alltoallv["default"];
    if (a == null || b == null || !(a > b)) bad.push(`${c.key}: default alltoallv ${a} us not above plain's ${b} us`);
  }
  const md = vsMpiMarkdown(cases, caps);
  if (!/\| overheads \| 16 \| 2 \|/.test(md) || !/\| plain \| 16 \| 3 \|/.test(md))
    bad.push("the headline table lacks a configuration's row");
  const s = ((performance.now() - t0) / 1000).toFixed(0);
  for (const b of bad) process.stdout.write(`vs-mpi: FAIL: ${b}\n`);
  process.stdout.write(
    `vs-mpi: ${bad.length === 0 ? "ok" : `${bad.length} failure(s)`}: ${cases.length} cases, ${SMPI_ALLTOALLV.length} alltoallv algorithms each (${s} s)\n`,
  );
  return bad.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = await main();
