/** The te-* planners declare every key they write into the schedule header (inputs and outputs), so a header's params can be given back. */
import { describe, expect, it } from "vitest";
import { generatePattern } from "../../../src/patterns/index.js";
import { plan, PLANNERS } from "../../../src/planner/registry.js";
import { TE_PROTOCOLS } from "../../../src/planner/total-exchange/index.js";

const m = generatePattern("h-relation", 16, { h: 64 }, 2);

describe.each(TE_PROTOCOLS.map((p) => [p.name] as const))("%s: header keys", (name) => {
  const pl = PLANNERS.find((x) => x.name === name)!;
  const declared = pl.params.map((d) => d.name).sort();

  it("the header's params are exactly the declared names (inputs with their values, outputs)", () => {
    expect(Object.keys(plan(m, name, { seed: 3 }).params).sort()).toEqual(declared);
    for (const k of ["rounds", "idleRounds", "lowerBound", "maxPairLoad", "ports"]) expect(declared).toContain(k);
  });

  it("the header given back plans the same schedule; --param idleRounds=0 is accepted and ignored", () => {
    const a = plan(m, name, { seed: 3 });
    const b = plan(m, name, { seed: 3, params: a.params });
    expect(Array.from(b.src)).toEqual(Array.from(a.src));
    expect(Array.from(b.dst)).toEqual(Array.from(a.dst));
    expect(b.params).toEqual(a.params);
    expect(plan(m, name, { seed: 3, params: { idleRounds: 0 } }).params).toEqual({ ...a.params });
  });
});
