// A/B timing of two builds of commplan in one process: `node bench/ab.mjs OLD_DIST NEW_DIST [reps]`, e.g. a worktree of
// the base commit built with `npx tsc -p tsconfig.build.json` against this checkout's dist. Each case runs on both
// builds alternately (the order swapped every repetition) and prints the best time of each and their ratio, so machine
// load hits both alike. It imports modules by their dist paths: cases whose module moved between the builds are looked
// up under both paths.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";

const [oldDir, newDir, repsArg] = process.argv.slice(2);
if (!oldDir || !newDir) {
  process.stderr.write("usage: node bench/ab.mjs OLD_DIST NEW_DIST [reps]\n");
  process.exit(2);
}
const reps = Number(repsArg ?? 5);

/** The first of `paths` that exists in dist `d`, imported. */
async function mod(d, ...paths) {
  for (const p of paths) if (existsSync(resolve(d, p))) return import(resolve(d, p));
  throw new Error(`${d}: none of ${paths.join(", ")}`);
}

async function load(d) {
  return {
    pat: await mod(d, "patterns/registry.js"),
    reg: await mod(d, "planner/registry.js"),
    pre: await mod(d, "machines/presets.js"),
    sim: await mod(d, "machines/sim/simulate.js"),
    pro: await mod(d, "machines/sim/protocols.js"),
    low: await mod(d, "lower/lower-schedule.js"),
    ver: await mod(d, "verifier/verify.js"),
    auto: await mod(d, "auto/index.js", "compare/auto.js"),
  };
}

const a = await load(oldDir);
const b = await load(newDir);
const gen = (name, p) => a.pat.generatePattern(name, p, {}, 1);
const uniform = {
  64: gen("uniform", 64),
  128: gen("uniform", 128),
  256: gen("uniform", 256),
  1024: gen("uniform", 1024),
};
const shift = Object.fromEntries(Object.entries(uniform).map(([p, m]) => [p, a.reg.plan(m, "shift", {})]));
const two = a.reg.plan(uniform[128], "two-stage", { payload: true });
const spike = { 256: gen("pattern1", 256), 512: gen("pattern1", 512) };
const mixed = gen("liu-pattern3", 64);

const cases = [
  ...[64, 256, 1024].flatMap((p) =>
    ["blocking", "nonblocking"].map((mode) => [
      `replay shift P=${p} ${mode}`,
      (L) => L.sim.simulateSchedule(shift[p], L.pre.findMachine("t3d-004"), { mode, timeline: false }).makespan,
    ]),
  ),
  ...[256, 512].flatMap((p) =>
    ["async", "drs-n"].map((protocol) => [
      `${protocol} pattern1 P=${p}`,
      (L) => L.pro.runProtocol(spike[p], L.pre.findMachine("cm5-004"), { protocol, timeline: false }).makespan,
    ]),
  ),
  ["lower two-stage payload P=128", (L) => L.low.lowerSchedule(uniform[128], two, {}).program.rounds],
  ["lower shift P=1024", (L) => L.low.lowerSchedule(uniform[1024], shift[1024], {}).program.rounds],
  ["verify two-stage payload P=128", (L) => L.ver.verifySchedule(uniform[128], two).ok],
  ["plan coloring P=256", (L) => L.reg.plan(uniform[256], "coloring", {}).transferCount],
  ["auto liu-pattern3 P=64 t3d-004", (L) => L.auto.planAuto(mixed, L.pre.findMachine("t3d-004")).schedule.algorithm],
];

for (const [name, f] of cases) {
  const best = [Infinity, Infinity];
  const out = [null, null];
  for (let k = 0; k < reps; k++)
    for (const side of k % 2 ? [1, 0] : [0, 1]) {
      const t0 = performance.now();
      out[side] = f(side === 0 ? a : b);
      best[side] = Math.min(best[side], performance.now() - t0);
    }
  const same = out[0] === out[1] ? "" : `  (results differ: ${out[0]} / ${out[1]})`;
  process.stdout.write(
    `${name.padEnd(34)} old ${best[0].toFixed(1).padStart(9)} ms  new ${best[1].toFixed(1).padStart(9)} ms  new/old ${(best[1] / best[0]).toFixed(2)}${same}\n`,
  );
}
