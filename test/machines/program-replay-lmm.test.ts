/**
 * LmmSystem, the program replay's max-min solver: its incremental solve (the previous solve's steps replayed for the
 * links that did not change) gives the rates a solve from scratch gives, bit for bit, and those rates are the
 * weighted max-min allocation a plain progressive filling computes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LmmSystem, type LmmNetwork } from "../../src/machines/program-replay/lmm-system.js";
import { errorOf } from "../helpers/errors.js";

interface Case {
  readonly net: LmmNetwork;
  /** Enable (flow id >= 0) or free (~flow id), then a solve after each batch. */
  readonly batches: readonly (readonly number[])[];
}

/** A seeded linear congruential generator: rnd(k) is in 0 .. k - 1. */
function lcg(seed: number): (k: number) => number {
  let s = seed;
  return (k) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % k;
  };
}

/**
 * A random network from `rnd`: links (a few FATPIPE), each flow's route of `hops()` distinct links, weights from a few
 * values (ties).
 */
function randomNetwork(links: number, flows: number, rnd: (k: number) => number, hops: () => number): LmmNetwork {
  const bandwidth = Float64Array.from({ length: links }, () => [10, 10, 25, 12.5][rnd(4)]!);
  const fatpipe = Uint8Array.from({ length: links }, () => (rnd(6) === 0 ? 1 : 0));
  const routeStart = new Int32Array(flows + 1);
  const routeLinks: number[] = [];
  const weight = new Float64Array(flows);
  for (let f = 0; f < flows; f++) {
    const n = hops();
    const used = new Set<number>();
    while (used.size < n) used.add(rnd(links));
    routeLinks.push(...used);
    routeStart[f + 1] = routeLinks.length;
    weight[f] = 1 / [1, 1, 3, 0.7][rnd(4)]!;
  }
  return { links, bandwidth, fatpipe, routeStart, routeLinks: Int32Array.from(routeLinks), weight };
}

/** A random network: links (a few FATPIPE), routes of 1 to 4 distinct links, weights from a few values (ties). */
const caseArb: fc.Arbitrary<Case> = fc
  .record({
    links: fc.integer({ min: 1, max: 12 }),
    flows: fc.integer({ min: 1, max: 40 }),
    seed: fc.integer({ min: 0, max: 2 ** 30 }),
    batch: fc.integer({ min: 1, max: 4 }),
  })
  .map(({ links, flows, seed, batch }) => {
    const rnd = lcg(seed);
    const net = randomNetwork(links, flows, rnd, () => 1 + rnd(Math.min(4, links)));
    // every flow is enabled once and freed once, in a random interleaving; a solve after every `batch` changes
    const events: number[] = [];
    const live: number[] = [];
    let next = 0;
    while (next < flows || live.length > 0) {
      if (next < flows && (live.length === 0 || rnd(3) > 0)) {
        events.push(next);
        live.push(next++);
      } else events.push(~live.splice(rnd(live.length), 1)[0]!);
    }
    const batches: number[][] = [];
    for (let i = 0; i < events.length; i += batch) batches.push(events.slice(i, i + batch));
    return { net, batches };
  });

const CREATED = 0,
  ENABLE = 1,
  FREE = 2,
  SOLVE = 3;

/**
 * A random network (up to 40 links, some routes empty) and a sequence of changes as the engine makes them: each flow
 * created (its latency to elapse) or not, enabled, freed, in any interleaving, with solves in between.
 */
const actionsArb: fc.Arbitrary<{ net: LmmNetwork; actions: [number, number][] }> = fc
  .record({
    links: fc.integer({ min: 1, max: 40 }),
    flows: fc.integer({ min: 1, max: 200 }),
    seed: fc.integer({ min: 0, max: 2 ** 30 }),
  })
  .map(({ links, flows, seed }) => {
    const rnd = lcg(seed);
    const net = randomNetwork(links, flows, rnd, () => (rnd(5) === 0 ? 0 : 1 + rnd(Math.min(5, links))));
    return { net, actions: randomChanges(flows, rnd, false) };
  });

/**
 * Changes as the engine makes them, from `rnd`: 3 * flows times a random flow moves on (created, its latency to elapse,
 * or enabled at once; enabled; freed; nothing once freed), after a solve every time (`solveEach`) or one time in three;
 * a solve at the end.
 */
function randomChanges(flows: number, rnd: (k: number) => number, solveEach: boolean): [number, number][] {
  // per flow 0 new, 1 created, 2 enabled, 3 freed
  const state = new Uint8Array(flows);
  const actions: [number, number][] = [];
  for (let i = 0; i < 3 * flows; i++) {
    const f = rnd(flows);
    if (solveEach || rnd(3) === 0) actions.push([SOLVE, 0]);
    if (state[f] === 0 && rnd(2) === 0) {
      actions.push([CREATED, f]);
      state[f] = 1;
    } else if (state[f]! < 2) {
      actions.push([ENABLE, f]);
      state[f] = 2;
    } else if (state[f] === 2) {
      actions.push([FREE, f]);
      state[f] = 3;
    }
  }
  actions.push([SOLVE, 0]);
  return actions;
}

/** Weighted max-min by plain progressive filling over every link of the enabled flows (floating point, O(n^2)). */
function maxMinReference(net: LmmNetwork, enabled: readonly number[]): Map<number, number> {
  const rate = new Map<number, number>();
  const left = new Set(enabled);
  const links = (f: number): number[] => [...net.routeLinks.subarray(net.routeStart[f]!, net.routeStart[f + 1]!)];
  while (left.size > 0) {
    let best = Infinity;
    for (let l = 0; l < net.links; l++) {
      const on = enabled.filter((f) => links(f).includes(l));
      const open = on.filter((f) => left.has(f));
      if (open.length === 0) continue;
      const share = net.fatpipe[l]
        ? net.bandwidth[l]! / Math.max(...on.map((f) => net.weight[f]!))
        : (net.bandwidth[l]! - on.filter((f) => rate.has(f)).reduce((a, f) => a + rate.get(f)!, 0)) /
          open.reduce((a, f) => a + net.weight[f]!, 0);
      best = Math.min(best, share);
    }
    // fix every flow crossing a link at the least share
    const fixNow: number[] = [];
    for (let l = 0; l < net.links; l++) {
      const on = enabled.filter((f) => links(f).includes(l));
      const open = on.filter((f) => left.has(f));
      if (open.length === 0) continue;
      const share = net.fatpipe[l]
        ? net.bandwidth[l]! / Math.max(...on.map((f) => net.weight[f]!))
        : (net.bandwidth[l]! - on.filter((f) => rate.has(f)).reduce((a, f) => a + rate.get(f)!, 0)) /
          open.reduce((a, f) => a + net.weight[f]!, 0);
      if (share <= best * (1 + 1e-12)) fixNow.push(...open);
    }
    for (const f of fixNow)
      if (left.has(f)) {
        rate.set(f, best * net.weight[f]!);
        left.delete(f);
      }
  }
  return rate;
}

/** Runs the case on one system (incremental); after each solve, the rates of every enabled flow. */
function runIncremental(c: Case, selective: boolean): Float64Array[] {
  const F = c.net.routeStart.length - 1;
  const lmm = new LmmSystem(c.net, selective);
  const rate = new Float64Array(F),
    touched = new Int32Array(F);
  const out: Float64Array[] = [];
  const on = new Set<number>();
  for (const b of c.batches) {
    for (const x of b)
      if (x >= 0) {
        lmm.enable(x);
        on.add(x);
      } else {
        lmm.free(~x);
        on.delete(~x);
        rate[~x] = NaN;
      }
    if (lmm.modified) lmm.solve(rate, touched);
    out.push(Float64Array.from(rate, (r, f) => (on.has(f) ? r : NaN)));
  }
  return out;
}

describe("LmmSystem: the incremental max-min solve", () => {
  it("gives, after every change, the rates of a solve from scratch of the same flows, bit for bit", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const F = c.net.routeStart.length - 1;
        const inc = runIncremental(c, false);
        // from scratch: a fresh system, the enabled flows enabled in the same order, one solve
        const order: number[] = [];
        c.batches.forEach((b, i) => {
          for (const x of b) {
            if (x >= 0) order.push(x);
            else order.splice(order.indexOf(~x), 1);
          }
          const fresh = new LmmSystem(c.net, false);
          for (const f of order) fresh.enable(f);
          const rate = new Float64Array(F).fill(NaN);
          if (order.length > 0) fresh.solve(rate, new Int32Array(F));
          expect(Array.from(inc[i]!)).toEqual(Array.from(rate));
        });
      }),
      { numRuns: 300 },
    );
  });

  it("reports as touched every flow whose rate it changed, and gives the weighted max-min allocation", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const F = c.net.routeStart.length - 1;
        const lmm = new LmmSystem(c.net, false);
        const rate = new Float64Array(F),
          seen = new Float64Array(F),
          touched = new Int32Array(F);
        const on: number[] = [];
        for (const b of c.batches) {
          for (const x of b)
            if (x >= 0) {
              lmm.enable(x);
              on.push(x);
              seen[x] = NaN;
            } else {
              lmm.free(~x);
              on.splice(on.indexOf(~x), 1);
            }
          if (!lmm.modified) continue;
          const n = lmm.solve(rate, touched);
          for (let i = 0; i < n; i++) seen[touched[i]!] = rate[touched[i]!]!;
          // the engine only learns rates through `touched`: what it holds must be the solve's rates
          const ref = maxMinReference(c.net, on);
          for (const f of on) {
            expect(seen[f]).toBe(rate[f]);
            expect(Math.abs(seen[f]! - ref.get(f)!)).toBeLessThanOrEqual(1e-9 * ref.get(f)!);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("with selective update too, incremental and from-scratch solves of the marked links agree bit for bit", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const F = c.net.routeStart.length - 1;
        const a = new LmmSystem(c.net, true),
          b = new LmmSystem(c.net, true, false);
        const ra = new Float64Array(F),
          rb = new Float64Array(F),
          touched = new Int32Array(F);
        for (const batch of c.batches) {
          for (const x of batch) {
            if (x >= 0) {
              a.enable(x);
              b.enable(x);
            } else {
              a.free(~x);
              b.free(~x);
            }
          }
          if (a.modified) a.solve(ra, touched);
          if (b.modified) b.solve(rb, touched);
          expect(Array.from(ra)).toEqual(Array.from(rb));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the same rates bit for bit whether it scans its dirty links or turns them into a heap, early or late", () => {
    fc.assert(
      fc.property(caseArb, fc.boolean(), (c, selective) => {
        const F = c.net.routeStart.length - 1;
        // scanMax 0 and 2: a list that turns into the heap after one scan or a few; 1000: always the list
        const systems = [0, 2, 1000].map((scanMax) => new LmmSystem(c.net, selective, true, scanMax));
        const rates = systems.map(() => new Float64Array(F));
        const touched = new Int32Array(F);
        for (const batch of c.batches) {
          for (const x of batch)
            for (const s of systems)
              if (x >= 0) s.enable(x);
              else s.free(~x);
          systems.forEach((s, i) => {
            if (s.modified) s.solve(rates[i]!, touched);
          });
          expect(Array.from(rates[0]!)).toEqual(Array.from(rates[2]!));
          expect(Array.from(rates[1]!)).toEqual(Array.from(rates[2]!));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("LmmSystem: the selective update's marked links", () => {
  it("with selective update, marking every live link of one component without a search changes no rate", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const F = c.net.routeStart.length - 1;
        // the flows of the next batch are created (their latency to elapse) at the end of this one, as the engine does
        const systems = [true, false].map((shortcut) => new LmmSystem(c.net, true, true, undefined, shortcut));
        const rates = systems.map(() => new Float64Array(F));
        const touched = new Int32Array(F);
        c.batches.forEach((batch, i) => {
          for (const s of systems) {
            for (const x of batch)
              if (x >= 0) s.enable(x);
              else s.free(~x);
            for (const x of c.batches[i + 1] ?? []) if (x >= 0) s.created(x);
          }
          systems.forEach((s, j) => {
            if (s.modified) s.solve(rates[j]!, touched);
          });
          expect(Array.from(rates[0]!)).toEqual(Array.from(rates[1]!));
        });
      }),
      { numRuns: 300 },
    );
  });

  it("leaving out the components that would repeat their last solve changes no rate, flows created at any time", () => {
    fc.assert(
      fc.property(actionsArb, (c) => {
        const F = c.net.routeStart.length - 1;
        // the references mark by searches only and solve every marked link anew
        const systems = [
          new LmmSystem(c.net, true),
          new LmmSystem(c.net, true, true, undefined, false, false),
          new LmmSystem(c.net, true, false, undefined, true, false),
        ];
        const rates = systems.map(() => new Float64Array(F));
        const touched = new Int32Array(F);
        const on = new Set<number>();
        for (const [act, f] of c.actions) {
          for (const s of systems)
            if (act === CREATED) s.created(f);
            else if (act === ENABLE) s.enable(f);
            else if (act === FREE) s.free(f);
            else if (s.modified) s.solve(rates[systems.indexOf(s)]!, touched);
          if (act === ENABLE) on.add(f);
          if (act === FREE) on.delete(f);
          if (act !== SOLVE) continue;
          // the engine reads the rates of flows in progress only
          for (const g of on) {
            expect(rates[0]![g]).toBe(rates[1]![g]);
            expect(rates[0]![g]).toBe(rates[2]![g]);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("LmmSystem: the pool of link slices", () => {
  it("keeps its rates when many flows share few links (their slices moved to the pool's end as they fill)", () => {
    // 3 links, 150 flows: a link's slice of places fills and moves several times, the pool grows
    const rnd = lcg(12345);
    const net = randomNetwork(3, 150, rnd, () => 1 + rnd(3));
    const F = 150;
    const heap = new LmmSystem(net, false, true, 0),
      scan = new LmmSystem(net, false, true, 1000);
    const rh = new Float64Array(F),
      rs = new Float64Array(F),
      touched = new Int32Array(F);
    const on: number[] = [];
    const check = (): void => {
      heap.solve(rh, touched);
      scan.solve(rs, touched);
      const ref = maxMinReference(net, on);
      for (const f of on) {
        expect(rh[f]).toBe(rs[f]);
        expect(Math.abs(rh[f]! - ref.get(f)!)).toBeLessThanOrEqual(1e-9 * ref.get(f)!);
      }
    };
    for (let f = 0; f < F; f++) {
      heap.enable(f);
      scan.enable(f);
      on.push(f);
      if (f % 10 === 9) check();
    }
    while (on.length > 0) {
      const f = on.splice(rnd(on.length), 1)[0]!;
      heap.free(f);
      scan.free(f);
      if (on.length % 10 === 0 && on.length > 0) check();
    }
  });
});

/**
 * A network shaped like the replay's: each host's private up and down links, a few shared core links; a flow from
 * host a to b crosses a's up link, none to two core links and b's down link. Changes from randomChanges, a solve after each.
 */
const hostsArb: fc.Arbitrary<{ net: LmmNetwork; actions: [number, number][] }> = fc
  .record({
    hosts: fc.integer({ min: 2, max: 5 }),
    core: fc.integer({ min: 1, max: 4 }),
    flows: fc.integer({ min: 1, max: 40 }),
    seed: fc.integer({ min: 0, max: 2 ** 30 }),
  })
  .map(({ hosts, core, flows, seed }) => {
    const rnd = lcg(seed);
    const links = 2 * hosts + core;
    const bandwidth = Float64Array.from({ length: links }, () => [10, 10, 25, 12.5][rnd(4)]!);
    const fatpipe = Uint8Array.from({ length: links }, () => (rnd(8) === 0 ? 1 : 0));
    const routeStart = new Int32Array(flows + 1);
    const routeLinks: number[] = [];
    const weight = new Float64Array(flows);
    for (let f = 0; f < flows; f++) {
      const a = rnd(hosts),
        b = (a + 1 + rnd(hosts - 1)) % hosts;
      const hops = rnd(3);
      const c0 = rnd(core);
      const route = [
        2 * a,
        ...(hops > 0 ? [2 * hosts + c0] : []),
        ...(hops > 1 ? [2 * hosts + ((c0 + 1) % core)] : []),
      ];
      routeLinks.push(...new Set([...route, 2 * b + 1]));
      routeStart[f + 1] = routeLinks.length;
      weight[f] = 1 / [1, 1, 3, 0.7][rnd(4)]!;
    }
    const net = { links, bandwidth, fatpipe, routeStart, routeLinks: Int32Array.from(routeLinks), weight };
    // a solve after every change, as the engine makes them (a clean link's start state is read the solve after)
    return { net, actions: randomChanges(flows, rnd, true) };
  });

describe("LmmSystem: the solve of links that each hold one flow at most", () => {
  /** Runs `c` on a system with the fast path and one without; the rates of the flows in progress after each solve. */
  function compare(c: { net: LmmNetwork; actions: [number, number][] }): number {
    const F = c.net.routeStart.length - 1;
    const fast = new LmmSystem(c.net, true),
      general = new LmmSystem(c.net, true, true, undefined, true, true, false);
    const rf = new Float64Array(F),
      rg = new Float64Array(F),
      touched = new Int32Array(F);
    const on = new Set<number>();
    for (const [act, f] of c.actions) {
      for (const [s, r] of [
        [fast, rf],
        [general, rg],
      ] as const)
        if (act === CREATED) s.created(f);
        else if (act === ENABLE) s.enable(f);
        else if (act === FREE) s.free(f);
        else if (s.modified) s.solve(r, touched);
      if (act === ENABLE) on.add(f);
      if (act === FREE) on.delete(f);
      if (act === SOLVE) for (const g of on) if (!Object.is(rf[g], rg[g])) expect([g, rf[g]]).toEqual([g, rg[g]]);
    }
    expect(general.isolatedSolves).toBe(0);
    return fast.isolatedSolves;
  }

  it("gives the rates of the progressive filling bit for bit, on private host links and a shared core", () => {
    let isolated = 0;
    fc.assert(
      fc.property(hostsArb, (c) => {
        isolated += compare(c);
      }),
      { numRuns: 3000, seed: 20 },
    );
    // the fast path ran (each host's links alone hold one flow, often)
    expect(isolated).toBeGreaterThan(3000);
  });

  it("gives the rates of the progressive filling bit for bit on random routes too", () => {
    fc.assert(
      fc.property(actionsArb, (c) => {
        compare(c);
      }),
      { numRuns: 150, seed: 21 },
    );
  });
});

describe("LmmSystem: a flow without a share", () => {
  // link 0 a FATPIPE of bandwidth 0, link 1 shared: flow 0 (weight 0) alone on link 0 would have the share 0 / 0
  const net: LmmNetwork = {
    links: 2,
    bandwidth: Float64Array.of(0, 10),
    fatpipe: Uint8Array.of(1, 0),
    routeStart: Int32Array.of(0, 2, 3, 4),
    routeLinks: Int32Array.of(1, 0, 1, 0),
    weight: Float64Array.of(0, 2, 1),
  };

  it("is refused in one line naming the flow, enabled or created, for any weight not positive and finite", () => {
    // weight 0 would get the share 0 / 0 on the FATPIPE of bandwidth 0, or a NaN rate (0 x Infinity) alone on a
    // link; an infinite weight a NaN rate beside another flow; a negative one a negative rate and its neighbour more
    // than the link holds
    for (const w of [0, Infinity, -1, NaN]) {
      const odd = { ...net, weight: Float64Array.of(w, 2, 1) };
      for (const call of [(s: LmmSystem) => s.enable(0), (s: LmmSystem) => s.created(0)]) {
        const e = errorOf(() => call(new LmmSystem(odd, true)));
        expect(e.code).toBe("BAD_INPUT");
        expect(e.message).toBe(
          `machines: max-min system: flow 0 has weight ${w}: a weight must be positive and finite`,
        );
      }
    }
  });

  it("is refused on a link of no bandwidth (NaN) whatever the flow's weight", () => {
    const odd = { ...net, bandwidth: Float64Array.of(0, NaN) };
    const e = errorOf(() => new LmmSystem(odd, true).enable(1));
    expect(e.message).toBe(
      "machines: max-min system: flow 1 of weight 2 has no share on link 1 (bandwidth NaN): " +
        "its share there would be NaN",
    );
  });

  it("solves the flows with a share: alone on its shared link a flow gets its bandwidth, on the FATPIPE of bandwidth 0 nothing", () => {
    const lmm = new LmmSystem(net, true);
    const rate = new Float64Array(3).fill(-1),
      touched = new Int32Array(3);
    lmm.enable(1);
    lmm.enable(2);
    lmm.solve(rate, touched);
    expect([rate[1], rate[2]]).toEqual([10, 0]);
  });
});
