import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findMachine } from "../../../src/machines/presets.js";
import { FlowNetwork } from "../../../src/machines/sim/flow-network.js";
import { timeKey } from "../../../src/machines/sim/heap.js";
import { simulateSchedule, type SimResult } from "../../../src/machines/sim/simulate.js";
import type { SimRequest } from "../../../src/machines/sim/flat-request.js";
import type { NetworkRoutes } from "../../../src/model/network.js";
import type { Schedule } from "../../../src/model/schedule.js";
import { fatTree, ring } from "./hand-networks.js";
import { handSchedule } from "../../helpers/schedule-edit.js";

/**
 * The filling of the flow model (max-min rates by progressive filling) finds its next link by a
 * list sorted once or by a heap, on keys packed with the link id or kept apart; every way must take the
 * links in the same order, so every replay must come out the same to the bit.
 */

/**
 * Max-min rates by progressive filling written plainly: every link that carries a flow is listed
 * with its share bw / count, keyed (timeKey(share), link); the smallest comes off; when its share
 * has grown since (capacity freed by flows fixed below it) it goes back with the new share,
 * otherwise its unfixed flows are fixed at that share, newest flow first (as FlowNetwork keeps a
 * link's flows), and every link of theirs loses the share. Flows are activated in index order.
 */
function plainFilling(bw: Float64Array, routes: number[][]): number[] {
  const count = new Array<number>(bw.length).fill(0);
  const on: number[][] = Array.from({ length: bw.length }, () => []);
  routes.forEach((r, f) => r.forEach((l) => (count[l]!++, on[l]!.unshift(f))));
  const capLeft = Array.from(bw),
    unfixed = count.slice();
  const rate = new Array<number>(routes.length).fill(NaN);
  const list: { val: number; l: number }[] = [];
  count.forEach((c, l) => void (c > 0 && list.push({ val: bw[l]! / c, l })));
  const before = (x: { val: number; l: number }, y: { val: number; l: number }): boolean =>
    timeKey(x.val) < timeKey(y.val) || (timeKey(x.val) === timeKey(y.val) && x.l < y.l);
  while (list.length > 0) {
    const i = list.reduce((b, x, j) => (before(x, list[b]!) ? j : b), 0);
    const { val, l } = list.splice(i, 1)[0]!;
    const n = unfixed[l]!;
    if (n === 0) continue;
    const share = Math.max(0, capLeft[l]!) / n;
    if (share > val) {
      list.push({ val: share, l });
      continue;
    }
    for (const f of on[l]!) {
      if (!Number.isNaN(rate[f])) continue;
      rate[f] = share;
      if (share === Infinity) continue;
      for (const l2 of routes[f]!) {
        capLeft[l2] = capLeft[l2]! - share;
        unfixed[l2]!--;
      }
    }
  }
  return rate;
}

/**
 * Bandwidths drawn from few values, so that shares tie often (the order then rests on the link
 * ids); 1e12 B/us makes keys too large to pack with the link id (the network falls back to
 * keys apart), Infinity gives links that never hold a flow back.
 */
const BANDWIDTHS = [0.5, 1, 1, 2, 3, 1e12, Infinity];

/** A random network of at most 9 hosts: a 2-level fat tree or a ring, with random bandwidths per link. */
const randomNetwork = fc
  .record({
    ring: fc.boolean(),
    leaves: fc.integer({ min: 1, max: 3 }),
    k: fc.integer({ min: 1, max: 3 }),
    oversub: fc.constantFrom(1, 2, 4),
    lat: fc.constantFrom(0, 0.5),
    bws: fc.array(fc.nat(BANDWIDTHS.length - 1), { minLength: 64, maxLength: 64 }),
  })
  .map(({ ring: isRing, leaves, k, oversub, lat, bws }): NetworkRoutes => {
    const net = isRing ? ring(Math.max(2, leaves * k), 1, lat) : fatTree(leaves, k, 1, oversub, lat);
    // only host 0's uplink may be infinite: a route of infinite links only drains at once, which
    // the tests of flow-network.test.ts cover; here most flows must share finite links
    const bandwidth = net.bandwidth.map((_, l) => {
      const bw = BANDWIDTHS[bws[l % bws.length]!]!;
      return bw === Infinity && l !== 0 ? 1 : bw;
    });
    return { ...net, bandwidth, linkLabel: net.linkLabel, route: net.route };
  });

/** Random steps of transfers on hosts below `p` (local copies included; sizes >= 1). */
const randomSteps = fc.array(
  fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 500 })), { maxLength: 14 }),
  { minLength: 1, maxLength: 4 },
);

/** The replay of `s` on `net` with the filling forced to sort its candidates (or keep a heap) and to pack its keys (or not). */
function run(s: Schedule, net: NetworkRoutes, req: SimRequest, sorted: boolean, pack: boolean): SimResult {
  const fill = { sortMax: sorted ? Infinity : 0, packKeys: pack };
  return simulateSchedule(s, findMachine("t3d-004"), { ...req, network: net, fill });
}

/** Asserts two replays equal to the bit: makespan, every transfer's end, the per-link books and the recomputation counts. */
function expectSame(a: SimResult, b: SimResult, what: string): void {
  expect(Object.is(a.makespan, b.makespan), `${what}: makespan ${a.makespan} vs ${b.makespan}`).toBe(true);
  expect(Array.from(a.transferEnd), what).toEqual(Array.from(b.transferEnd));
  expect(Array.from(a.network!.bytes), what).toEqual(Array.from(b.network!.bytes));
  expect(Array.from(a.network!.busy), what).toEqual(Array.from(b.network!.busy));
  expect(Array.from(a.network!.peakFlows), what).toEqual(Array.from(b.network!.peakFlows));
  expect(a.network!.flc, what).toBe(b.network!.flc);
  expect(a.network!.recompute, what).toEqual(b.network!.recompute);
}

describe("flow model: the filling's ways of finding the next link", () => {
  it("sorted list and heap, keys packed or apart, give the same replay to the bit (component and full recomputation)", () => {
    fc.assert(
      fc.property(
        randomNetwork,
        randomSteps,
        fc.constantFrom("blocking", "nonblocking" as const),
        fc.constantFrom("serial", "fair" as const),
        fc.constantFrom("component", "full" as const),
        (net, steps, mode, portSharing, flowRecompute) => {
          const p = net.hosts;
          const s = handSchedule(
            p,
            steps.map((st) => st.map(([a, d, z]) => [a % p, d % p, z] as [number, number, number])),
          );
          const req: SimRequest = { timeline: false, topology: "flat", mode, portSharing, flowRecompute };
          const ref = run(s, net, req, false, true);
          expectSame(run(s, net, req, true, true), ref, "sorted, packed");
          expectSame(run(s, net, req, false, false), ref, "heap, apart");
          expectSame(run(s, net, req, true, false), ref, "sorted, apart");
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the component recomputation agrees with the full one on these networks (1e-12 relative)", () => {
    fc.assert(
      fc.property(randomNetwork, randomSteps, fc.constantFrom("serial", "fair" as const), (net, steps, portSharing) => {
        const p = net.hosts;
        const s = handSchedule(
          p,
          steps.map((st) => st.map(([a, d, z]) => [a % p, d % p, z] as [number, number, number])),
        );
        const req: SimRequest = { timeline: false, topology: "flat", portSharing };
        const local = run(s, net, req, true, true);
        const full = run(s, net, { ...req, flowRecompute: "full" }, false, true);
        const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));
        expect(close(local.makespan, full.makespan), `${local.makespan} vs ${full.makespan}`).toBe(true);
        local.network!.busy.forEach((v, l) => expect(close(v, full.network!.busy[l]!), `link ${l}`).toBe(true));
      }),
      { numRuns: 150 },
    );
  });

  it("one filling from scratch gives the rates of the plain progressive filling to the bit", () => {
    fc.assert(
      fc.property(
        randomNetwork.filter((net) => net.latency[0] === 0),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 500 })), { minLength: 1, maxLength: 16 }),
        fc.boolean(),
        fc.boolean(),
        (net, raw, sorted, pack) => {
          const flows = raw.map(([a, b, z]) => [a % net.hosts, b % net.hosts, z] as const).filter(([a, b]) => a !== b);
          const due = new Map<number, number>();
          const fill = { sortMax: sorted ? Infinity : 0, packKeys: pack };
          // no latency: every flow is active at once, and one flush fills them all from scratch
          const fn = new FlowNetwork(net, flows.length, { push: (t, id) => void due.set(id, t) }, flows.length, 1, {
            fill,
          });
          flows.forEach(([a, b, z], x) => fn.begin(x, a, b, z, 0, 0, x));
          fn.flush();
          const out = new Int32Array(net.maxHops);
          const routes = flows.map(([a, b]) => Array.from(out.subarray(0, net.route(a, b, out))));
          const rates = plainFilling(net.bandwidth, routes);
          flows.forEach(([, , z], x) => {
            const want = 0 + z / rates[x]!;
            expect(Object.is(due.get(x), want), `flow ${x}: ${due.get(x)} vs ${want}`).toBe(true);
          });
        },
      ),
      { numRuns: 400 },
    );
  });
});
