/** Stage numbers are 1-based wherever a user reads them: show --stage, verify's check ids and titles, cost's stage columns (docs/verifier.md, docs/formats.md). */
import { beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("numbering");
const f = (name: string): string => join(dir, name);

describe("stage numbers of a four-stage plan (P = 16) are 1..4 in show, verify and cost", () => {
  beforeAll(async () => {
    expect((await run("gen", "uniform", "--p", "16", "--size", "16", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "--algorithm", "four-stage", "-o", f("s.json"))).code).toBe(0);
  });

  it("verify --json: every stage number in a check id or title is in 1..4, and each of 1..4 occurs", async () => {
    const v = await run("verify", f("s.json"), "--matrix", f("m.json"), "--json");
    expect(v.code).toBe(0);
    const checks = (JSON.parse(v.out) as { checks: { id: string; title: string }[] }).checks;
    const ids = checks.flatMap((c) => [...c.id.matchAll(/(?:^|-)stage-(\d+)-/g)].map((x) => Number(x[1])));
    const titles = checks.flatMap((c) => [...c.title.matchAll(/\bstage (\d+)\b/g)].map((x) => Number(x[1])));
    for (const n of [...ids, ...titles]) expect(n >= 1 && n <= 4, `stage ${n}`).toBe(true);
    expect([...new Set(ids)].sort()).toEqual([1, 2, 3, 4]);
    expect([...new Set(titles)].sort()).toEqual([1, 2, 3, 4]);
    // the id's number and the title's agree
    for (const c of checks.filter((x) => /^stage-\d+-/.test(x.id)))
      expect(c.title.startsWith(`stage ${c.id.split("-")[1]} `)).toBe(true);
  });

  it("cost --json --steps: stages[].stage is 1..4 in order and every step's stage is in 1..4; the text table starts at 1", async () => {
    const c = await run("cost", f("s.json"), "--machine", "ib-hdr-200", "--json", "--steps");
    expect(c.code).toBe(0);
    const j = JSON.parse(c.out) as { stages: { stage: number }[]; steps: { stage: number; step: number }[] };
    expect(j.stages.map((s) => s.stage)).toEqual([1, 2, 3, 4]);
    expect(j.steps.length).toBeGreaterThan(0);
    for (const s of j.steps) expect(s.stage >= 1 && s.stage <= 4, `stage ${s.stage}`).toBe(true);
    expect(j.steps[0]!.stage).toBe(1);
    expect(j.steps.at(-1)!.stage).toBe(4);
    const text = (await run("cost", f("s.json"), "--machine", "ib-hdr-200")).out.split("\n");
    const stageRows = text.filter((l) => /^\s*\d+\s/.test(l)).map((l) => Number(l.trim().split(/\s+/)[0]));
    expect(stageRows).toEqual([1, 2, 3, 4]);
  });

  it("show --stage k --json names stage k, for k = 1..4, the same stage cost and verify call k", async () => {
    const cost = JSON.parse((await run("cost", f("s.json"), "--machine", "ib-hdr-200", "--json")).out) as {
      stages: { stage: number; name: string }[];
    };
    for (const k of [1, 2, 3, 4]) {
      const g = JSON.parse((await run("show", f("s.json"), "--stage", String(k), "--json")).out) as {
        stage: number;
        name: string;
      };
      expect(g.stage).toBe(k);
      expect(cost.stages.find((s) => s.stage === k)!.name).toBe(g.name);
    }
  });
});
