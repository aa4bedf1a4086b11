// The link bounds on a network (docs/bounds.md): no plan of any planner beats the host-link bound on
// the flow model, and no direct plan beats the busiest-link bound (blocking and nonblocking, serial
// and fair ports, random matrices, several generated networks).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { busiestLinkBound, hostLinkBound, scheduleClass } from "../../src/bounds/index.js";
import { findMachine, MACHINES } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { isCommplanError } from "../../src/model/errors.js";
import { PLANNERS, plan } from "../../src/planner/registry.js";
import { buildTopology, compileRoutes } from "../../src/topology/index.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

/** Relative slack for floating-point rounding only. */
const ULP = 1e-9;

const NETWORKS = ["fat-tree", "fat-tree:oversub=4", "torus:dims=4x4", "dragonfly", "rail:gpus=4"];

describe("link bounds on the flow model", () => {
  it("host links (with the start-up) hold for every plan, the busiest link for direct plans", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MACHINES.filter((mm) => (mm.fabric ?? "flat") === "flat")),
        matrixRecipe({ minP: 2, maxP: 12, kinds: ["dense", "sparse", "empty-rows", "permutation", "spike"] }),
        fc.constantFrom(...NETWORKS),
        fc.constantFrom("blocking", "nonblocking" as const),
        fc.constantFrom("serial", "fair" as const),
        fc.constantFrom(...PLANNERS.map((pl) => pl.name).filter((n) => !n.startsWith("te-"))),
        (machine, r, spec, mode, portSharing, name) => {
          const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 5000) });
          const routes = compileRoutes(buildTopology(spec, m.p, machine));
          let s;
          try {
            s = plan(m, name, { seed: r.seed, machine, payload: true });
          } catch (e) {
            if (isCommplanError(e)) return;
            throw e;
          }
          const sim = simulateSchedule(s, machine, {
            mode,
            network: routes,
            portSharing,
            linkFactor: false,
            timeline: false,
          });
          const host = hostLinkBound(m, routes, machine.barrier, mode === "blocking" ? machine.ts : machine.tsSend);
          expect(host.value, `${name} on ${spec}`).toBeLessThanOrEqual(sim.makespan * (1 + ULP));
          if (scheduleClass(m, s, machine.ports).direct) {
            const link = busiestLinkBound(m, routes, machine.barrier);
            expect(link.value, `${name} on ${spec}`).toBeLessThanOrEqual(sim.makespan * (1 + ULP));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the host-link bound: a host with one link sends its row at that link's bandwidth (hand-computed)", () => {
    const machine = findMachine("ib-hdr-200");
    const routes = compileRoutes(buildTopology("fat-tree", 4, machine));
    // host 0 sends 3 x 1000 elements of 8 bytes; every host has one link of the machine's bandwidth
    const m = matrixFromRows([
      [0, 1000, 1000, 1000],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    const b = hostLinkBound(m, routes, 0);
    expect(b.host).toBe(0);
    expect(b.value).toBeCloseTo((3000 * m.elementBytes) / routes.bandwidth[0]!, 9);
    expect(b.value).toBeGreaterThan(0);
  });
});
