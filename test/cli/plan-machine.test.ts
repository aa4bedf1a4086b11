/** plan --help and commplan algorithms say which planners plan for a machine, which one by default (ib-hdr-200) and how to change it; the headers agree. */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultPlanMachine } from "../../src/cli/commands/lists.js";
import { PLANNERS } from "../../src/planner/registry.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("plan-machine");
const USERS = ["rs-nh", "split-coloring"];

describe("the machine a planner plans for by default", () => {
  it("is ib-hdr-200 for rs-nh and split-coloring, none for the others", () => {
    expect(PLANNERS.filter((p) => defaultPlanMachine(p) !== null).map((p) => p.name)).toEqual(USERS);
    for (const n of USERS) expect(defaultPlanMachine(PLANNERS.find((p) => p.name === n)!)).toBe("ib-hdr-200");
  });

  it("plan --help names those planners, the default and --machine", async () => {
    const h = await run("plan", "--help");
    const text = (h.out + h.err).replace(/\s+/g, " ");
    expect(text).toMatch(
      /--machine <name> machine model of the planners with a cost model \(rs-nh, split-coloring\), which plan for ib-hdr-200 without it/,
    );
  });

  it("commplan algorithms says it under exactly those planners, and --json carries defaultMachine", async () => {
    const r = await run("algorithms");
    const entries = new Map(r.out.split(/\n(?=\S)/).map((e) => [e.slice(0, e.indexOf(":")), e] as const));
    for (const p of PLANNERS) {
      const line = /^ {4}machine: its cost model plans for (\S+) unless 'plan --machine NAME' names another/m.exec(
        entries.get(p.name)!,
      );
      expect(line?.[1] ?? null, p.name).toBe(USERS.includes(p.name) ? "ib-hdr-200" : null);
    }
    const rows = JSON.parse((await run("algorithms", "--json")).out) as { name: string; defaultMachine?: string }[];
    for (const x of rows) expect(x.defaultMachine, x.name).toBe(USERS.includes(x.name) ? "ib-hdr-200" : undefined);
  });

  it("is what the header names without --machine, and --machine changes it", async () => {
    const m = join(dir, "m.json");
    expect((await run("gen", "uniform", "--p", "8", "-o", m)).code).toBe(0);
    for (const a of USERS) {
      for (const [args, want] of [
        [[], "ib-hdr-200"],
        [["--machine", "cm5-004"], "cm5-004"],
      ] as const) {
        const s = join(dir, `${a}-${want}.json`);
        expect((await run("plan", m, "-a", a, ...args, "-o", s)).code).toBe(0);
        expect((JSON.parse(readFileSync(s, "utf8")) as { params: { machine: string } }).params.machine).toBe(want);
      }
    }
  });
});
