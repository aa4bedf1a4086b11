/**
 * Plan store crash test: spawns `commplan store add` and `commplan precompute` child processes
 * (dist/, built by npm test) against one store and kills each with SIGKILL at a random moment,
 * at least KILLS times (default 200); after every round it checks that `store verify` finds the
 * store consistent and that every entry served equals a fresh plan (no partial entry is ever
 * served); then gc removes the killed writers' temporary files and two concurrent precompute runs
 * over the same spec finish the family with each entry written exactly once (one creation record
 * in the store's log per entry). Prints one summary line; exits 1 on any failure.
 * Run: npx tsx runtimes/test/store-crash.ts [KILLS]
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { createRng } from "../../src/model/rng.js";
import { readPrecomputeSpec } from "../../src/cli/precompute-jobs.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";
import { getPlanById, gcStore, openPlanStore, resolveStoreRequest, verifyStore } from "../../src/store/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(root, "bin", "commplan.js");
const KILLS = Number(process.argv[2] ?? 200);
const PARALLEL = 4;
const work = mkdtempSync(join(tmpdir(), "commplan-store-crash-"));
const store = join(work, "store");
const spec = join(work, "spec.json");
writeFileSync(
  spec,
  JSON.stringify({
    patterns: ["uniform", { name: "h-relation", options: { h: 3 } }, { name: "wang-set2", options: { d: 4 } }],
    p: [8, 12, 16],
    seeds: [1, 2, 3, 4],
    algorithms: ["shift", "coloring", { name: "four-stage", payload: true }, { name: "two-stage", payload: true }],
  }),
);
const jobs = readPrecomputeSpec(spec);
for (let k = 0; k < 6; k++)
  writeFileSync(join(work, `m${k}.json`), JSON.stringify({ format: "commplan.matrix/v1", p: 6, rows: matrixRows(k) }));

function matrixRows(k: number): number[][] {
  return Array.from({ length: 6 }, (_, i) =>
    Array.from({ length: 6 }, (_, j) => (i === j ? 0 : (i * 7 + j * 3 + k) % 9)),
  );
}

const failures: string[] = [];
const rng = createRng(20261123);

/** Spawns one writer and kills it after `ms` milliseconds; resolves when it has exited. */
function killAfter(args: string[], ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", (_code, signal) => {
      clearTimeout(timer);
      resolve(signal === "SIGKILL");
    });
  });
}

function writerArgs(): string[] {
  if (rng.next() < 0.5) return ["precompute", spec, "--store", store, "--jobs", "2"];
  const algs = ["shift", "coloring", "four-stage", "two-stage"];
  const a = algs[Math.floor(rng.next() * algs.length)]!;
  const seed = String(1 + Math.floor(rng.next() * 50));
  return [
    "store",
    "add",
    store,
    join(work, `m${Math.floor(rng.next() * 6)}.json`),
    "-a",
    a,
    "--seed",
    seed,
    "--payload",
  ];
}

/** Every entry sound, and every job's entry (when present) equal to a fresh plan. */
function checkConsistent(round: number): void {
  const rep = verifyStore(openPlanStore(store));
  for (const d of rep.damaged) failures.push(`round ${round}: entry ${d.id} damaged: ${d.problem}`);
  const s = openPlanStore(store);
  for (const j of jobs.filter((_, k) => k % 7 === round % 7)) {
    const m = generatePattern(j.pattern, j.p, j.options, j.seed);
    const r = resolveStoreRequest(m, j.algorithm, { payload: j.payload, seed: j.seed, params: j.params });
    const got = getPlanById(s, r.id);
    if (
      got !== null &&
      scheduleToJsonText(got) !==
        scheduleToJsonText(plan(m, j.algorithm, { payload: j.payload, seed: j.seed, params: j.params }))
    )
      failures.push(`round ${round}: entry ${r.id} served a plan that differs from a fresh one`);
  }
}

/** Runs a batch of writers to the end (no kill); returns the longest's duration (ms): the span kills are drawn from, under the machine's load now. */
async function calibrate(): Promise<number> {
  const t = Date.now();
  const one = (): Promise<number> =>
    new Promise((resolve) =>
      spawn(process.execPath, [bin, ...writerArgs()], { stdio: "ignore" }).on("exit", () => resolve(Date.now() - t)),
    );
  return Math.max(...(await Promise.all(Array.from({ length: PARALLEL }, one))));
}

/** Removes about a third of the entries, so later writers keep writing (no writer runs meanwhile). */
function thinOut(): void {
  if (!existsSync(join(store, "entries"))) return;
  for (const pre of readdirSync(join(store, "entries")))
    for (const n of readdirSync(join(store, "entries", pre)))
      if (rng.next() < 0.33) rmSync(join(store, "entries", pre, n));
}

const t0 = Date.now();
let kills = 0,
  round = 0,
  span = 0;
const seenTemps = new Set<string>();
while (kills < KILLS) {
  if (round % 10 === 0) {
    thinOut();
    span = await calibrate();
  }
  // a random moment between the start-up (about a third of a run) and the end of the slowest writer of a batch
  const batch = Array.from({ length: PARALLEL }, () =>
    killAfter(writerArgs(), Math.floor(span * (0.2 + 0.6 * rng.next()))),
  );
  kills += (await Promise.all(batch)).filter(Boolean).length;
  for (const n of readdirSync(join(store, "tmp"))) seenTemps.add(n);
  checkConsistent(round++);
  if (failures.length > 0) break;
  if (round % 3 === 0) thinOut();
}
const written = readFileSync(join(store, "log"), "utf8").trim().split("\n").length;
const cli = spawnSync(process.execPath, [bin, "store", "verify", store], { encoding: "utf8" });
if (cli.status !== 0) failures.push(`store verify exit ${cli.status}: ${cli.stdout}${cli.stderr}`);
const gc = gcStore(openPlanStore(store));
// gcStore returns what it could not remove rather than throwing: any such path is a failure here
for (const f of gc.failed) failures.push(`gc could not remove ${f.file}: ${f.problem}`);
const entriesBefore = verifyStore(openPlanStore(store)).entries;

// two concurrent precompute runs over the same spec, into a fresh store: each entry written once
const fresh = join(work, "fresh");
const both = await Promise.all(
  [0, 1].map(
    () =>
      new Promise<number>((resolve) =>
        spawn(process.execPath, [bin, "precompute", spec, "--store", fresh, "--jobs", "2"], { stdio: "ignore" }).on(
          "exit",
          (code) => resolve(code ?? -1),
        ),
      ),
  ),
);
if (both.some((c) => c !== 0)) failures.push(`concurrent precompute exit codes ${both.join(", ")}`);
const rep = verifyStore(openPlanStore(fresh));
const log = readFileSync(join(fresh, "log"), "utf8")
  .trim()
  .split("\n")
  .map((l) => (JSON.parse(l) as { add: string }).add);
const perId = new Map<string, number>();
for (const id of log) perId.set(id, (perId.get(id) ?? 0) + 1);
if (rep.damaged.length > 0) failures.push(`concurrent: ${rep.damaged.length} damaged entries`);
if (rep.entries !== jobs.length) failures.push(`concurrent: ${rep.entries} entries, expected ${jobs.length}`);
if (perId.size !== rep.entries || [...perId.values()].some((n) => n !== 1))
  failures.push(`concurrent: ${log.length} creation records for ${rep.entries} entries (each must be written once)`);

const secs = ((Date.now() - t0) / 1000).toFixed(0);
if (failures.length > 0) {
  for (const f of failures.slice(0, 20)) process.stdout.write(`store-crash: FAIL ${f}\n`);
  process.stdout.write(`store-crash: the store is kept for inspection in ${work} (remove it when done)\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(
    `store-crash: ok: ${kills} SIGKILLs in ${round} rounds, store consistent after each (${written} entries written, ${entriesBefore} at the end; ${seenTemps.size} writers killed mid-write (their temp files: ${gc.temps} left for gc)); 2 concurrent precomputes wrote ${rep.entries} entries once each (${secs} s)\n`,
  );
  rmSync(work, { recursive: true, force: true });
}
