/** Every registered algorithm from the command line: gen | plan --payload | verify exits 0 (issues 4, 5, 6). */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { PLANNERS } from "../../src/planner/index.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("every");

describe("commplan plan --algorithm NAME, for every registered planner", () => {
  // P = 16 is a perfect square (mesh-two-stage) and an h-relation suits the total-exchange protocols too
  const m = join(dir, "m.json");
  for (const pl of PLANNERS) {
    for (const payload of [false, true]) {
      it(`${pl.name}${payload ? " --payload" : ""}: plan and verify exit 0`, async () => {
        expect((await run("gen", "h-relation", "--p", "16", "--h", "6", "--seed", "3", "-o", m)).code).toBe(0);
        const s = join(dir, `${pl.name}-${payload}.json`);
        const planned = await run(
          "plan",
          m,
          "--algorithm",
          pl.name,
          ...(payload ? ["--payload"] : []),
          "--machine",
          "t3d-004",
          "-o",
          s,
        );
        expect(planned.err).toMatch(new RegExp(`plan: ${pl.name}:`));
        expect(planned.code).toBe(0);
        // MPI's linear and scattered plans post several messages per node at once: a many-port machine
        const ports = pl.traits.mpi ? ["--ports", "unlimited"] : [];
        const v = await run("verify", s, "--matrix", m, ...ports, "--json");
        const report = JSON.parse(v.out) as {
          ok: boolean;
          checks: { id: string; holds: boolean; witness: string | null }[];
        };
        expect(report.checks.filter((c) => !c.holds)).toEqual([]);
        expect(v.code).toBe(0);
      });
    }
  }
});

describe("commplan algorithms lists every planner's parameters", () => {
  it("text: each --param line under its algorithm, with its default; header keys; (no parameters) when none", async () => {
    const r = await run("algorithms");
    expect(r.code).toBe(0);
    // entries start at column 0, their params are indented under them
    const entries = new Map(r.out.split(/\n(?=\S)/).map((e) => [e.slice(0, e.indexOf(":")), e] as const));
    expect([...entries.keys()]).toEqual(PLANNERS.map((p) => p.name));
    for (const pl of PLANNERS) {
      const entry = entries.get(pl.name)!;
      const inputs = pl.params.filter((d) => d.output !== true),
        outputs = pl.params.filter((d) => d.output === true);
      for (const d of inputs)
        expect(entry).toMatch(
          new RegExp(
            `^ {4}--param ${d.name}=\\S+ \\([^\\n]*${d.default !== undefined ? `default ${String(d.default)}` : "by default "}[^\\n]*\\): `,
            "m",
          ),
        );
      expect(entry.match(/^ {4}--param /gm)?.length ?? 0).toBe(inputs.length);
      if (inputs.length === 0) expect(entry).toMatch(/^ {4}\(no parameters\)$/m);
      if (outputs.length > 0)
        expect(entry).toContain(`(accepted and ignored as --param): ${outputs.map((d) => d.name).join(", ")}`);
    }
    expect(entries.get("rs-nh")).toContain(
      "--param cutoff=auto|median|mean|none|<integer> (>= 1, elements; default auto): ",
    );
    expect(entries.get("te-simple")).toContain("--param c=<number> (0..4; default 1): ");
  });

  it("--json: each algorithm with its declared params", async () => {
    const rows = JSON.parse((await run("algorithms", "--json")).out) as { name: string; params: unknown[] }[];
    expect(rows.map((x) => x.name)).toEqual(PLANNERS.map((p) => p.name));
    for (const pl of PLANNERS)
      expect(rows.find((x) => x.name === pl.name)!.params).toEqual(JSON.parse(JSON.stringify(pl.params)));
    expect(rows.find((x) => x.name === "two-stage")!.params).toContainEqual(
      expect.objectContaining({ name: "reshuffle", type: "boolean", default: false }),
    );
  });

  it("plan --help says where the params are listed; a bad --param names the field and exits 2", async () => {
    const h = await run("plan", "--help");
    expect(h.out + h.err).toMatch(
      /--param <key=value>[\s\S]*'commplan\s+algorithms' lists each\s+algorithm's parameters/,
    );
    const m = join(dir, "p.json");
    await run("gen", "uniform", "--p", "4", "-o", m);
    const bad = await run("plan", m, "-a", "rs-nh", "--param", "cutoff=big");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /rs-nh: cutoff must be "auto", "median", "mean", "none" or a positive integer \(elements\), got "big"/,
    );
  });
});
