// SimGrid export: trace lines per variant, sends and receives matched per (src, dst, tag, bytes), platform numbers from the preset, and commplan export --format simgrid writing a directory (refusing to replace inputs).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { simgridHostfile, simgridLinkParams, simgridPlatformXml } from "../../src/export/simgrid-platform.js";
import { simgridIndex, simgridRankTrace, simgridTraceFiles } from "../../src/export/simgrid-trace.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { findMachine } from "../../src/machines/presets.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import type { Program } from "../../src/model/program.js";
import { plan } from "../../src/planner/registry.js";
import { everyPlannerCase } from "./export-cases.js";
import { tempDir } from "../helpers/temp-dir.js";

const LINE = /^(\d+) (?:(init|finalize|waitall)|(isend|irecv|send|recv) (\d+) (\d+) (\d+)|compute (\d+(?:\.\d+)?))$/;

function traceLines(prog: Parameters<typeof simgridRankTrace>[0], r: number, flops = 0): string[] {
  return [...simgridRankTrace(prog, r, { computeFlopsPerByte: flops })].join("").trimEnd().split("\n");
}

describe("SimGrid traces", () => {
  for (const variant of ["nonblocking", "blocking"] as const) {
    it(`every planner, P = 8, ${variant}: every line parses, init first and finalize last, messages match per (src, dst, tag, bytes)`, () => {
      for (const { planner, prog } of everyPlannerCase(8, variant)) {
        const balance = new Map<string, number>();
        for (let r = 0; r < prog.p; r++) {
          const lines = traceLines(prog, r, 100);
          expect(lines[0]).toBe(`${r} init`);
          expect(lines.at(-1)).toBe(`${r} finalize`);
          let open = 0;
          for (const l of lines) {
            const m = LINE.exec(l);
            expect(m, `${planner}: '${l}'`).not.toBeNull();
            expect(Number(m![1])).toBe(r);
            const action = m![2] ?? m![3];
            if (variant === "blocking") expect(["isend", "irecv", "waitall"]).not.toContain(action);
            else expect(["send", "recv"]).not.toContain(action);
            if (action === "isend" || action === "irecv") open++;
            if (action === "waitall") {
              expect(open).toBeGreaterThan(0);
              open = 0;
            }
            if (m![3] !== undefined) {
              const peer = Number(m![4]),
                sending = action!.endsWith("send");
              const key = sending ? `${r}>${peer}:${m![5]}:${m![6]}` : `${peer}>${r}:${m![5]}:${m![6]}`;
              balance.set(key, (balance.get(key) ?? 0) + (sending ? 1 : -1));
            }
          }
          expect(open, `${planner}: rank ${r} ends with requests not waited for`).toBe(0);
        }
        expect(
          [...balance].filter(([, n]) => n !== 0),
          planner,
        ).toEqual([]);
      }
    });
  }
  it("dataflow: a program without dependencies is one round (every operation posted, one waitall); one with dependencies is refused", () => {
    const cases = everyPlannerCase(8, "dataflow");
    const direct = cases.filter((c) => c.prog.after!.op.length === 0);
    const relayed = cases.filter((c) => c.prog.after!.op.length > 0);
    expect(direct.map((c) => c.planner)).toEqual(expect.arrayContaining(["shift", "coloring", "linear-permutation"]));
    expect(relayed.map((c) => c.planner)).toEqual(expect.arrayContaining(["two-stage", "four-stage"]));
    for (const { planner, prog } of direct) {
      expect(simgridTraceFiles(prog).length, planner).toBe(prog.p + 1);
      for (let r = 0; r < prog.p; r++) {
        const lines = traceLines(prog, r);
        const messages = lines.filter((l) => / i(send|recv) /.test(l)).length;
        expect(messages, `${planner}: rank ${r}`).toBe(
          Array.from(prog.ops.kind.subarray(prog.rankStart[r]!, prog.rankStart[r + 1]!)).filter((k) => k !== 2).length,
        );
        expect(lines.filter((l) => l.endsWith(" waitall")).length).toBe(messages > 0 ? 1 : 0);
      }
    }
    for (const { planner, prog } of relayed)
      expect(() => simgridTraceFiles(prog), planner).toThrow(
        /^export: simgrid: the dataflow program of .* has \d+ dependencies, which SimGrid's trace replay cannot express .*run it with the executor under smpirun/,
      );
  });

  it("copies are compute actions of t_m x host speed flops per byte, or nothing", () => {
    const { prog } = everyPlannerCase(8, "nonblocking").find((c) => c.planner === "four-stage")!;
    const copies = Array.from(prog.ops.kind).filter((k) => k === 2).length;
    expect(copies).toBeGreaterThan(0);
    let with0 = 0,
      with1 = 0;
    for (let r = 0; r < prog.p; r++) {
      with0 += traceLines(prog, r, 0).filter((l) => l.includes("compute")).length;
      with1 += traceLines(prog, r, 2).filter((l) => l.includes("compute")).length;
    }
    expect(with0).toBe(0);
    expect(with1).toBe(copies);
  });
  it("platform: lat = T_s / 2 on each of the two links, bandwidth 1 / (t_c + t_d); hostfile and index list P entries", () => {
    const t3d = findMachine("t3d-004");
    const xml = simgridPlatformXml(4, t3d);
    expect(xml).toContain('<platform version="4.1">');
    expect(xml).toMatch(
      /<cluster id="c" prefix="h" suffix="" radical="0-3" speed="1Gf" bw="23255813.9535Bps" lat="19us" sharing_policy="SPLITDUPLEX"\/>/,
    );
    const { latUs, bytesPerSecond } = simgridLinkParams(t3d);
    expect(2 * latUs).toBe(t3d.ts);
    expect(1e6 / bytesPerSecond).toBeCloseTo(t3d.tc + t3d.td, 12);
    expect(simgridHostfile(3)).toBe("h0\nh1\nh2\n");
    expect(simgridIndex(2)).toBe("rank-0.txt\nrank-1.txt\n");
  });
});

describe("SimGrid traces as SMPI 3.32 replays them", () => {
  it("dataflow: the sends and copies after the receives stay in program order, as the executor posts them", () => {
    // Rank 0 copies its 123-element diagonal block, then sends 1 element: the executor (and simulate --program) does the
    // copy before the send, so the send leaves after the copy; a trace with every send before the copies let SMPI
    // overlap them (39.032 us against the prediction's 78.064 on t3d-004).
    const m = matrixFromRows([
      [123, 1],
      [1, 0],
    ]);
    const prog = lowerSchedule(m, plan(m, "shift", { payload: true }), { variant: "dataflow" }).program;
    const kinds = Array.from(prog.ops.kind.subarray(prog.rankStart[0]!, prog.rankStart[1]!));
    expect(kinds.indexOf(2)).toBeLessThan(kinds.indexOf(0));
    expect(traceLines(prog, 0, 1000).map((l) => l.split(" ")[1])).toEqual([
      "init",
      "irecv",
      "compute",
      "isend",
      "waitall",
      "finalize",
    ]);
  });
  it("a message past 2^31 - 1 bytes (SimGrid's replay reads an int count) is refused in one line before any file", () => {
    const prog = (n: number, eb: number): Program => {
      const m = matrixFromRows(
        [
          [0, n],
          [3, 0],
        ],
        { elementBytes: eb },
      );
      return lowerSchedule(m, plan(m, "shift", { payload: true })).program;
    };
    expect(simgridTraceFiles(prog(2 ** 31 - 1, 1)).length).toBe(3);
    expect(traceLines(prog(2 ** 31 - 1, 1), 0)).toContain("0 isend 1 0 2147483647");
    for (const [n, eb] of [
      [2 ** 31, 1],
      [2 ** 29, 4],
      [2 ** 32, 1],
    ] as const)
      expect(() => simgridTraceFiles(prog(n, eb))).toThrow(
        new RegExp(
          `^export: simgrid: the send of rank 0 \\(peer 1, round 0\\) is ${n * eb} bytes, past the 2147483647 \\(2\\^31 - 1\\) SimGrid's trace replay reads [^\\n]*$`,
        ),
      );
  });
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "",
    err = "";
  const io: CliIo = { out: (t) => void (out += t), err: (t) => void (err += t), interactive: false };
  return { code: await main(argv, io), out, err };
}

describe("commplan export --format simgrid | goal | msccl-xml", () => {
  const dir = tempDir("export-sg");
  const f = (n: string): string => join(dir, n);
  it("writes traces, index, platform and hostfile into --out; needs --machine and a directory; never replaces an input", async () => {
    expect((await run("gen", "wang-set2", "--p", "8", "--seed", "2", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "--algorithm", "two-stage", "--payload", "-o", f("s.json"))).code).toBe(0);
    const ok = await run(
      "export",
      f("s.json"),
      "--matrix",
      f("m.json"),
      "--format",
      "simgrid",
      "--machine",
      "t3d-004",
      "--out",
      f("sg"),
    );
    expect(ok.code).toBe(0);
    for (const n of ["index.txt", "platform.xml", "hosts", "rank-0.txt", "rank-7.txt"])
      expect(existsSync(join(f("sg"), n)), n).toBe(true);
    expect(readFileSync(join(f("sg"), "rank-3.txt"), "utf8")).toMatch(/^3 init\n3 irecv /);
    const noMachine = await run(
      "export",
      f("s.json"),
      "--matrix",
      f("m.json"),
      "--format",
      "simgrid",
      "--out",
      f("sg2"),
    );
    expect([noMachine.code, noMachine.err]).toEqual([
      2,
      "export: --format simgrid needs --machine (the platform's latency and bandwidth come from the preset)\n",
    ]);
    const noDir = await run(
      "export",
      f("s.json"),
      "--matrix",
      f("m.json"),
      "--format",
      "simgrid",
      "--machine",
      "t3d-004",
    );
    expect(noDir.code).toBe(2);
    expect(noDir.err).toMatch(/^export: --format simgrid writes several files: give --out DIR/);
    writeFileSync(f("hosts"), readFileSync(f("m.json")));
    const clobber = await run(
      "export",
      f("s.json"),
      "--matrix",
      f("hosts"),
      "--format",
      "simgrid",
      "--machine",
      "t3d-004",
      "--out",
      dir,
    );
    expect(clobber.code).toBe(2);
    expect(clobber.err).toMatch(
      /^export: .*hosts: refusing to overwrite an input with the export's hosts: choose another --out directory\n$/,
    );
    expect(existsSync(f("index.txt"))).toBe(false);
  });
  it("goal and msccl-xml go to stdout or -o, and refuse --out", async () => {
    const goal = await run("export", f("s.json"), "--matrix", f("m.json"), "--format", "goal");
    expect(goal.code).toBe(0);
    expect(goal.out).toMatch(/^\/\/ commplan two-stage, P = 8, nonblocking, \d+ rounds;.*\nnum_ranks 8\nrank 0 \{\n/);
    const xml = await run("export", f("s.json"), "--matrix", f("m.json"), "--format", "msccl-xml", "-o", f("a.xml"));
    expect(xml.code).toBe(0);
    expect(readFileSync(f("a.xml"), "utf8")).toMatch(/^<algo name="commplan-two-stage" proto="Simple" /);
    const bad = await run("export", f("s.json"), "--matrix", f("m.json"), "--format", "goal", "--out", f("g"));
    expect(bad.code).toBe(2);
    const self = await run("export", f("s.json"), "--matrix", f("m.json"), "--format", "goal", "-o", f("s.json"));
    expect(self.code).toBe(2);
    expect(self.err).toBe(
      `export: ${f("s.json")}: -o ${f("s.json")} is the input file: writing it would destroy the input; write to another file\n`,
    );
  });
});
