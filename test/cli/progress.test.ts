/** The progress bars of plan, export and verify: shown on a terminal (stderr a TTY), never otherwise, and never beside output on the same terminal. */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writingBar } from "../../src/cli/io.js";
import { barSize, fitLine, newBar, progressBar, withProgressAsync } from "../../src/cli/progress.js";
import { run } from "../helpers/cli.js";
import { runOnTerminal } from "../helpers/progress.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("cli-progress");
const f = (name: string): string => join(dir, name);

/** The bars' lines as text (carriage returns and escape sequences dropped). */
const bars = (tty: string): string =>
  tty
    .replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, "") // eslint-disable-line no-control-regex
    .replace(/\r/g, "\n");

beforeAll(async () => {
  expect((await run("gen", "random", "--p", "12", "--density", "0.8", "--max", "7", "-o", f("m.json"))).code).toBe(0);
  expect((await run("plan", "-a", "two-stage", "--payload", f("m.json"), "-o", f("s.json"))).code).toBe(0);
});

describe("progress bars of plan, export, verify", () => {
  it("a bar without a unit shows the percentage alone", () => {
    let text = "";
    const stream = { isTTY: true, columns: 100, write: (c: string) => ((text += c), true) };
    let clock = 0;
    const p = progressBar(true, "plan: coloring", null, stream as unknown as NodeJS.WritableStream, () => clock);
    clock = 2000;
    p.report(420, 1000);
    p.finish();
    expect(text).toMatch(/plan: coloring \[.*\] 42%/);
    expect(text).toMatch(/plan: coloring \[.*\] 100%/);
    expect(text).not.toMatch(/\//);
  });

  it("withProgressAsync completes the bar when the work resolves and leaves it when it rejects", async () => {
    await expect(withProgressAsync(false, "x", "ranks", () => Promise.resolve(7))).resolves.toBe(7);
    await expect(withProgressAsync(false, "x", "ranks", () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
  });

  it("plan: the planner's bar and the writing bar on a terminal; none off it; no writing bar beside output on the terminal", async () => {
    const onTty = await runOnTerminal({ interactive: true }, "plan", "-a", "coloring", f("m.json"), "-o", f("c.json"));
    expect(onTty.code).toBe(0);
    const text = bars(onTty.tty);
    expect(text).toMatch(/plan: coloring \[.*\] 100%/);
    expect(text).toMatch(/plan: writing \[.*\] 100% \| (\d+)\/\1 transfers/);
    expect(onTty.out).toBe(""); // the bars go to stderr only
    const off = await runOnTerminal({ interactive: false }, "plan", "-a", "coloring", f("m.json"), "-o", f("c.json"));
    expect(off.code).toBe(0);
    expect(off.tty).toBe("");
    // the document on the terminal too: no writing bar beside it (the rule of writingBar; export below runs it)
    const io = { out: () => undefined, err: () => undefined };
    expect(writingBar({ ...io, interactive: true }, "-")).toBe(true);
    expect(writingBar({ ...io, interactive: true, stdoutIsTerminal: true }, "-")).toBe(false);
    expect(writingBar({ ...io, interactive: true, stdoutIsTerminal: true }, f("x.json"))).toBe(true);
    expect(writingBar({ ...io, interactive: false }, f("x.json"))).toBe(false);
  });

  it("plan -a auto: one bar in percent (planAuto reports thousandths of its run), rising to 100 %", async () => {
    const onTty = await runOnTerminal(
      { interactive: true },
      "plan",
      "-a",
      "auto",
      "--machine",
      "sp2-004",
      f("m.json"),
      "-o",
      f("a.json"),
    );
    expect(onTty.code).toBe(0);
    const text = bars(onTty.tty);
    expect(text).toMatch(/plan \[.*\] 100%/);
    expect(text).not.toMatch(/plan \[.*\] \d+% \|/); // no unit: a thousandth is not a transfer
    const shown = [...text.matchAll(/plan \[.*?\] (\d+)%/g)].map((x) => Number(x[1]));
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
  });

  it("export: the lowering and the writing (ranks, or simgrid's files) on a terminal; none off it", async () => {
    const goal = ["export", f("s.json"), "-m", f("m.json"), "-f", "goal", "-o", f("g.txt")];
    const prog = await runOnTerminal({ interactive: true }, ...goal);
    expect(prog.code).toBe(0);
    expect(bars(prog.tty)).toMatch(/export: lowering \[.*\] 100%/);
    expect(bars(prog.tty)).toMatch(/export: writing \[.*\] 100% \| 12\/12 ranks/);
    const sim = await runOnTerminal(
      { interactive: true },
      ...["export", f("s.json"), "-m", f("m.json"), "-f", "simgrid", "--machine", "ib-hdr-200", "--out", f("sg")],
    );
    expect(sim.code).toBe(0);
    const files = readdirSync(f("sg")).length;
    expect(bars(sim.tty)).toMatch(new RegExp(`export: writing \\[.*\\] 100% \\| ${files}/${files} files`));
    const split = await runOnTerminal(
      { interactive: true },
      "export",
      f("s.json"),
      "-m",
      f("m.json"),
      "-f",
      "program",
      "--split",
      f("split"),
    );
    expect(bars(split.tty)).toMatch(/export: writing \[.*\] 100% \| 12\/12 ranks/);
    const off = await runOnTerminal({ interactive: false }, ...goal);
    expect(off.code).toBe(0);
    expect(off.tty).toBe("");
    const toTerminal = await runOnTerminal(
      { interactive: true, stdoutIsTerminal: true },
      ...["export", f("s.json"), "-m", f("m.json"), "-f", "goal"],
    );
    expect(toTerminal.out).toMatch(/^\/\/ commplan two-stage/);
    expect(bars(toTerminal.tty)).toMatch(/export: lowering \[.*\] 100%/);
    expect(toTerminal.tty).not.toMatch(/export: writing/);
    expect(toTerminal.out).not.toMatch(/export: lowering|\d+%/); // the document alone on stdout
  });

  it("verify: a bar on a terminal before the report; none off it", async () => {
    const onTty = await runOnTerminal({ interactive: true }, "verify", f("s.json"), "-m", f("m.json"));
    expect(onTty.code).toBe(0);
    expect(bars(onTty.tty)).toMatch(/verify \[.*\] 100%/);
    expect(onTty.out).not.toMatch(/verify \[/);
    expect(onTty.out).toMatch(/delivery/);
    const off = await runOnTerminal({ interactive: false }, "verify", f("s.json"), "-m", f("m.json"));
    expect(off.tty).toBe("");
    expect(off.out).toBe(onTty.out);
  });
});

describe("progress bars leave the terminal's modes alone", () => {
  it("precompute: a job's unplannable line waits for the bar to end, not written into its line or over by its end", async () => {
    const spec = f("unplannable.json");
    writeFileSync(
      spec,
      JSON.stringify({
        patterns: ["uniform"],
        p: [8, 9],
        seeds: [1],
        algorithms: ["shift", { name: "mesh-two-stage", params: { rows: 3 } }],
      }),
    );
    // stderr a terminal, the messages and the bar written to it in the order they were written
    const held = await runOnTerminal(
      { interactive: true, errOnTerminal: true },
      ...["precompute", spec, "--store", f("held"), "--jobs", "1"],
    );
    const { code, tty } = held;
    expect(code).toBe(0);
    const end = tty.lastIndexOf("\x1b8"); // the bar's end: the cursor back where the bar started
    expect(end).toBeGreaterThan(0);
    expect(bars(tty.slice(0, end))).toMatch(/precompute \[.*\] 100% \| 4\/4 plans/);
    expect(tty.slice(0, end)).not.toContain("unplannable");
    const after = tty.slice(end);
    expect(after).toContain("precompute: unplannable: uniform P=8 seed=1 mesh-two-stage: ");
    expect(after).toMatch(/unplannable: uniform P=8 .*\n.*4 jobs: 3 added, 0 present, 1 unplannable/s);
  });

  it("no bar turns line wrapping off (a run killed by Ctrl-C left it off); a line past the width is cut instead", async () => {
    const spec = f("spec.json");
    writeFileSync(spec, JSON.stringify({ patterns: ["uniform"], p: [8], seeds: [1, 2], algorithms: ["shift"] }));
    const pre = await runOnTerminal({ interactive: true }, "precompute", spec, "--store", f("store"), "--jobs", "1");
    expect(pre.code, pre.err).toBe(0);
    expect(bars(pre.tty)).toMatch(/precompute \[.*\] 100% \| 2\/2 plans/);
    const plan = await runOnTerminal({ interactive: true }, "plan", "-a", "coloring", f("m.json"), "-o", f("w.json"));
    expect(plan.code).toBe(0);
    expect(bars(plan.tty)).toMatch(/plan: coloring \[.*\] 100%/);
    for (const tty of [pre.tty, plan.tty]) expect(tty).not.toContain("\x1b[?7l");
    let text = "";
    const stream = { isTTY: true, columns: 30, write: (c: string) => ((text += c), true) };
    let clock = 0;
    const p = progressBar(true, "plan: coloring", "transfers", stream as unknown as NodeJS.WritableStream, () => clock);
    clock = 2000;
    p.report(420, 1000);
    p.finish();
    expect(text).not.toContain("\x1b[?7l");
    // each drawing starts at the line's first column (ESC [1G)
    const lines = text
      .split("\x1b[1G")
      .flatMap((l) => bars(l).split("\n"))
      .filter((l) => /^plan(: coloring)? \[/.test(l)); // at 30 columns the label is shortened to "plan" (fitLine)
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(30);
  });
});

describe("a bar's line fits the terminal", () => {
  /** The lines a bar drew on a fake terminal of `columns` (each draw starts at column 1; escapes dropped). */
  const linesOn = (columns: number, draw: (stream: NodeJS.WritableStream) => void): string[] => {
    let text = "";
    const stream = { isTTY: true, columns, write: (c: string) => ((text += c), true) };
    draw(stream as unknown as NodeJS.WritableStream);
    return bars(text.replace(/\x1b\[1G/g, "\n")) // eslint-disable-line no-control-regex
      .split("\n")
      .filter((l) => l !== "");
  };

  it("precompute's bar and a counted bar are whole within the width less one column (the default bar was cut at 80)", () => {
    for (const columns of [60, 80, 100]) {
      const pre = linesOn(columns, (stream) => {
        const bar = newBar(stream, "precompute [{bar}] {percentage}% | {value}/{total} plans | eta {eta}s", 1000);
        bar.start(1000, 500);
        bar.stop();
      });
      expect(pre.length, `${columns}`).toBeGreaterThan(0);
      for (const l of pre) {
        expect(l, `${columns}`).toMatch(/^precompute \[.*\] 50% \| 500\/1000 plans \| eta \d+s$/);
        expect(l.length, `${columns}: ${l}`).toBeLessThan(columns);
      }
      let clock = 0;
      const stream = (s: NodeJS.WritableStream): void => {
        const p = progressBar(true, "plan: writing", "transfers", s, () => clock);
        clock = 2000;
        p.report(12345, 99999);
        p.finish();
      };
      for (const l of linesOn(columns, stream)) {
        expect(l, `${columns}`).toMatch(/^plan: writing \[.*\] \d+% \| \d+\/99999 transfers$/);
        expect(l.length, `${columns}: ${l}`).toBeLessThan(columns);
      }
    }
    // a total that grows by digits after the bar was sized (9, then 99999999) narrows the bar: the line stays whole
    for (const columns of [70, 80]) {
      let clock = 0;
      const lines = linesOn(columns, (s) => {
        const p = progressBar(true, "plan: writing", "transfers", s, () => clock);
        clock = 2000;
        p.report(5, 9);
        p.report(5, 99999999);
        p.finish();
      });
      expect(lines.some((l) => l.includes("/99999999 "))).toBe(true);
      for (const l of lines) {
        expect(l, `${columns}`).toMatch(/^plan: writing \[.*\] \d+% \| \d+\/(9|99999999) transfers$/);
        expect(l.length, `${columns}: ${l}`).toBeLessThan(columns);
      }
    }
    // at 60 columns an 8-digit count left writing's line 61 columns wide with the narrowest bar: cut by cli-progress
    {
      let clock = 0;
      const lines = linesOn(60, (s) => {
        const p = progressBar(true, "plan: writing", "transfers", s, () => clock);
        clock = 2000;
        p.report(5, 99999999);
        p.finish();
      });
      // the bar shortened first (to 10), then the unit dropped, and the bar as wide as the room left
      for (const l of lines) expect(l).toMatch(/^plan: writing \[.{18}\] \d+% \| \d+\/99999999$/);
    }
    // any width from 40 up, any count up to 10 digits: the line fits, labels shortened in turn (fitLine)
    for (const columns of [40, 41, 47, 53, 60, 66, 80])
      for (const total of [9, 99999, 99999999, 9999999999])
        for (const [command, unit] of [
          ["plan: writing", "transfers"],
          ["simulate", "messages"],
          ["export: lowering", null],
        ] as const) {
          let clock = 0;
          const lines = linesOn(columns, (s) => {
            const p = progressBar(true, command, unit, s, () => clock);
            clock = 2000;
            p.report(total, total);
            p.finish();
          });
          expect(lines.length).toBeGreaterThan(0);
          for (const l of lines) {
            expect(l.length, `${columns} ${total}: ${l}`).toBeLessThan(columns);
            expect(l, `${columns} ${total}`).toMatch(/\[.{3,40}\] 100%/);
          }
        }
    for (const columns of [40, 50, 60, 80]) {
      const lines = linesOn(columns, (stream) => {
        const bar = newBar(stream, "precompute [{bar}] {percentage}% | {value}/{total} plans | eta {eta}s", 99999999);
        bar.start(99999999, 5);
        bar.stop();
      });
      for (const l of lines) expect(l.length, `${columns}: ${l}`).toBeLessThan(columns);
    }
    expect(fitLine("plan: writing [{bar}] {percentage}% | {value}/{total} transfers", 99999999, 52)).toEqual({
      format: "plan: writing [{bar}] {percentage}% | {value}/{total}",
      barsize: 10,
    });
    expect(fitLine("plan: writing [{bar}] {percentage}% | {value}/{total} transfers", 9999999999, 40)).toEqual({
      format: "plan: writing [{bar}] {percentage}%",
      barsize: 18,
    });
    // as wide as cli-progress's own bar where there is room; never narrower than 10
    expect(barSize("x [{bar}]", 1, 200)).toBe(40);
    expect(barSize("precompute [{bar}] {percentage}% | {value}/{total} plans | eta {eta}s", 1000, 20)).toBe(10);
    expect(barSize("x [{bar}]", 1, undefined)).toBe(40);
  });
});
