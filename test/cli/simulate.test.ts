/** commplan simulate: the CLI over the simulator (modes, options, outputs, errors). */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { progressBar } from "../../src/cli/progress.js";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { parseMatrixText } from "../../src/io/matrix-read.js";
import { ScheduleBuilder } from "../../src/model/schedule.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { pack, unpack } from "../helpers/schedule-edit.js";
import { writeFileSync } from "node:fs";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("sim");
const f = (name: string): string => join(dir, name);

describe("commplan simulate: schedules, send rules, progress, data mode", () => {
  it("replays a planned schedule: text, JSON, Chrome trace and SVG; lock-step blocking equals the analytic cost", async () => {
    expect((await run("gen", "pattern1", "--p", "16", "--seed", "3", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "--algorithm", "shift", "--payload", "-o", f("s.json"))).code).toBe(0);
    const text = await run("simulate", f("s.json"), "--machine", "t3d-004");
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/makespan .* us \(analytic .* us\)/);
    const j = await run(
      "simulate",
      f("s.json"),
      "--machine",
      "t3d-004",
      "--lockstep",
      "--json",
      "--trace",
      f("t.json"),
      "--svg",
      f("g.svg"),
      "--data",
      "--matrix",
      f("m.json"),
    );
    expect(j.code).toBe(0);
    const r = JSON.parse(j.out);
    expect(r).toMatchObject({
      format: "commplan.simulation/v1",
      p: 16,
      mode: "blocking",
      lockstep: true,
      fnc: 1,
      data: { ok: true, failures: 0 },
    });
    expect(r.makespan).toBe(r.analytic);
    const trace = JSON.parse(readFileSync(f("t.json"), "utf8"));
    expect(trace.traceEvents.some((e: { ph: string; cat?: string }) => e.ph === "X" && e.cat === "send")).toBe(true);
    expect(readFileSync(f("g.svg"), "utf8")).toMatch(/^<svg[\s\S]*<\/svg>\n$/);
    const nb = await run(
      "simulate",
      f("s.json"),
      "--machine",
      "sp2-004",
      "--mode",
      "nonblocking",
      "--buffers",
      "1",
      "--json",
    );
    expect(JSON.parse(nb.out)).toMatchObject({ mode: "nonblocking" });
  });

  it("says which send rule and send buffers a run used (text and JSON)", async () => {
    const cases: [string[], string, number | null, RegExp][] = [
      [[], "steps", null, /, blocking \(send waits: steps\), flat:/],
      [["--mode", "nonblocking"], "data", 2, /, nonblocking \(send waits: data, 2 send buffers\), flat:/],
      [
        ["--mode", "nonblocking", "--send-waits", "steps", "--buffers", "1"],
        "steps",
        1,
        /, nonblocking \(send waits: steps, 1 send buffer\), flat:/,
      ],
    ];
    for (const [args, sendWaits, sendBuffers, text] of cases) {
      const j = JSON.parse((await run("simulate", f("s.json"), "--machine", "sp2-004", ...args, "--json")).out);
      expect(j.sendWaits).toBe(sendWaits);
      expect(j.sendBuffers).toBe(sendBuffers);
      expect((await run("simulate", f("s.json"), "--machine", "sp2-004", ...args)).out).toMatch(text);
    }
  });

  it("the progress bar ends at 100 % when the run ends, and stays where it was when the run fails", () => {
    const bar = (end: "finish" | "stop"): string => {
      let text = "";
      const stream = {
        isTTY: true,
        columns: 100,
        write: (chunk: string) => ((text += chunk), true),
      } as unknown as NodeJS.WritableStream;
      let clock = 0;
      const p = progressBar(true, "simulate", "transfers", stream, () => clock);
      p.report(10, 1000); // the first second: no bar
      clock = 1500;
      p.report(980, 1000); // the engines report every 65536 events: the last report is short of the end
      p[end]();
      return text;
    };
    const done = bar("finish");
    expect(done).toMatch(/simulate \[.*\] 98% \| 980\/1000 transfers/);
    expect(done).toMatch(/simulate \[.*\] 100% \| 1000\/1000 transfers/);
    const failed = bar("stop");
    expect(failed).toMatch(/98% \| 980\/1000 transfers/);
    expect(failed).not.toMatch(/100%/);
  });

  it("data mode exits 1 on a corrupted schedule and names the node and the element", async () => {
    const s = parseScheduleJsonText(readFileSync(f("s.json"), "utf8"));
    const st = unpack(s);
    const t = st[0]!.steps[0]!.transfers[0]!;
    t.dst = (t.dst + 1) % s.p === t.src ? (t.dst + 2) % s.p : (t.dst + 1) % s.p; // the message goes to the wrong node
    writeFileSync(f("bad.json"), scheduleToJsonText(pack(s, st)));
    const r = await run("simulate", f("bad.json"), "--machine", "t3d-004", "--data", "--matrix", f("m.json"));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/node \d+ does not hold element \(\d+, \d+, \d+\)/);
  });
});

describe("commplan simulate: protocols, bad input and flags", () => {
  it("runs DRS_N and AC on a matrix and writes realised traces the verifier reads", async () => {
    const d = await run(
      "simulate",
      "--protocol",
      "drs-n",
      f("m.json"),
      "--machine",
      "cm5-004",
      "--realised",
      f("drs.json"),
      "--busy-measure",
      "--generate-recv",
    );
    expect(d.code).toBe(0);
    expect(d.out).toMatch(/drs-n on cm5-004, P = 16, flat: makespan/);
    const m = parseMatrixText(readFileSync(f("m.json"), "utf8"));
    const rep = verifySchedule(m, parseScheduleJsonText(readFileSync(f("drs.json"), "utf8")));
    expect(rep.ok).toBe(true);
    expect(rep.checks.some((c) => c.id === "timed-contention" && c.holds)).toBe(true);
    expect((await run("verify", f("drs.json"), "-m", f("m.json"))).code).toBe(0);
    // the same trace with every message stretched: the verifier reads the times and finds the overlaps
    const doc = JSON.parse(readFileSync(f("drs.json"), "utf8"));
    for (const st of doc.stages) for (const step of st.steps) for (const t of step.transfers) t.end = t.start + 1e7;
    writeFileSync(f("drs-stretched.json"), JSON.stringify(doc));
    const v = await run("verify", f("drs-stretched.json"), "-m", f("m.json"));
    expect(v.code).toBe(1);
    expect(v.out).toMatch(/timed-contention: node \d+ receives transfer \d+/);
    const a = await run(
      "simulate",
      "--protocol",
      "async",
      f("m.json"),
      "--machine",
      "cm5-004",
      "--realised",
      f("ac.json"),
      "--json",
    );
    expect(JSON.parse(a.out)).toMatchObject({ protocol: "async", p: 16 });
    expect(existsSync(f("ac.json"))).toBe(true);
    // --element-bytes overrides the file's (22 bytes, pattern1's): 3 x the bytes, a longer run (t_c and t_d per byte)
    const args = ["simulate", "--protocol", "async", f("m.json"), "--machine", "cm5-004", "--json"];
    const [b22, b66] = [await run(...args, "--element-bytes", "22"), await run(...args, "--element-bytes", "66")];
    expect(JSON.parse(b22.out).makespan).toBe(JSON.parse(a.out).makespan);
    expect(JSON.parse(b66.out).makespan).toBeGreaterThan(2 * JSON.parse(b22.out).makespan);
  });

  it("bad input exits 2 with a one-line message", async () => {
    const r1 = await run("simulate", f("s.json"), "--machine", "nope");
    expect(r1.code).toBe(2);
    expect(r1.err).toMatch(/unknown machine 'nope'/);
    const r2 = await run("simulate", f("s.json"), "--machine", "t3d-004", "--mode", "fast");
    expect(r2.code).toBe(2);
    const r3 = await run("simulate", f("s.json"), "--machine", "t3d-004", "--data");
    expect(r3.code).toBe(2);
    expect(r3.err).toMatch(/--data needs --matrix/);
    const r4 = await run("simulate", f("s.json"), "--machine", "t3d-004", "--topology", "ocpc");
    expect(r4.code).toBe(2);
    expect(r4.err).toMatch(/lockstep/);
  });

  it("flags that do not apply are errors (exit 2), and stdout carries one document", async () => {
    const cases: [string[], RegExp][] = [
      [["--protocol", "drs-n", f("m.json"), "--mode", "nonblocking"], /--mode does not apply to --protocol/],
      [["--protocol", "drs-n", f("m.json"), "--lockstep"], /--lockstep does not apply/],
      [["--protocol", "async", f("m.json"), "--ports", "2"], /--ports does not apply/],
      [["--protocol", "async", f("m.json"), "--buffers", "1"], /--buffers does not apply/],
      [["--protocol", "async", f("m.json"), "--data"], /--data does not apply/],
      [["--protocol", "async", f("m.json"), "--barrier", "0"], /--barrier does not apply/],
      [["--protocol", "async", f("m.json"), "--busy-measure"], /--busy-measure is a drs-n option/],
      [["--protocol", "async", f("m.json"), "--inquiry", "3"], /--inquiry is a drs-n option/],
      [["--protocol", "drs-n", f("m.json"), "--inquiry", "1e-13"], /inquiry must be a finite time >= 0.001 us/],
      [["--protocol", "drs-n", f("m.json"), "--topology", "ocpc"], /ocpc/],
      [[f("s.json"), "--early-go-ahead"], /--early-go-ahead goes with --protocol/],
      [[f("s.json"), "--element-bytes", "4"], /--element-bytes goes with --protocol, --library or --matrix/],
      [["--protocol", "async", f("m.json"), "--element-bytes", "0"], /--element-bytes must be an integer in 1\.\./],
      [[f("s.json"), "--buffers", "1"], /nonblocking-mode option/],
      [[f("s.json"), "--send-waits", "data"], /nonblocking-mode option/],
      [
        [f("s.json"), "--mode", "nonblocking", "--send-waits", "later"],
        /^simulate: option '--send-waits <rule>': unknown value 'later'; known: data, steps \(add/,
      ],
      [[f("s.json"), "--matrix", f("m.json")], /--matrix goes with --data/],
      [[f("s.json"), "--barrier", "-1"], /--barrier must be a time >= 0/],
      [
        [f("s.json"), "--lockstep", "--topology", "ocpc", "--ports", "2"],
        /ocpc topology has one send and one receive port/,
      ],
      [[f("s.json"), "--trace", "-"], /stdout already carries/],
      [["--protocol", "drs-n", f("m.json"), "--realised", "-", "--json"], /--realised -: stdout already carries/],
    ];
    for (const [args, msg] of cases) {
      const r = await run("simulate", ...args, "--machine", "cm5-004");
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(msg);
      expect(r.out).toBe("");
    }
  });

  it("data mode with the matrix of another schedule exits 2, as verify does", async () => {
    expect((await run("gen", "pattern1", "--p", "16", "--seed", "4", "-o", f("other.json"))).code).toBe(0);
    const r = await run("simulate", f("s.json"), "--machine", "t3d-004", "--data", "-m", f("other.json"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/made for another matrix/);
    expect((await run("verify", f("s.json"), "-m", f("other.json"))).code).toBe(2);
  });
});

describe("commplan simulate: topologies and the built binary", () => {
  it("the cm5-fat-tree preset simulates on its fat tree unless --topology says otherwise; --barrier sets the stage barrier", async () => {
    const ft = JSON.parse(
      (await run("simulate", f("s.json"), "--machine", "cm5-fat-tree", "--lockstep", "--json")).out,
    );
    expect(ft.topology).toBe("cm5-fat-tree");
    expect(ft.makespan).toBeLessThan(ft.analytic);
    const flat = JSON.parse(
      (await run("simulate", f("s.json"), "--machine", "cm5-fat-tree", "--lockstep", "--topology", "flat", "--json"))
        .out,
    );
    expect(flat.makespan).toBe(flat.analytic);
    const b0 = JSON.parse(
      (
        await run(
          "simulate",
          f("s.json"),
          "--machine",
          "cm5-fat-tree",
          "--lockstep",
          "--topology",
          "flat",
          "--barrier",
          "0",
          "--json",
        )
      ).out,
    );
    expect(b0.barrier).toBe(0);
    expect(b0.makespan).toBe(b0.analytic);
    expect(b0.makespan).toBeCloseTo(flat.makespan - 170, 9);
    const d = JSON.parse(
      (await run("simulate", "--protocol", "drs-n", f("m.json"), "--machine", "cm5-fat-tree", "--json")).out,
    );
    expect(d.topology).toBe("cm5-fat-tree");
  });

  it("OCPC: 15 senders into one node in one step finish (exit 0)", async () => {
    const p = 16;
    const b = new ScheduleBuilder(
      { p, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: "x" },
      false,
    );
    b.stage("s").step();
    for (let i = 1; i < p; i++) b.transfer(i, 0, 3);
    writeFileSync(f("fan-in.json"), scheduleToJsonText(b.build()));
    const r = await run(
      "simulate",
      f("fan-in.json"),
      "--machine",
      "cm5-004",
      "--lockstep",
      "--topology",
      "ocpc",
      "--json",
    );
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).collisions).toBeGreaterThan(0);
  });

  it("the built binary runs simulate (npm run build first)", () => {
    const bin = join(process.cwd(), "bin", "commplan.js");
    const r = spawnSync(
      process.execPath,
      [bin, "simulate", f("s.json"), "--machine", "t3d-004", "--lockstep", "--topology", "cm5-fat-tree", "--json"],
      { encoding: "utf8" },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ topology: "cm5-fat-tree" });
    const bad = spawnSync(process.execPath, [bin, "simulate", join(dir, "missing.json"), "--machine", "t3d-004"], {
      encoding: "utf8",
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("commplan simulate: the chart of a run", () => {
  it("the --svg chart's title names what ran, P, the mode, the machine and the fabric; tooltips give elements and bytes", async () => {
    expect((await run("gen", "pattern1", "--p", "8", "--seed", "3", "-o", f("t8.json"))).code).toBe(0);
    expect((await run("plan", f("t8.json"), "--algorithm", "shift", "-o", f("t8.s.json"))).code).toBe(0);
    const args = ["--machine", "sp2-004", "--mode", "nonblocking", "--svg", f("t8.svg")];
    expect((await run("simulate", f("t8.s.json"), ...args)).code).toBe(0);
    const svg = readFileSync(f("t8.svg"), "utf8");
    expect(svg).toContain("<title>commplan simulate: shift, P = 8, nonblocking on sp2-004, flat</title>");
    const elementBytes = JSON.parse(readFileSync(f("t8.s.json"), "utf8")).elementBytes as number;
    const sends = [...svg.matchAll(/<title>node \d+ send peer \d+ size ([\d,]+) elements? \(([\d,]+) bytes\) /g)];
    expect(sends.length).toBeGreaterThan(0);
    for (const [, n, b] of sends)
      expect(Number(b!.replace(/,/g, ""))).toBe(Number(n!.replace(/,/g, "")) * elementBytes);
    expect(svg).not.toMatch(/size \d+ \d/);
    // a protocol run: the protocol, P, the machine and the fabric
    expect(
      (await run("simulate", f("t8.json"), "--protocol", "async", "--machine", "sp2-004", "--svg", f("a8.svg"))).code,
    ).toBe(0);
    expect(readFileSync(f("a8.svg"), "utf8")).toContain(
      "<title>commplan simulate: async protocol, P = 8 on sp2-004, flat</title>",
    );
  });
});
