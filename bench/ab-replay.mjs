// A/B of two builds' program replay on the program-replay bench's cases (bench/program-replay.ts: P = 16, 64, 256,
// its schedules, both variants, both runtimes, the flat cluster, a fat tree and a dragonfly), in one process:
//
//   node bench/ab-replay.mjs OLD_DIST NEW_DIST [reps] [filter] [--solver] [--fresh-routes]
//
// e.g. the base commit built in /tmp/old (git archive HEAD | tar -x -C /tmp/old, node_modules linked, npm run build)
// against this checkout's dist. Each case replays on both builds alternately (the order swapped every repetition, so
// machine load hits both alike) and prints the least CPU time (user + system) of each; it fails when a replay's
// makespan, a rank's finish time or the event count differs by a bit. `filter` is a regular expression on the case's
// label. --solver times the max-min solver alone: the LmmSystem calls of each case (created, enabled, freed flows and
// solves), recorded from NEW's replay, run on a fresh system of each build; the rates of the last solve compared bit
// for bit. --fresh-routes compiles each case's network again, as the bench does (otherwise one per P and network).
// An A/A run (one build against a copy of it) shows the noise: about 1 % on the total, up to 5 % per case, on a
// shared 2-core machine.
import { resolve } from "node:path";
import process from "node:process";

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith("--")));
const [oldDir, newDir, repsArg, filter] = args.filter((a) => !a.startsWith("--"));
if (!oldDir || !newDir) {
  process.stderr.write(
    "usage: node bench/ab-replay.mjs OLD_DIST NEW_DIST [reps] [filter] [--solver] [--fresh-routes]\n",
  );
  process.exit(2);
}
const reps = Number(repsArg ?? 3);
const solverOnly = flags.has("--solver");

async function load(d) {
  const m = (p) => import(resolve(d, p));
  return {
    low: await m("lower/index.js"),
    rp: await m("machines/program-replay/replay-program.js"),
    lmm: await m("machines/program-replay/lmm-system.js"),
    pre: await m("machines/presets.js"),
    rt: await m("machines/runtime/runtime-model.js"),
    topo: await m("topology/index.js"),
    pat: await m("patterns/registry.js"),
    mat: await m("model/matrix.js"),
    sch: await m("model/schedule.js"),
    pl: await m("planner/registry.js"),
  };
}
const A = await load(oldDir);
const B = await load(newDir);
const sides = [A, B];
const machine = B.pre.findMachine("ib-hdr-200");

// the bench's matrix and "linear" schedule (runtimes/test/program-replay.ts), built with NEW's modules
const fidelityMatrix = (p) =>
  B.mat.withElementBytes(B.pat.generatePattern("wang-set2", p, { d: Math.min(8, p - 1), unit: 4 }, 7), 256);
function linearSchedule(m) {
  const s = B.pl.plan(m, "shift", { payload: true });
  const c = s.chunks;
  const header = { p: s.p, algorithm: "linear", params: {}, seed: s.seed, elementBytes: s.elementBytes };
  const b = new B.sch.ScheduleBuilder({ ...header, matrixDigest: s.matrixDigest }, true, s.transferCount);
  b.stage("linear", "compose");
  b.step();
  for (let x = 0; x < s.transferCount; x++) {
    b.transfer(s.src[x], s.dst[x], s.size[x]);
    for (let k = c.start[x]; k < c.start[x + 1]; k++) b.chunk(c.origin[k], c.dest[k], c.offset[k], c.count[k]);
  }
  return b.build();
}
const scheduleOf = (m, name) => (name === "linear" ? linearSchedule(m) : B.pl.plan(m, name, { payload: true }));
const networksOf = (p) => ["flat", p <= 128 ? "fat-tree:k=8,oversub=4" : "fat-tree:k=12,oversub=4", "dragonfly"];
const plannersOf = (p) =>
  p <= 64 ? ["linear", "shift", "two-stage", "coloring", "linear-permutation"] : ["linear", "shift", "two-stage"];
/** Each build's own routes of `network` (undefined: the replay's flat cluster). */
const routesOf = (network, p) =>
  sides.map((S) => (network === "flat" ? undefined : S.topo.compileRoutes(S.topo.buildTopology(network, p, machine))));

const cases = [];
for (const p of [16, 64, 256]) {
  const m = fidelityMatrix(p);
  for (const network of networksOf(p)) {
    const routes = routesOf(network, p);
    for (const schedule of plannersOf(p))
      for (const variant of ["nonblocking", "blocking"])
        for (const runtime of ["smpi", "ib-hdr-200-mpi"]) {
          const label = `P=${p} ${network} ${runtime} ${schedule} ${variant}`;
          if (filter && !new RegExp(filter).test(label)) continue;
          const prog = B.low.lowerSchedule(m, scheduleOf(m, schedule), { variant }).program;
          cases.push({ label, p, network, prog, runtime, routes });
        }
  }
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const replay = (s, c) =>
  sides[s].rp.replayProgram(c.prog, {
    machine,
    runtime: sides[s].rt.findRuntimeModel(c.runtime),
    ...(c.routes[s] ? { network: c.routes[s] } : {}),
  });
function sameReplay(x, y) {
  if (x.makespanUs !== y.makespanUs || x.events !== y.events || x.rankFinishUs.length !== y.rankFinishUs.length)
    return false;
  for (let i = 0; i < x.rankFinishUs.length; i++) if (x.rankFinishUs[i] !== y.rankFinishUs[i]) return false;
  return true;
}

/** NEW's LmmSystem calls during `c`'s replay: (code, op) pairs, 0 created, 1 enable, 2 free, 3 solve; its network. */
function recordCalls(c) {
  const proto = B.lmm.LmmSystem.prototype;
  const saved = {};
  const calls = [];
  let net = null;
  ["created", "enable", "free", "solve"].forEach((name, code) => {
    saved[name] = proto[name];
    proto[name] = function (x, touched) {
      net = this.net;
      calls.push(code, code === 3 ? 0 : x);
      return saved[name].call(this, x, touched);
    };
  });
  try {
    replay(1, c);
  } finally {
    for (const name of Object.keys(saved)) proto[name] = saved[name];
  }
  return { net, calls: Int32Array.from(calls) };
}
// one copy of the driver per build, so that neither build's calls share the other's type feedback
const driverSource = `return function drive(System, net, calls) {
  const lmm = new System(net, true);
  const n = net.routeStart.length - 1;
  const rate = new Float64Array(n), touched = new Int32Array(n);
  for (let i = 0; i < calls.length; i += 2) {
    const code = calls[i], op = calls[i + 1];
    if (code === 0) lmm.created(op);
    else if (code === 1) lmm.enable(op);
    else if (code === 2) lmm.free(op);
    else lmm.solve(rate, touched);
  }
  return rate;
}`;
const drivers = [new Function(driverSource)(), new Function(driverSource)()];

// warm-up (as the bench's): the first cases would otherwise run while V8 still compiles either build's replay
for (const c of cases.slice(0, 4)) for (let k = 0; k < 5; k++) for (const s of [0, 1]) replay(s, c);

const total = [0, 0];
let differ = 0;
for (const c of cases) {
  if (flags.has("--fresh-routes")) c.routes = routesOf(c.network, c.p);
  const rec = solverOnly ? recordCalls(c) : null;
  const run = solverOnly ? (s) => drivers[s](sides[s].lmm.LmmSystem, rec.net, rec.calls) : (s) => replay(s, c);
  const best = [Infinity, Infinity];
  const out = [null, null];
  for (let k = 0; k < reps; k++)
    for (const s of k % 2 ? [1, 0] : [0, 1]) {
      const t0 = cpuMs();
      out[s] = run(s);
      best[s] = Math.min(best[s], cpuMs() - t0);
    }
  const same = solverOnly ? out[0].every((r, i) => Object.is(r, out[1][i])) : sameReplay(out[0], out[1]);
  if (!same) differ++;
  total[0] += best[0];
  total[1] += best[1];
  process.stdout.write(
    `${c.label}: ${best[0].toFixed(1)} -> ${best[1].toFixed(1)} ms (${(best[1] / best[0]).toFixed(3)})${same ? "" : "  RESULTS DIFFER"}\n`,
  );
}
process.stdout.write(
  `${cases.length} cases, ${differ} differing; CPU ${total[0].toFixed(0)} -> ${total[1].toFixed(0)} ms ` +
    `(${(total[1] / total[0]).toFixed(3)}; least of ${reps} each)\n`,
);
if (differ > 0) process.exit(1);
