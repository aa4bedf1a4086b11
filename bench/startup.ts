/**
 * Start-up bench: whole commplan processes, start to finish, side by side in one run: `node -e 0`, `commplan
 * --version`, `store get` of P = 256 and P = 1024 entries as JSON and as Arrow, and the planning of the same matrices
 * written the same way (`plan` for JSON, `store add` into a new store for Arrow) (wall and CPU time, the median of
 * several rounds, each round running every command once, so the machine's load falls on all of them alike).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { machineInfo, mdTable, writeResults } from "./lib.js";

const BIN = join(import.meta.dirname, "..", "bin", "commplan.js");
/**
 * Another build's `bin/commplan.js` (a checkout of an earlier commit, built), whose `--version`, `store get` and `plan`
 * run beside this one's in the same rounds: `COMMPLAN_BENCH_BEFORE=/path/bin/commplan.js npm run bench startup`.
 */
const BEFORE = process.env["COMMPLAN_BENCH_BEFORE"];
/** Rounds: each command runs once a round; the median of each is reported. */
const ROUNDS = 9;
/** The planner and pattern of the store rows (the plan rows plan the same matrix): 002 Pattern3, coloring. */
const ALGORITHM = "coloring";
const PATTERN = "liu-pattern3";

interface Row {
  name: string;
  command: string;
  wallMs: number;
  cpuMs: number;
  wallRuns: number[];
}

/**
 * Runs `argv` in bash and returns its wall time and the CPU time (user + system) of its children, as bash's `times`
 * reports them (the process is reaped before `times` runs, so all of its CPU time is counted).
 */
export function timedProcess(argv: readonly string[], cwd: string): { wallMs: number; cpuMs: number } {
  const quoted = argv.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const t0 = process.hrtime.bigint();
  const out = execFileSync("bash", ["-c", `${quoted} >/dev/null 2>&1 || exit 3; times`], { cwd, encoding: "utf8" });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  // bash's times: the shell's user and system line, then its children's: "0m0.123s 0m0.012s"
  const child = out.trim().split("\n").pop()!;
  const secs = [...child.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { wallMs, cpuMs: (secs[0]! + secs[1]!) * 1000 };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The bench: prepares a store with both entries, then times every command ROUNDS times, round by round. */
export function startupBench(log: (s: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "commplan-startup-"));
  try {
    const cli = (...args: string[]): string =>
      execFileSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const ids = new Map<number, string>();
    for (const p of [256, 1024]) {
      cli("gen", PATTERN, "--p", String(p), "-o", `m${p}.json`);
      ids.set(p, cli("store", "add", "store", `m${p}.json`, "-a", ALGORITHM).trim());
    }
    const node = process.execPath;
    const before: [string, string[]][] =
      BEFORE === undefined
        ? []
        : [
            ["before: commplan --version", [node, BEFORE, "--version"]],
            ...[256, 1024].flatMap((p): [string, string[]][] => [
              [
                `before: store get P = ${p} (JSON)`,
                [node, BEFORE, "store", "get", "store", "--id", ids.get(p)!, "-o", `b${p}.json`],
              ],
              [
                `before: plan P = ${p} (JSON)`,
                [node, BEFORE, "plan", `m${p}.json`, "-a", ALGORITHM, "-o", `q${p}.json`],
              ],
            ]),
          ];
    const commands: [string, string[] | ((round: number) => string[])][] = [
      ["node -e 0", [node, "-e", "0"]],
      ["commplan --version", [node, BIN, "--version"]],
      ...[256, 1024].flatMap((p): [string, string[] | ((round: number) => string[])][] => [
        [`store get P = ${p} (JSON)`, [node, BIN, "store", "get", "store", "--id", ids.get(p)!, "-o", `g${p}.json`]],
        [
          `store get P = ${p} (Arrow)`,
          [node, BIN, "store", "get", "store", "--id", ids.get(p)!, "-f", "arrow", "-o", `g${p}.arrow`],
        ],
        [
          `store get P = ${p} by matrix (JSON)`,
          [node, BIN, "store", "get", "store", `m${p}.json`, "-a", ALGORITHM, "-o", `h${p}.json`],
        ],
        [`plan P = ${p} (JSON)`, [node, BIN, "plan", `m${p}.json`, "-a", ALGORITHM, "-o", `p${p}.json`]],
        [
          `plan P = ${p} (Arrow: store add)`,
          (round) => [node, BIN, "store", "add", `new${p}-${round}`, `m${p}.json`, "-a", ALGORITHM],
        ],
      ]),
      ...before,
    ];
    const loadBefore = machineInfo().loadavg;
    const runs = commands.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      commands.forEach(([, argv], k) => {
        const t = timedProcess(typeof argv === "function" ? argv(round) : argv, dir);
        runs[k]!.wall.push(t.wallMs);
        runs[k]!.cpu.push(t.cpuMs);
      });
      log(`startup: round ${round + 1} of ${ROUNDS}`);
    }
    const rows: Row[] = commands.map(([name, argv], k) => ({
      name,
      command: (typeof argv === "function" ? argv(0) : argv)
        .slice(1)
        .join(" ")
        .replace(BIN, "commplan")
        .replace(/[0-9a-f]{64}/, "ID"),
      wallMs: median(runs[k]!.wall),
      cpuMs: median(runs[k]!.cpu),
      wallRuns: runs[k]!.wall,
    }));
    return report(rows, loadBefore);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes bench/results/startup.{json,md}: the medians, the ratios to `node -e 0` and to planning, the goals. */
function report(rows: readonly Row[], loadBefore: readonly number[]): string {
  const by = (name: string): Row => rows.find((r) => r.name === name)!;
  const base = by("node -e 0");
  const f = (x: number): string => x.toFixed(0);
  const r = (x: number): string => x.toFixed(2);
  const table = mdTable(
    ["command", "wall ms (median)", "CPU ms (median)", "wall / node -e 0", "CPU / node -e 0"],
    rows.map((x) => [x.name, f(x.wallMs), f(x.cpuMs), r(x.wallMs / base.wallMs), r(x.cpuMs / base.cpuMs)]),
  );
  const version = by("commplan --version");
  const get256 = by("store get P = 256 (JSON)");
  const get1024 = by("store get P = 1024 (JSON)");
  const plan1024 = by("plan P = 1024 (JSON)");
  const arrowGet = by("store get P = 1024 (Arrow)");
  const arrowPlan = by("plan P = 1024 (Arrow: store add)");
  const goals = [
    ["commplan --version within 3 x node -e 0 (wall)", version.wallMs / base.wallMs, version.wallMs <= 3 * base.wallMs],
    ["store get P = 256 within 3 x node -e 0 (wall)", get256.wallMs / base.wallMs, get256.wallMs <= 3 * base.wallMs],
    [
      "store get P = 1024 >= 5 x faster than plan (wall)",
      plan1024.wallMs / get1024.wallMs,
      plan1024.wallMs >= 5 * get1024.wallMs,
    ],
    [
      "as Arrow, store get P = 1024 >= 5 x faster than planning it to Arrow (store add; wall)",
      arrowPlan.wallMs / arrowGet.wallMs,
      arrowPlan.wallMs >= 5 * arrowGet.wallMs,
    ],
  ] as const;
  const arrowRatio = arrowPlan.wallMs / arrowGet.wallMs;
  const cpu = (a: Row, b: Row): string => (a.cpuMs / b.cpuMs).toFixed(2);
  const info = machineInfo();
  const load = (l: readonly number[]): string => l.map((x) => x.toFixed(1)).join(", ");
  const md =
    `### Start-up: whole commplan processes against \`node -e 0\`, and store get against planning (${ALGORITHM}, 002 Pattern3)\n\n` +
    (BEFORE === undefined
      ? ""
      : `Rows marked "before" run another build (${BEFORE.replace(/\/bin\/commplan\.js$/, "")}, its dist/ built by that commit's own build) in the same rounds. `) +
    `Each command runs as its own process (\`node bin/commplan.js ...\`, dist/ built by \`npm run build\`), ${ROUNDS} rounds, each round running every command once in turn; the table gives the medians. Wall = start to exit as the bench sees it; CPU = user + system time of the process (bash's \`times\`). store get reads the entry by --id (or by matrix: reading and digesting the matrix, resolving the request) and writes the plan as commplan.schedule/v1 JSON, or as Arrow (the entry's own bytes, its checksum checked and its plan decoded), to a file; plan reads the same matrix and writes the same JSON, and store add into a new store plans it and writes it as an Arrow entry (sealed, fsynced). Load average at the start: ${load(loadBefore)}; at the end: ${load(info.loadavg)} (${info.cpus} cores, shared).\n\n` +
    table +
    "\nGoals: " +
    goals.map(([name, ratio, met]) => `${name}: ${ratio.toFixed(2)} x, ${met ? "met" : "not met"}`).join("; ") +
    `. In CPU time: store get P = 1024 is ${cpu(plan1024, get1024)} x faster than planning (JSON), ` +
    `${cpu(arrowPlan, arrowGet)} x as Arrow.\n`;
  writeResults("startup", { machine: info, loadBefore, rounds: ROUNDS, rows, goals, arrowRatio }, md);
  return md;
}
