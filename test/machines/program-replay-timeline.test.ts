/**
 * The program replay's timeline (simulate --program / --library with --svg or --trace): what each rank did and when,
 * recorded without changing a single time of the replay.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerSchedule } from "../../src/lower/index.js";
import { findMachine } from "../../src/machines/presets.js";
import { flatClusterNetwork } from "../../src/machines/program-replay/cluster-network.js";
import { replayProgramOps } from "../../src/machines/program-replay/replay-engine.js";
import type { ReplayOps } from "../../src/machines/program-replay/replay-ops.js";
import { replayProgram } from "../../src/machines/program-replay/replay-program.js";
import { overheadUs } from "../../src/machines/runtime/overhead.js";
import { findRuntimeModel } from "../../src/machines/runtime/runtime-model.js";
import { TIMELINE_NONE, type Timeline } from "../../src/model/timeline.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";

const machine = findMachine("ib-hdr-200");

/** One message of `bytes` from rank 0 to rank 1, each rank's only operation (a nonblocking round, then its wait). */
function oneMessage(bytes: number): ReplayOps {
  return {
    p: 2,
    rankStart: Uint32Array.of(0, 1, 2),
    kind: Uint8Array.of(0, 1),
    peer: Uint32Array.of(1, 0),
    tag: new Uint32Array(2),
    bytes: Float64Array.of(bytes, bytes),
    blocking: new Uint8Array(2),
    waitPrefix: Uint32Array.of(0, 1),
    depStart: new Uint32Array(3),
    deps: new Uint32Array(0),
  };
}

/** The intervals of `kind` on `node`, as [start, end, peer, size]. */
function intervals(tl: Timeline, node: number, kind: string): [number, number, number, number][] {
  const k = tl.kindNames.indexOf(kind);
  const out: [number, number, number, number][] = [];
  for (let i = 0; i < tl.count; i++)
    if (tl.node[i] === node && tl.kind[i] === k) out.push([tl.start[i]!, tl.end[i]!, tl.peer[i]!, tl.size[i]!]);
  return out;
}

describe("program replay timeline: one message", () => {
  const cluster = flatClusterNetwork(2, machine);
  const replay = (bytes: number, runtime: string) =>
    replayProgramOps(oneMessage(bytes), {
      network: cluster.routes,
      fatpipe: cluster.fatpipe,
      runtime: findRuntimeModel(runtime),
      copyUsPerByte: machine.tm,
      timeline: true,
    });

  it("a rendezvous message: the send and the receive from their post to its end, each rank waiting meanwhile", () => {
    const r = replay(1 << 20, "smpi");
    const tl = r.timeline!;
    expect(tl.sizeUnit).toBe("bytes");
    const end = r.makespanUs;
    expect(intervals(tl, 0, "send")).toEqual([[0, end, 1, 1 << 20]]);
    expect(intervals(tl, 1, "recv")).toEqual([[0, end, 0, 1 << 20]]);
    // each rank posted its operation at 0, then waited in its round's waitall until the message ended
    expect(intervals(tl, 0, "wait")).toEqual([[0, end, TIMELINE_NONE, 0]]);
    expect(intervals(tl, 1, "wait")).toEqual([[0, end, TIMELINE_NONE, 0]]);
    expect(intervals(tl, 0, "cpu")).toEqual([]);
  });

  it("an eager message with overheads: the sender's ois before its post, the receiver's or after the data arrives", () => {
    const rt = findRuntimeModel("ib-hdr-200-mpi");
    const bytes = 1024;
    expect(bytes).toBeLessThan(rt.eagerBytes);
    const r = replay(bytes, "ib-hdr-200-mpi");
    const tl = r.timeline!;
    const ois = overheadUs(rt.isendOverhead, bytes),
      or = overheadUs(rt.recvOverhead, bytes);
    expect(ois).toBeGreaterThan(0);
    expect(or).toBeGreaterThan(0);
    expect(intervals(tl, 0, "cpu")).toEqual([[0, ois, TIMELINE_NONE, bytes]]);
    const [send] = intervals(tl, 0, "send");
    expect(send![0]).toBe(ois);
    // the receive overhead is the last thing the receiver does; its receive ends with it
    const [cpu1] = intervals(tl, 1, "cpu");
    expect(cpu1![1]).toBe(r.rankFinishUs[1]);
    expect(cpu1![1] - cpu1![0]).toBeCloseTo(or, 9);
    expect(cpu1![0]).toBe(send![1]);
    expect(intervals(tl, 1, "recv")).toEqual([[0, r.rankFinishUs[1], 0, bytes]]);
    // the receiver waits from its post until the data arrives, not while it pays the overhead
    expect(intervals(tl, 1, "wait")).toEqual([[0, cpu1![0], TIMELINE_NONE, 0]]);
  });
});

/** Checks what holds of any replay's timeline against its result without a timeline. */
function checkTimeline(tl: Timeline, finish: Float64Array, p: number): void {
  const cpuKinds = new Set(["cpu", "copy"].map((k) => tl.kindNames.indexOf(k)));
  const wait = tl.kindNames.indexOf("wait"),
    send = tl.kindNames.indexOf("send");
  const makespan = Math.max(...finish);
  for (let r = 0; r < p; r++) {
    const mine: [number, number, number][] = [];
    for (let i = 0; i < tl.count; i++) {
      if (tl.node[i] !== r) continue;
      expect(tl.start[i]!).toBeGreaterThanOrEqual(0);
      expect(tl.end[i]!).toBeGreaterThan(tl.start[i]!);
      // an eager send completes at its post, so its rank may finish while the data still travels
      const last = tl.kind[i] === send ? makespan : finish[r]!;
      expect(tl.end[i]!).toBeLessThanOrEqual(last + 1e-9);
      expect(tl.peer[i] === TIMELINE_NONE || tl.peer[i]! < p).toBe(true);
      if (cpuKinds.has(tl.kind[i]!) || tl.kind[i] === wait) mine.push([tl.start[i]!, tl.end[i]!, tl.kind[i]!]);
    }
    // a rank is on its CPU or waiting, one thing at a time: those intervals never overlap
    mine.sort((a, b) => a[0] - b[0]);
    for (let j = 1; j < mine.length; j++) expect(mine[j]![0]).toBeGreaterThanOrEqual(mine[j - 1]![1] - 1e-9);
  }
}

describe("program replay timeline (property)", () => {
  it("recording the timeline changes no time, event or count, bit for bit; its intervals obey the ranks' rules", () => {
    const planners = ["shift", "two-stage", "coloring", "linear-permutation"];
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom(...planners),
        fc.constantFrom("nonblocking", "blocking", "dataflow"),
        fc.constantFrom("smpi", "ib-hdr-200-mpi"),
        (p, seed, name, variant, runtime) => {
          const m = generatePattern("random", p, { density: 0.6, max: 3000 }, seed);
          const prog = lowerSchedule(m, plan(m, name, { payload: true }), {
            variant: variant as "nonblocking",
          }).program;
          const off = replayProgram(prog, { machine, runtime });
          const on = replayProgram(prog, { machine, runtime, timeline: true });
          expect(off.timeline).toBeUndefined();
          expect(on.makespanUs).toBe(off.makespanUs);
          expect(Array.from(on.rankFinishUs)).toEqual(Array.from(off.rankFinishUs));
          expect([on.events, on.recomputes, on.messages]).toEqual([off.events, off.recomputes, off.messages]);
          const tl = on.timeline!;
          checkTimeline(tl, on.rankFinishUs, p);
          // every message with a duration shows on both ranks: as many sends as receives, at most one each
          const count = (kind: string) => tl.kind.filter((k) => k === tl.kindNames.indexOf(kind)).length;
          expect(count("send")).toBeLessThanOrEqual(on.messages);
          expect(count("recv")).toBeLessThanOrEqual(on.messages);
          if (on.makespanUs > 0 && on.messages > 0) expect(count("send")).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40, seed: 11 },
    );
  });
});
