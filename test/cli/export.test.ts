// commplan export --format program: whole and split output, both variants, refusals with exit 2.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { readMatrixFile } from "../../src/io/matrix-read.js";
import { runBlocking, runRounds } from "../lower/program-interpreter.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("export");
const f = (name: string): string => join(dir, name);

describe("commplan export", () => {
  it("two-stage payload plan: program JSON to a file and split, both variants deliver", async () => {
    expect((await run("gen", "pattern1", "--p", "12", "--seed", "3", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "--algorithm", "two-stage", "--payload", "-o", f("s.json"))).code).toBe(0);
    const m = readMatrixFile(f("m.json"));
    const total = m.data.reduce((a, b) => a + b, 0);
    const one = await run("export", f("s.json"), "--matrix", f("m.json"), "--format", "program", "-o", f("prog.json"));
    expect(one.code).toBe(0);
    expect(one.err).toMatch(
      /^export: two-stage, P = 12, program \(nonblocking\): \d+ rounds, [\d,]+ operations, largest scratch [\d,]+ elements \(live peak [\d,]+\) -> \S+prog\.json\n$/,
    );
    expect(runRounds(m, readProgramJson(f("prog.json")).program)).toBe(total);
    const split = await run(
      "export",
      f("s.json"),
      "--matrix",
      f("m.json"),
      "--format",
      "program",
      "--split",
      f("split"),
      "--variant",
      "blocking",
    );
    expect(split.code).toBe(0);
    expect(split.err).toMatch(/^export: two-stage, P = 12, program \(blocking\): .* -> \S+split\n$/);
    expect(readdirSync(f("split"))).toHaveLength(13);
    const prog = readProgramJson(join(f("split"), "index.json")).program;
    expect(prog.variant).toBe("blocking");
    expect(runBlocking(m, prog).elements).toBe(total);
  });
  it("writes to stdout by default", async () => {
    await run("plan", f("m.json"), "--algorithm", "shift", "-o", f("shift.json"));
    const r = await run("export", f("shift.json"), "--matrix", f("m.json"), "--format", "program");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      format: "commplan.program/v1",
      p: 12,
      algorithm: "shift",
      variant: "nonblocking",
    });
  });
  it("refuses a message-level relay plan, an unknown format and a bad variant with one line and exit 2", async () => {
    await run("plan", f("m.json"), "--algorithm", "two-stage", "-o", f("s-msg.json"));
    const relay = await run("export", f("s-msg.json"), "--matrix", f("m.json"), "--format", "program");
    expect(relay.code).toBe(2);
    expect(relay.err).toMatch(/^export: two-stage relays elements: plan with --payload/);
    expect(relay.err.trim().split("\n")).toHaveLength(1);
    const fmt = await run("export", f("shift.json"), "--matrix", f("m.json"), "--format", "nope");
    expect(fmt.code).toBe(2);
    expect(fmt.err).toBe(
      "export: option '-f, --format <name>': unknown value 'nope'; known: program, simgrid, goal, arrow, msccl-xml (add --help for usage)\n",
    );
    const v = await run(
      "export",
      f("shift.json"),
      "--matrix",
      f("m.json"),
      "--format",
      "program",
      "--variant",
      "eager",
    );
    expect(v.code).toBe(2);
    expect(v.err).toBe(
      "export: option '--variant <v>': unknown value 'eager'; known: nonblocking, blocking, dataflow (add --help for usage)\n",
    );
    expect(v.err.trim().split("\n")).toHaveLength(1);
  });
});

describe("export --format arrow of an auto plan", () => {
  it("keeps the schedule and its header but not the JSON form's auto block, as docs/formats.md says", async () => {
    expect((await run("gen", "uniform", "--p", "4", "-o", f("ma.json"))).code).toBe(0);
    const p = await run("plan", f("ma.json"), "-a", "auto", "--machine", "t3d-004", "-o", f("auto.json"));
    expect(p.code).toBe(0);
    const json = JSON.parse(readFileSync(f("auto.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(json)).toContain("auto");
    expect((await run("export", f("auto.json"), "-f", "arrow", "-o", f("auto.arrow"))).code).toBe(0);
    const header = JSON.parse(tableFromIPC(readFileSync(f("auto.arrow"))).schema.metadata.get("commplan")!) as {
      algorithm: string;
    };
    expect(header.algorithm).toBe(json["algorithm"]);
    expect(Object.keys(header)).not.toContain("auto");
    // read back (show reads either form): the same grid, so only the block is gone
    const fromJson = await run("show", f("auto.json"), "--json");
    const fromArrow = await run("show", f("auto.arrow"), "--json");
    expect([fromJson.code, fromArrow.code]).toEqual([0, 0]);
    expect(fromJson.out).toMatch(/^\{"format":"commplan\.show\/v1"/);
    expect(fromArrow.out).toBe(fromJson.out);
  });
});

describe("a schedule is Arrow only through export -f arrow", () => {
  it("plan -o x.arrow and simulate --realised x.arrow are refused (they write JSON), naming the conversion", async () => {
    expect((await run("gen", "uniform", "--p", "4", "-o", f("mr.json"))).code).toBe(0);
    for (const name of ["p.arrow", "P.ARROW"]) {
      const p = await run("plan", f("mr.json"), "-a", "shift", "-o", f(name));
      expect([p.code, p.out]).toEqual([2, ""]);
      expect(p.err).toMatch(/^plan: -o .*\.arrow: plan writes schedule JSON \(commplan\.schedule\/v1\), not Arrow; /i);
      expect(p.err).toContain(`'commplan export FILE.json -f arrow -o ${f(name)}'`);
      expect(existsSync(f(name))).toBe(false);
    }
    const argv = ["simulate", f("mr.json"), "--machine", "t3d-004", "--protocol", "async", "--realised"];
    const s = await run(...argv, f("r.arrow"));
    expect(s.code).toBe(2);
    expect(s.err).toMatch(/^simulate: --realised .*r\.arrow: simulate writes schedule JSON .*, not Arrow; /);
    expect(existsSync(f("r.arrow"))).toBe(false);
    // the conversion the message names gives an Arrow file, and a .json name is written as before
    expect((await run(...argv, f("r.json"))).code).toBe(0);
    expect((await run("export", f("r.json"), "-f", "arrow", "-o", f("r.arrow"))).code).toBe(0);
    expect(readFileSync(f("r.arrow")).subarray(0, 6).toString("latin1")).toBe("ARROW1");
  });

  it("export refuses an output name that says the other of JSON and Arrow, as store get does", async () => {
    expect((await run("gen", "uniform", "--p", "4", "-o", f("mn.json"))).code).toBe(0);
    expect((await run("plan", f("mn.json"), "-a", "shift", "-o", f("sn.json"))).code).toBe(0);
    const arrowAsJson = await run("export", f("sn.json"), "-f", "arrow", "-o", f("x.json"));
    expect([arrowAsJson.code, arrowAsJson.out]).toEqual([2, ""]);
    expect(arrowAsJson.err).toMatch(
      /^export: --format arrow but the output file .*x\.json has the extension of json\n$/,
    );
    const programAsArrow = await run("export", f("sn.json"), "-m", f("mn.json"), "-f", "program", "-o", f("y.arrow"));
    expect(programAsArrow.code).toBe(2);
    expect(programAsArrow.err).toMatch(/^export: --format program but the output file .*y\.arrow has the extension/);
    expect([existsSync(f("x.json")), existsSync(f("y.arrow"))]).toEqual([false, false]);
    // the names that agree, and names that say neither, are written
    for (const [fmt, name] of [
      ["arrow", "z.arrow"],
      ["arrow", "z.feather"],
      ["program", "z.json"],
    ] as const)
      expect((await run("export", f("sn.json"), "-m", f("mn.json"), "-f", fmt, "-o", f(name))).code).toBe(0);
  });
});
