/** The program replay: SMPI's overhead rule, eager and rendezvous sends, weighted max-min, SimGrid's selective update. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerSchedule } from "../../src/lower/index.js";
import { findMachine } from "../../src/machines/presets.js";
import { flatClusterNetwork } from "../../src/machines/program-replay/cluster-network.js";
import { replayProgramOps } from "../../src/machines/program-replay/replay-engine.js";
import { replayOpsOf, type ReplayOps } from "../../src/machines/program-replay/replay-ops.js";
import { replayProgram } from "../../src/machines/program-replay/replay-program.js";
import { NO_OVERHEAD, overheadUs, parseOverhead, smpiOverheadText } from "../../src/machines/runtime/overhead.js";
import {
  findRuntimeModel,
  RUNTIME_MODELS,
  runtimeModelsFor,
  smpiConfigOf,
  withRuntime,
} from "../../src/machines/runtime/runtime-model.js";
import { simgridLinkParams } from "../../src/export/simgrid-platform.js";
import type { NetworkRoutes } from "../../src/model/network.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";
import { verifyProgram } from "../../src/verifier/index.js";

const machine = findMachine("ib-hdr-200");
const smpi = findRuntimeModel("smpi");
/** The cluster links' bandwidth (bytes/us). */
const bw = 1 / (machine.tc + machine.td);

/** Operations from a list of [rank, kind (0 send, 1 recv), peer, bytes], all of one nonblocking round per rank. */
function roundOps(p: number, list: readonly (readonly [number, number, number, number, number?])[]): ReplayOps {
  const sorted = [...list].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const rankStart = new Uint32Array(p + 1);
  for (const l of sorted) rankStart[l[0] + 1]!++;
  for (let r = 0; r < p; r++) rankStart[r + 1]! += rankStart[r]!;
  const n = sorted.length;
  return {
    p,
    rankStart,
    kind: Uint8Array.from(sorted.map((l) => l[1])),
    peer: Uint32Array.from(sorted.map((l) => l[2])),
    tag: Uint32Array.from(sorted.map((l) => l[4] ?? 0)),
    bytes: Float64Array.from(sorted.map((l) => l[3])),
    blocking: new Uint8Array(n),
    waitPrefix: Uint32Array.from(sorted.map((l) => rankStart[l[0]]!)),
    depStart: new Uint32Array(n + 1),
    deps: new Uint32Array(0),
  };
}

/** A hand-made network: links with bandwidth (bytes/us) and latency (us), and a route per (a, b). */
function network(hosts: number, links: readonly [number, number][], routes: Record<string, number[]>): NetworkRoutes {
  return {
    name: "test",
    hosts,
    links: links.length,
    bandwidth: Float64Array.from(links.map((l) => l[0])),
    latency: Float64Array.from(links.map((l) => l[1])),
    maxHops: Math.max(...Object.values(routes).map((r) => r.length)),
    linkLabel: (id) => `l${id}`,
    route(a, b, out) {
      const r = routes[`${a},${b}`]!;
      r.forEach((l, i) => (out[i] = l));
      return r.length;
    },
  };
}

describe("overheads (SMPI's smpi/os, smpi/or, smpi/ois)", () => {
  it("takes the first piece up to its bound, then the last piece whose bound is below the size", () => {
    // SimGrid's documentation example: smpi/os = 1:3:2;10:5:1 (seconds, seconds per byte)
    const o = parseOverhead("1:3:2;10:5:1", "os");
    expect(overheadUs(o, 0)).toBeCloseTo(3e6, 3);
    expect(overheadUs(o, 1)).toBeCloseTo(5e6, 3);
    expect(overheadUs(o, 5)).toBeCloseTo(13e6, 3);
    expect(overheadUs(o, 10)).toBeCloseTo(23e6, 3);
    expect(overheadUs(o, 11)).toBeCloseTo(16e6, 3);
    expect(overheadUs(NO_OVERHEAD, 1000)).toBe(0);
    expect(smpiOverheadText(parseOverhead(smpiOverheadText(o), "os"))).toBe(smpiOverheadText(o));
    expect(() => parseOverhead("1:2", "smpi/os")).toThrow(/smpi\/os: '1:2' is not size:seconds:seconds_per_byte/);
  });

  it("every runtime preset gives the SMPI flags that reproduce it, on the cluster the simgrid export writes", () => {
    expect(RUNTIME_MODELS.map((m) => m.name)).toEqual(["smpi", "ib-hdr-200-mpi"]);
    const cfg = smpiConfigOf(findRuntimeModel("ib-hdr-200-mpi"), machine);
    expect(cfg.cfg).toContain("--cfg=smpi/ois:0:3e-7:0");
    expect(cfg.cfg).toContain("--cfg=smpi/send-is-detached-thresh:65536");
    const link = simgridLinkParams(machine);
    expect(cfg.linkLatencyUs).toBe(link.latUs);
    expect(cfg.linkBytesPerSecond).toBeCloseTo(link.bytesPerSecond, 0);
    expect(runtimeModelsFor(findMachine("t3d-004")).map((m) => m.name)).toEqual(["smpi"]);
    expect(() => findRuntimeModel("smpii")).toThrow(/unknown runtime model 'smpii'/);
  });
});

describe("program replay engine", () => {
  const { routes, fatpipe } = flatClusterNetwork(2, machine);
  const one = (bytes: number, runtime = smpi): number =>
    replayProgramOps(
      roundOps(2, [
        [0, 0, 1, bytes],
        [1, 1, 0, bytes],
      ]),
      { network: routes, fatpipe, runtime, copyUsPerByte: 0 },
    ).makespanUs;

  it("one message costs the route's latency plus (bytes + 16) / bandwidth, and the overheads SMPI adds", () => {
    expect(one(1000)).toBeCloseTo(machine.ts + 1016 / bw, 9);
    expect(one(100000)).toBeCloseTo(machine.ts + 100016 / bw, 9);
    const mpi = findRuntimeModel("ib-hdr-200-mpi");
    // eager: ois before it leaves, or after it arrives; rendezvous: ois only
    expect(one(1000, mpi)).toBeCloseTo(0.3 + machine.ts + 1016 / bw + 0.3, 9);
    expect(one(100000, mpi)).toBeCloseTo(0.3 + machine.ts + 100016 / bw, 9);
  });

  it("routes every message on its own pair's links, above the ranks whose routes are kept per pair too", () => {
    // a ring: each rank sends one message to the next, so no two messages share a link and the exchange takes one
    // message's time, at P = 64 (routes kept per pair) and at P = 1030 (each route computed for its message)
    for (const p of [64, 1030]) {
      const net = flatClusterNetwork(p, machine);
      const list: [number, number, number, number][] = [];
      for (let r = 0; r < p; r++) list.push([r, 0, (r + 1) % p, 1000], [r, 1, (r + p - 1) % p, 1000]);
      const r = replayProgramOps(roundOps(p, list), {
        network: net.routes,
        fatpipe: net.fatpipe,
        runtime: smpi,
        copyUsPerByte: 0,
      });
      expect(r.makespanUs, `P = ${p}`).toBeCloseTo(machine.ts + 1016 / bw, 9);
    }
  });

  it("an eager blocking send returns at once, a rendezvous one waits for its receive", () => {
    // rank 0: send to 1, then receive from 1; rank 1: receive from 0 after a local copy, then send to 0
    const ops = (bytes: number): ReplayOps => ({
      p: 2,
      rankStart: Uint32Array.of(0, 2, 5),
      kind: Uint8Array.of(0, 1, 2, 1, 0),
      peer: Uint32Array.of(1, 1, 1, 0, 0),
      tag: new Uint32Array(5),
      bytes: Float64Array.of(bytes, bytes, 1e6, bytes, bytes),
      blocking: Uint8Array.of(1, 1, 1, 1, 1),
      waitPrefix: Uint32Array.of(0, 1, 2, 3, 4),
      depStart: new Uint32Array(6),
      deps: new Uint32Array(0),
    });
    const run = (bytes: number, eagerBytes: number): Float64Array =>
      replayProgramOps(ops(bytes), {
        network: routes,
        fatpipe,
        runtime: withRuntime(smpi, { eagerBytes }),
        copyUsPerByte: 1e-4,
      }).rankFinishUs;
    const copy = 1e6 * 1e-4;
    const m = machine.ts + 1016 / bw;
    // the first message leaves when rank 1 has copied and posted its receive, the second when it arrived; rank 1's
    // eager send returns at once (it finishes when the message leaves), its rendezvous send when the message arrived
    expect(run(1000, 65536)[1]).toBeCloseTo(copy + m, 9);
    expect(run(1000, 0)[1]).toBeCloseTo(copy + 2 * m, 9);
    expect(run(1000, 65536)[0]).toBeCloseTo(copy + 2 * m, 9);
    expect(run(1000, 0)[0]).toBeCloseTo(copy + 2 * m, 9);
  });
});

describe("program replay: links shared as SimGrid's lmm shares them", () => {
  it("flows share a link in proportion to 1 / (their route's latency), as CM02's penalty", () => {
    // host 0 sends 1 MB to hosts 1 and 2 over a shared link 0 (100 bytes/us); the routes' latencies are 1 and 3 us
    const net = network(
      3,
      [
        [100, 0.5],
        [1000, 0.5],
        [1000, 2.5],
      ],
      { "0,1": [0, 1], "0,2": [0, 2] },
    );
    const ops = roundOps(3, [
      [0, 0, 1, 1e6 - 16],
      [0, 0, 2, 1e6 - 16],
      [1, 1, 0, 1e6 - 16],
      [2, 1, 0, 1e6 - 16],
    ]);
    const r = replayProgramOps(ops, { network: net, runtime: smpi, copyUsPerByte: 0 });
    // both active from t = 3 (flow 1 from 1): 0 -> 1 runs at 75, 0 -> 2 at 25 until 0 -> 1 ends, then at 100
    // 0 -> 1 alone during [1, 3] at 100: 200 bytes; then 999800 / 75
    const t1 = 3 + 999800 / 75;
    const left2 = 1e6 - 25 * (t1 - 3);
    expect(r.rankFinishUs[1]).toBeCloseTo(t1, 6);
    expect(r.rankFinishUs[2]).toBeCloseTo(t1 + left2 / 100, 6);
  });

  it("reproduces SimGrid's selective update: a flow enabled after another of its host misses its other links", () => {
    // host 0 sends A (1000 B) to 1 and B (20000 B) to 2; the host link carries 25000 bytes/us, each core path 6250
    const net = network(
      3,
      [
        [25000, 0.1],
        [6250, 0.1],
        [25000, 0.1],
        [6250, 0.1],
        [25000, 0.1],
      ],
      { "0,1": [0, 1, 2], "0,2": [0, 3, 4] },
    );
    const ops = roundOps(3, [
      [0, 0, 1, 1000],
      [0, 0, 2, 20000],
      [1, 1, 0, 1000],
      [2, 1, 0, 20000],
    ]);
    const run = (selectiveUpdate: boolean): number =>
      replayProgramOps(ops, { network: net, runtime: smpi, copyUsPerByte: 0, selectiveUpdate }).makespanUs;
    // exact max-min: B runs at 6250 from t = 0.3
    expect(run(false)).toBeCloseTo(0.3 + 20016 / 6250, 9);
    // SimGrid (measured with SMPI 3.32 on the fat tree of the runtime test): while A is active, B is held by the host
    // link only and gets 25000 - 6250; A's 1016 bytes take 1016 / 6250 us
    const tA = 1016 / 6250;
    expect(run(true)).toBeCloseTo(0.3 + tA + (20016 - 18750 * tA) / 6250, 9);
  });
});

describe("program replay: errors and dependencies", () => {
  const { routes, fatpipe } = flatClusterNetwork(2, machine);

  it("refuses a message that is never received and reports a deadlock", () => {
    const lone = roundOps(2, [[0, 0, 1, 10]]);
    expect(() => replayProgramOps(lone, { network: routes, fatpipe, runtime: smpi, copyUsPerByte: 0 })).toThrow(
      /rank 0 sends to 1 \(tag 0\) a message that is never received/,
    );
    // both receive first, then send, with blocking calls: nothing can start
    const dead: ReplayOps = {
      p: 2,
      rankStart: Uint32Array.of(0, 2, 4),
      kind: Uint8Array.of(1, 0, 1, 0),
      peer: Uint32Array.of(1, 1, 0, 0),
      tag: new Uint32Array(4),
      bytes: Float64Array.of(8, 8, 8, 8),
      blocking: Uint8Array.of(1, 1, 1, 1),
      waitPrefix: Uint32Array.of(0, 1, 2, 3),
      depStart: new Uint32Array(5),
      deps: new Uint32Array(0),
    };
    expect(() => replayProgramOps(dead, { network: routes, fatpipe, runtime: smpi, copyUsPerByte: 0 })).toThrow(
      /program replay: deadlock: rank 0 waits forever before its operation 1 \(send to 1\)/,
    );
  });

  it("matches messages in order per (source, destination, tag) and names the first that does not match", () => {
    // rank 0 sends 8 bytes with tag 1, then 64 with tag 2; rank 1 receives tag 2 first: matched by tag, not by order
    const ops = (recvTags: readonly number[], recvBytes: readonly number[]): ReplayOps => ({
      p: 2,
      rankStart: Uint32Array.of(0, 2, 4),
      kind: Uint8Array.of(0, 0, 1, 1),
      peer: Uint32Array.of(1, 1, 0, 0),
      tag: Uint32Array.of(1, 2, ...recvTags),
      bytes: Float64Array.of(8, 64, ...recvBytes),
      blocking: new Uint8Array(4),
      waitPrefix: Uint32Array.of(0, 0, 2, 2),
      depStart: new Uint32Array(5),
      deps: new Uint32Array(0),
    });
    const o = { network: routes, fatpipe, runtime: smpi, copyUsPerByte: 0 };
    expect(replayProgramOps(ops([2, 1], [64, 8]), o).messages).toBe(2);
    expect(() => replayProgramOps(ops([1, 2], [64, 8]), o)).toThrow(
      /^machines: program replay: rank 0 sends 8 bytes to 1 \(tag 1\), which receives 64$/,
    );
    expect(() => replayProgramOps(ops([2, 3], [64, 8]), o)).toThrow(
      /^machines: program replay: rank 0 sends to 1 \(tag 1\) a message that is never received$/,
    );
    expect(() => replayProgramOps(ops([0, 2], [8, 64]), o)).toThrow(
      /^machines: program replay: rank 1 receives from 0 \(tag 0\) a message that is never sent$/,
    );
  });

  it("a dataflow order plugs in as explicit dependencies: an operation waits for its own list only", () => {
    // rank 0 sends to 1 and 2 in one round but its second send waits for its first (explicit dependency)
    const base = roundOps(3, [
      [0, 0, 1, 1e5],
      [0, 0, 2, 1e5],
      [1, 1, 0, 1e5],
      [2, 1, 0, 1e5],
    ]);
    const { routes: r3, fatpipe: f3 } = flatClusterNetwork(3, machine);
    const free = replayProgramOps(base, { network: r3, fatpipe: f3, runtime: smpi, copyUsPerByte: 0 });
    const chained = replayProgramOps(
      { ...base, depStart: Uint32Array.of(0, 0, 1, 1, 1), deps: Uint32Array.of(0) },
      { network: r3, fatpipe: f3, runtime: smpi, copyUsPerByte: 0 },
    );
    const one = machine.ts + 100016 / bw;
    expect(free.makespanUs).toBeCloseTo(machine.ts + 200032 / bw, 6);
    expect(chained.makespanUs).toBeCloseTo(2 * one, 6);
  });

  it("ready queues post whatever is ready, as the executor's dataflow loop: no operation holds back a later one", () => {
    // rank 0 receives from 1, then forwards to 2 (waits for the receive), then sends to 3 (waits for nothing)
    const ops: ReplayOps = {
      p: 4,
      rankStart: Uint32Array.of(0, 3, 4, 5, 6),
      kind: Uint8Array.of(1, 0, 0, 0, 1, 1),
      peer: Uint32Array.of(1, 2, 3, 0, 0, 0),
      tag: new Uint32Array(6),
      bytes: new Float64Array(6).fill(1e5),
      blocking: new Uint8Array(6),
      waitPrefix: Uint32Array.of(0, 0, 0, 3, 4, 5),
      depStart: Uint32Array.of(0, 0, 1, 1, 1, 1, 1),
      deps: Uint32Array.of(0),
    };
    const { routes: r4, fatpipe: f4 } = flatClusterNetwork(4, machine);
    const o = { network: r4, fatpipe: f4, runtime: smpi, copyUsPerByte: 0 };
    const inOrder = replayProgramOps(ops, o);
    const ready = replayProgramOps({ ...ops, readyQueue: true }, o);
    const one = machine.ts + 100016 / bw;
    // in order, the send to 3 waits behind the forward, which waits for the receive
    expect(inOrder.rankFinishUs[3]).toBeGreaterThan(1.9 * one);
    // from ready queues it leaves at once, beside the receive (each direction of rank 0's link has its own flow)
    expect(ready.rankFinishUs[3]).toBeCloseTo(one, 6);
    // and the forward, posted when the receive ends, has rank 0's link to itself: in order it shares it with the send
    expect(ready.rankFinishUs[2]).toBeCloseTo(2 * one, 6);
    expect(inOrder.rankFinishUs[2]).toBeGreaterThan(2.5 * one);
    // a cycle of dependencies is a deadlock named by rank
    const cyclic = {
      ...ops,
      readyQueue: true,
      depStart: Uint32Array.of(0, 1, 2, 2, 2, 2, 2),
      deps: Uint32Array.of(1, 0),
    };
    expect(() => replayProgramOps(cyclic, o)).toThrow(
      /program replay: deadlock: rank 0 waits forever with 2 of its operations not complete/,
    );
  });
});

describe("program replay: messages of one tag matched by counting each pair", () => {
  const { routes, fatpipe } = flatClusterNetwork(3, machine);
  const o = { network: routes, fatpipe, runtime: smpi, copyUsPerByte: 0 };

  it("pairs the k-th send of a pair with its k-th receive, and names the first problem as the walk does", () => {
    // rank 0 sends 8 then 64 bytes to 1, which receives 8 then 64
    const inOrder = roundOps(3, [
      [0, 0, 1, 8],
      [0, 0, 1, 64],
      [1, 1, 0, 8],
      [1, 1, 0, 64],
    ]);
    expect(replayProgramOps(inOrder, o).messages).toBe(2);
    // received in the other order: the first send meets the first receive
    const swapped = roundOps(3, [
      [0, 0, 1, 8],
      [0, 0, 1, 64],
      [1, 1, 0, 64],
      [1, 1, 0, 8],
    ]);
    expect(() => replayProgramOps(swapped, o)).toThrow(
      /^machines: program replay: rank 0 sends 8 bytes to 1 \(tag 0\), which receives 64$/,
    );
    // as many sends as receives, one receive from the wrong rank: the first unmatched in (source, destination) order
    const stray = roundOps(3, [
      [0, 0, 1, 8],
      [0, 0, 2, 8],
      [1, 1, 0, 8],
      [2, 1, 1, 8],
    ]);
    expect(() => replayProgramOps(stray, o)).toThrow(
      /^machines: program replay: rank 0 sends to 2 \(tag 0\) a message that is never received$/,
    );
  });
});

describe("program replay: messages of several tags matched by (source, destination, tag)", () => {
  const { routes, fatpipe } = flatClusterNetwork(3, machine);
  const o = { network: routes, fatpipe, runtime: smpi, copyUsPerByte: 0 };
  // [rank, kind, peer, bytes, tag]: rank 0 sends 8 bytes with tag 1, then 64 with tag 2, to rank 1
  const sends = [
    [0, 0, 1, 8, 1],
    [0, 0, 1, 64, 2],
  ] as const;

  it("pairs the k-th send of a pair with its k-th receive when their tags agree, and by tag when they come in another order", () => {
    const inOrder = replayProgramOps(roundOps(3, [...sends, [1, 1, 0, 8, 1], [1, 1, 0, 64, 2]]), o);
    expect(inOrder.messages).toBe(2);
    // the receives' tags in the other order: by place the 8-byte send would meet the 64-byte receive
    const swapped = replayProgramOps(roundOps(3, [...sends, [1, 1, 0, 64, 2], [1, 1, 0, 8, 1]]), o);
    expect(swapped.messages).toBe(2);
    expect(swapped.makespanUs).toBe(inOrder.makespanUs);
  });

  it("two sends of equal size whose tags the receives take in swapped order are matched by tag, not by place", () => {
    // blocking 1 MiB sends (rendezvous: a send waits for its receive), tags 1 then 2; rank 1 receives tag 2 first: by
    // tag nothing can start (each rank waits for the other's second call); paired by place (the sizes agree) it ran
    const mib = 1 << 20;
    const swapped: ReplayOps = {
      p: 2,
      rankStart: Uint32Array.of(0, 2, 4),
      kind: Uint8Array.of(0, 0, 1, 1),
      peer: Uint32Array.of(1, 1, 0, 0),
      tag: Uint32Array.of(1, 2, 2, 1),
      bytes: Float64Array.of(mib, mib, mib, mib),
      blocking: Uint8Array.of(1, 1, 1, 1),
      waitPrefix: Uint32Array.of(0, 1, 2, 3),
      depStart: new Uint32Array(5),
      deps: new Uint32Array(0),
    };
    const two = flatClusterNetwork(2, machine);
    const o2 = { network: two.routes, fatpipe: two.fatpipe, runtime: smpi, copyUsPerByte: 0 };
    expect(() => replayProgramOps(swapped, o2)).toThrow(/^machines: program replay: deadlock: rank 0 waits forever/);
    // the same tags in one order run
    const inOrder = { ...swapped, tag: Uint32Array.of(1, 2, 1, 2) };
    expect(replayProgramOps(inOrder, o2).messages).toBe(2);
  });

  it("names a message whose tag no receive has", () => {
    expect(() => replayProgramOps(roundOps(3, [...sends, [1, 1, 0, 8, 1], [1, 1, 0, 64, 3]]), o)).toThrow(
      /^machines: program replay: rank 0 sends to 1 \(tag 2\) a message that is never received$/,
    );
  });
});

describe("program replay of planned programs (property)", () => {
  const planners = ["shift", "two-stage", "coloring", "linear-permutation"];
  it("replays every planner's verified program in both variants: each message once, no deadlock, above the injection bound", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom(...planners),
        fc.constantFrom("nonblocking" as const, "blocking" as const, "dataflow" as const),
        fc.constantFrom(...RUNTIME_MODELS.map((m) => m.name)),
        (p, seed, planner, variant, rt) => {
          const m = generatePattern("random", p, { density: 0.6, max: 5000 }, seed);
          let s;
          try {
            s = plan(m, planner, { payload: true });
          } catch {
            return; // the planner refuses this P
          }
          const prog = lowerSchedule(m, s, { variant }).program;
          expect(verifyProgram(m, prog).ok).toBe(true);
          const r = replayProgram(prog, { machine, runtime: rt });
          const sends = prog.ops.kind.filter((k) => k === 0).length;
          expect(r.messages).toBe(sends);
          // a rank cannot finish before its bytes have come in through its link, nor the run before every byte left
          const out = new Float64Array(p),
            into = new Float64Array(p);
          for (let x = 0; x < prog.ops.kind.length; x++) {
            const b = prog.ops.count[x]! * prog.elementBytes + 16;
            if (prog.ops.kind[x] === 0) out[prog.ops.rank[x]!]! += b;
            if (prog.ops.kind[x] === 1) into[prog.ops.rank[x]!]! += b;
          }
          for (let r0 = 0; r0 < p; r0++) {
            expect(r.rankFinishUs[r0]! * (1 + 1e-12)).toBeGreaterThanOrEqual(into[r0]! / bw);
            expect(r.makespanUs * (1 + 1e-12)).toBeGreaterThanOrEqual(out[r0]! / bw);
          }
          expect(r.makespanUs).toBe(Math.max(...r.rankFinishUs));
          // the replay is a pure function of its input
          expect(replayProgram(prog, { machine, runtime: rt }).makespanUs).toBe(r.makespanUs);
          expect(replayOpsOf(prog).kind.length).toBe(prog.ops.kind.length);
        },
      ),
      { numRuns: 60, seed: 11 },
    );
  });
});
