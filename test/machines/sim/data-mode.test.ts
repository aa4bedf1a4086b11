import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findMachine } from "../../../src/machines/presets.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import { isCommplanError } from "../../../src/model/errors.js";
import { PLANNERS, plan } from "../../../src/planner/registry.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";
import { pack, unpack } from "../../helpers/schedule-edit.js";

const machine = findMachine("sp2-004");

describe("data mode: element tags follow the payload chunks", () => {
  it("every planner delivers every element exactly, in blocking and nonblocking, lock-step or not", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 10, kinds: ["dense", "sparse", "empty-rows", "permutation", "spike", "zero"] }),
        fc.constantFrom("blocking", "nonblocking"),
        fc.boolean(),
        (r0, mode, lockstep) => {
          const r = { ...r0, maxEntry: Math.min(r0.maxEntry, 7) };
          const m = buildMatrix(r);
          for (const pl of PLANNERS) {
            let s;
            try {
              s = plan(m, pl.name, { payload: true, seed: r.seed });
            } catch (e) {
              if (isCommplanError(e)) continue;
              throw e;
            }
            seen.add(pl.name);
            const sim = simulateSchedule(s, machine, { data: m, mode, lockstep, timeline: false });
            expect(sim.dataFailures, `${pl.name} ${mode} lockstep=${lockstep}`).toEqual([]);
          }
        },
      ),
      { numRuns: 25 },
    );
    expect(seen.size).toBe(PLANNERS.length);
  });

  it("catches a corrupted schedule (dropped chunk, forward before arrival, duplicate, wrong destination) and names the node and the element", () => {
    const m = buildMatrix({ p: 8, kind: "dense", seed: 5, maxEntry: 7 });
    const good = plan(m, "two-stage", { payload: true, seed: 3 });
    expect(simulateSchedule(good, machine, { data: m }).dataFailures).toEqual([]);

    // 1. drop the last chunk of the last transfer (and its elements from the size, so the schedule
    // stays well formed; the whole transfer when it has one chunk): its elements never arrive
    const st = unpack(good);
    const lastStage = st[st.length - 1]!;
    const lastStep = lastStage.steps[lastStage.steps.length - 1]!;
    const t = lastStep.transfers[lastStep.transfers.length - 1]!;
    const [o, d, off, n] = t.chunks!.pop()!;
    t.size -= n;
    if (t.size === 0) lastStep.transfers.pop();
    const dropped = simulateSchedule(pack(good, st), machine, { data: m });
    expect(dropped.dataFailures!.length).toBeGreaterThan(0);
    expect(dropped.dataFailures![0]).toContain(`node ${d} does not hold element (${o}, ${d}, ${off})`);

    // 2. forward before arrival: move a second-stage transfer into the first stage's first step
    const st2 = unpack(good);
    const forward = st2[1]!.steps[0]!.transfers.find((x) => x.chunks!.some((c) => c[0] !== x.src))!;
    st2[1]!.steps[0]!.transfers.splice(st2[1]!.steps[0]!.transfers.indexOf(forward), 1);
    st2[0]!.steps[0]!.transfers.push(forward);
    const early = simulateSchedule(pack(good, st2), machine, { data: m, lockstep: true });
    expect(early.dataFailures!.some((f) => f.startsWith(`node ${forward.src} does not hold element`))).toBe(true);

    // 3. a duplicated transfer: the second copy finds its elements gone
    const st3 = unpack(good);
    const step0 = st3[0]!.steps[0]!;
    st3[0]!.steps.push({ transfers: [structuredClone(step0.transfers[0]!)], stalls: [] });
    const dup = simulateSchedule(pack(good, st3), machine, { data: m });
    expect(dup.dataFailureCount).toBeGreaterThan(0);

    // 4. wrong destination: the last transfer delivers its elements to a third node
    const st4 = unpack(good);
    const g4 = st4[st4.length - 1]!;
    const w = g4.steps[g4.steps.length - 1]!.transfers.at(-1)!;
    const right = w.dst,
      [wo, wd, woff] = w.chunks![0]!;
    expect(wd).toBe(right);
    w.dst = [0, 1, 2].find((v) => v !== w.src && v !== right)!;
    const wrong = simulateSchedule(pack(good, st4), machine, { data: m });
    expect(wrong.dataFailures).toContain(
      `node ${right} does not hold element (${wo}, ${right}, ${woff}) at the end (node ${w.dst} holds it)`,
    );
  });

  it("refuses a schedule without payload chunks, and a matrix the schedule was not made for", () => {
    const m = buildMatrix({ p: 4, kind: "dense", seed: 1, maxEntry: 3 });
    expect(() => simulateSchedule(plan(m, "shift"), machine, { data: m })).toThrow(/payload chunks/);
    const other = buildMatrix({ p: 4, kind: "dense", seed: 6, maxEntry: 3 });
    expect(() => simulateSchedule(plan(m, "shift", { payload: true }), machine, { data: other })).toThrow(
      /made for another matrix/,
    );
  });
});
