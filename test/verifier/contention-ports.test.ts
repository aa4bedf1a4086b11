/** Node contention follows the machine's port count: one port (the papers' machines), k, or unlimited. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixDigest, matrixFromData, type CommMatrix } from "../../src/model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../src/model/schedule.js";
import { checkContention } from "../../src/verifier/contention.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { run } from "../helpers/cli.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.js";

const header = (m: CommMatrix) => ({
  p: m.p,
  algorithm: "test",
  params: {},
  seed: null,
  elementBytes: 8,
  matrixDigest: matrixDigest(m),
});

/** Every off-diagonal pair in one step, as MPI's linear alltoallv posts them: each node has p - 1 sends and receives. */
function allAtOnce(p: number): { m: CommMatrix; s: Schedule } {
  const data = new Float64Array(p * p);
  for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j) data[i * p + j] = 1 + ((i * 3 + j) % 4);
  const m = matrixFromData(p, data);
  const b = new ScheduleBuilder(header(m), false);
  b.stage("all", "none").step();
  for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j) b.transfer(i, j, data[i * p + j]!);
  return { m, s: b.build() };
}

describe("node contention and the port count", () => {
  it("holds exactly when the ports cover the most messages of a node in a step (P 2..20, ports 1..25 and unlimited)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 20 }), fc.integer({ min: 1, max: 25 }), (p, ports) => {
        const { s } = allAtOnce(p);
        const c = checkContention(s, ports).contention;
        expect(c.measured).toBe(p - 1);
        expect(c.holds).toBe(ports >= p - 1);
        expect(checkContention(s, Infinity).contention.holds).toBe(true);
      }),
    );
  });

  it("refuses many messages per node in a step on a one-port machine with a clear reason", () => {
    const { m, s } = allAtOnce(4);
    const row = verifySchedule(m, s).checks.find((c) => c.id === "node-contention")!;
    expect(row.holds).toBe(false);
    expect(row.bound).toBe(1);
    expect(row.witness).toBe(
      "step 0: node 0 sends 3 messages (to 1, 2 and 3) with 1 send port; a one-port machine takes one message per node and step",
    );
    const four = checkContention(s, 2).contention;
    expect(four.witness).toBe("step 0: node 0 sends 3 messages (to 1, 2 and 3) with 2 send ports");
  });

  it("with unlimited ports the row measures the most messages and states no bound", () => {
    const { m, s } = allAtOnce(5);
    const r = verifySchedule(m, s, { ports: Infinity });
    expect(r.ok).toBe(true);
    const row = r.checks.find((c) => c.id === "node-contention")!;
    expect(row.measured).toBe(4);
    expect(row.bound).toBeNull();
    expect(row.title).toMatch(/unlimited ports/);
  });

  it("verify takes --ports unlimited, or the port count of --machine (one port on the papers' machines)", async () => {
    const { m, s } = allAtOnce(3);
    const dir = tempDir("ports");
    const rows = Array.from({ length: 3 }, (_, i) => Array.from(m.data!.subarray(i * 3, i * 3 + 3)));
    writeFileSync(join(dir, "m.json"), JSON.stringify({ format: "commplan.matrix/v1", p: 3, rows }));
    const transfers = [...s.src].map((a, x) => ({ src: a, dst: s.dst[x], size: s.size[x] }));
    const doc = {
      format: "commplan.schedule/v1",
      ...header(m),
      stages: [{ name: "all", rearrange: "none", steps: [{ transfers, stalls: [] }] }],
    };
    writeFileSync(join(dir, "s.json"), JSON.stringify(doc));
    const mat = join(dir, "m.json");
    const sched = join(dir, "s.json");
    expect((await run("verify", sched, "-m", mat, "--ports", "unlimited")).code).toBe(0);
    expect((await run("verify", sched, "-m", mat, "--ports", "2")).code).toBe(0);
    const one = await run("verify", sched, "-m", mat, "--machine", "t3d-004");
    expect(one.code).toBe(1);
    expect(one.out).toMatch(/a one-port machine takes one message per node and step/);
    const bad = await run("verify", sched, "-m", mat, "--ports", "many");
    expect(bad.code).toBe(2);
    expect(bad.err).toBe("verify: --ports takes a count or 'unlimited', got 'many'\n");
    const typo = await run("verify", sched, "-m", mat, "--ports", "unlimted");
    expect(typo.err).toBe("verify: --ports takes a count or 'unlimited', got 'unlimted' (did you mean unlimited?)\n");
    expect((await run("verify", sched, "-m", mat, "--ports", "0")).err).toMatch(/--ports must be an integer in 1\.\./);
    expect((await run("verify", sched, "-m", mat, "--ports", "+2")).code).toBe(0);
  });
});
