/** commplan check-planner: finds the bugs of the fixture planners through a module and through --command, with shrunk counterexamples. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readMatrixFile } from "../../src/io/matrix-read.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { run } from "../helpers/cli.js";
import { reasonLine } from "../../src/cli/commands/check-planner-runners.js";
import { tempDir } from "../helpers/temp-dir.js";
import { planFailure } from "../../src/testing/index.js";
import { plan as sparseOnly } from "../fixtures/planners/sparse-only.mjs";

const dir = new URL("../fixtures/planners/", import.meta.url).pathname;
const fixture = (name: string): string => join(dir, `${name}.mjs`);
const command = (name: string): string => `node ${join(dir, "run-planner.mjs")} ${fixture(name)} {matrix} {schedule}`;
const nonZero = (file: string): number[] => Array.from(readMatrixFile(file).data).filter((v) => v > 0);
/** A planner module `name`.mjs of `text` in a fresh temporary directory. */
const planner = (name: string, text: string): string => {
  const file = join(tempDir("sandbox"), `${name}.mjs`);
  writeFileSync(file, text);
  return file;
};

describe("commplan check-planner", () => {
  it("passes the correct two-hop planner as a module and as a command", async () => {
    const a = await run("check-planner", fixture("two-hop"), "--runs", "100");
    expect(a.err).toBe("");
    expect(a).toMatchObject({ code: 0 });
    expect(a.out).toMatch(/100 runs pass every check \(seed 1; any matrix, P 1\.\.8/);
    const b = await run("check-planner", "--command", command("two-hop"), "--runs", "15");
    expect(b).toMatchObject({ code: 0, err: "" });
  });

  for (const via of ["module", "command"] as const) {
    const args = (name: string): string[] => (via === "module" ? [fixture(name)] : ["--command", command(name)]);

    it(`finds the planner that forwards before arrival (${via}): causality fails on a 3-node matrix with one entry`, async () => {
      const out = join(tempDir("check"), "cx.json");
      const r = await run("check-planner", ...args("forward-early"), "--runs", "100", "-o", out);
      expect(r.err).toBe("");
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/FAIL after \d+ runs?, shrunk \d+ times?/);
      // the relay's early send is the cause; the element it strands is not what is reported
      expect(r.out).toMatch(/check 'causality' fails \(a node sends only elements it holds since before the step\): /);
      expect(r.out).not.toContain("'delivery'");
      expect(r.out).toMatch(/counterexample, P = 3 \(written to /);
      expect(readMatrixFile(out).p).toBe(3);
      expect(nonZero(out)).toEqual([1]);
    });

    it(`finds the planner that puts two senders on one receiver (${via}): node contention on a 3-node matrix`, async () => {
      const out = join(tempDir("check"), "cx.json");
      const r = await run("check-planner", ...args("two-senders"), "--runs", "100", "-o", out);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/check 'node-contention' fails .*node 0 receives 2 messages \(from 1 and 2\) with 1/);
      expect(r.out).toContain("counterexample, P = 3");
      expect(r.out).toContain("  1 0 0\n  1 0 0\n");
      expect(nonZero(out)).toEqual([1, 1]);
    });
  }

  it("is deterministic for a seed, and draws a pattern family on request", async () => {
    const a = await run("check-planner", fixture("two-senders"), "--seed", "9");
    const b = await run("check-planner", fixture("two-senders"), "--seed", "9");
    expect(a.out).toBe(b.out);
    const c = await run("check-planner", fixture("two-senders"), "--family", "uniform", "--max-p", "5");
    expect(c.code).toBe(1);
    expect(c.out).toMatch(/pattern uniform, P 1\.\.5/);
    // a fixed-size pattern is drawn at its own P (8), which the summary says instead of the range it was given
    const d = await run(
      "check-planner",
      fixture("two-senders"),
      "--family",
      "ranka-fig1",
      "--min-p",
      "10",
      "--max-p",
      "12",
    );
    expect(d.out).toMatch(/pattern ranka-fig1, P = 8 \(a fixed-size pattern\)/);
    expect(d.out).not.toMatch(/P 10\.\.12/);
  });

  it("refuses bad usage with one line and exit 2", async () => {
    const both = await run("check-planner", fixture("two-hop"), "--command", command("two-hop"));
    expect(both).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^check-planner: give either a planner module or --command/),
    });
    const neither = await run("check-planner");
    expect(neither.code).toBe(2);
    const noHoles = await run("check-planner", "--command", "true");
    expect(noHoles.err).toMatch(/--command must contain \{matrix\} and \{schedule\}/);
    const tmp = tempDir("check");
    writeFileSync(join(tmp, "empty.mjs"), "export const x = 1;\n");
    const noPlan = await run("check-planner", join(tmp, "empty.mjs"));
    expect(noPlan).toMatchObject({ code: 2, err: expect.stringMatching(/exports no function 'plan'/) });
    const missing = await run("check-planner", join(tmp, "nope.mjs"));
    expect(missing).toMatchObject({ code: 2, err: expect.stringMatching(/cannot load the planner module/) });
    const onto = await run("check-planner", join(tmp, "empty.mjs"), "-o", join(tmp, "empty.mjs"));
    expect(onto).toMatchObject({ code: 2, err: expect.stringMatching(/^check-planner: .*empty\.mjs/) });
    const family = await run("check-planner", fixture("two-hop"), "--family", "nope");
    expect(family.code).toBe(2);
    expect(readFileSync(join(tmp, "empty.mjs"), "utf8")).toContain("x = 1");
  });

  it("a command that fails or writes nothing is the planner's failure (exit 1), with its stderr", async () => {
    const r = await run("check-planner", "--command", "echo broken >&2; exit 3 # {matrix} {schedule}", "--runs", "3");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/check 'planner' fails .*the command exited with 3: broken/);
    expect(r.out).toContain("counterexample, P = 1");
    const none = await run("check-planner", "--command", "true {matrix} {schedule}", "--runs", "3");
    expect(none.out).toMatch(/wrote no \{schedule\} file/);
  });
});

describe("commplan check-planner --command: the process", () => {
  it("the reason quoted from stderr is the line naming the error, not a runtime's version footer", async () => {
    const r = await run(
      "check-planner",
      "--command",
      `node ${join(dir, "no-such-planner.mjs")} {matrix} {schedule}`,
      "--runs",
      "2",
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/the command exited with 1: Error: Cannot find module '.*no-such-planner\.mjs'/);
    expect(reasonLine("Traceback (most recent call last):\n  File x\nModuleNotFoundError: No module named 'q'\n")).toBe(
      "ModuleNotFoundError: No module named 'q'",
    );
    expect(reasonLine("\nplain words\n\nNode.js v20.20.2\n")).toBe("plain words");
    expect(reasonLine("")).toBe("");
  });

  it("the run ends when the command exits (a background job it leaves does not hold it), and commplan interrupted kills the command's group and removes its files", async () => {
    const tmp = tempDir("check");
    const left = await run(
      "check-planner",
      "--command",
      `${command("two-hop").replace(" {matrix} {schedule}", "")} {matrix} {schedule}; sleep 30 >/dev/null &`,
      "--runs",
      "3",
      "--timeout",
      "5",
    );
    expect(left).toMatchObject({ code: 0 });
    const pidFile = join(tmp, "pid");
    const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
    const ownTmp = join(tmp, "tmp");
    mkdirSync(ownTmp);
    const cli = spawn(
      process.execPath,
      [bin, "check-planner", "--command", `echo $$ > ${pidFile}; exec sleep 300 # {matrix} {schedule}`, "--runs", "2"],
      { stdio: "ignore", env: { ...process.env, TMPDIR: ownTmp } },
    );
    const exited = new Promise<unknown>((resolve) => cli.on("close", (code, signal) => resolve(signal ?? code)));
    for (let k = 0; k < 200 && !existsSync(pidFile); k++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100)); // the pid written, sleep exec'd
    const pid = Number(readFileSync(pidFile, "utf8"));
    cli.kill("SIGTERM");
    expect(await exited).toBe("SIGTERM");
    // gone, or a zombie its new parent has not reaped yet (state Z): not running
    const running = (): boolean => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    for (let k = 0; k < 40 && running(); k++) await new Promise((r) => setTimeout(r, 50));
    expect(running()).toBe(false);
    expect(readdirSync(ownTmp)).toEqual([]); // the run's matrix directory removed too
  });

  it("a command past --timeout is killed with what it started, and the matrix it was on is reported (exit 1, no further run)", async () => {
    const tmp = tempDir("check");
    const started = join(tmp, "started");
    // each run leaves a line; the shell's child (sleep) must die with it
    const r = await run(
      "check-planner",
      "--command",
      `echo run >> ${started}; sleep 30 # {matrix} {schedule}`,
      "--runs",
      "5",
      "--timeout",
      "1",
      "-o",
      join(tmp, "hung.json"),
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL: the command ran past --timeout 1 s and was killed; no further run/);
    expect(r.out).toMatch(/the matrix it was on, P = \d+ \(written to .*hung\.json\)/);
    expect(readFileSync(started, "utf8")).toBe("run\n");
    expect(readMatrixFile(join(tmp, "hung.json")).p).toBeGreaterThan(0);
    // a hang while a real failure is shrunk: both are said (the first run fails, every later one hangs)
    const flag = join(tmp, "failed-once");
    const shrinking = await run(
      "check-planner",
      "--command",
      `if [ -e ${flag} ]; then sleep 30; else touch ${flag}; exit 1; fi # {matrix} {schedule}`,
      "--runs",
      "5",
      "--timeout",
      "1",
    );
    expect(shrinking.code).toBe(1);
    expect(shrinking.out).toMatch(
      /FAIL after 1 run .*; while that failure was shrunk, the command ran past --timeout 1 s/,
    );
    const bad = await run("check-planner", "--command", "true {matrix} {schedule}", "--timeout", "0");
    expect(bad).toMatchObject({ code: 2, err: expect.stringMatching(/--timeout must be an integer in 1\.\.86400/) });
  });
});

describe("commplan check-planner: storage, nondeterminism and bounds", () => {
  it("--family any draws sparse storage: a planner wrong only on sparse matrices is found on 2 nodes", async () => {
    for (const seed of ["1", "2", "3"]) {
      const r = await run("check-planner", fixture("sparse-only"), "--seed", seed);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/check 'delivery' fails/);
      expect(r.out).toContain("counterexample, P = 2, stored sparse:");
    }
  });

  it("reports a nondeterministic planner as such, the same verdict for the same seed", async () => {
    for (const name of ["reorder-steps", "drop-one-in-ten"])
      for (const seed of ["1", "2", "3"]) {
        const a = await run("check-planner", fixture(name), "--seed", seed);
        expect(a.code).toBe(1);
        expect(a.out).toMatch(
          new RegExp(
            "check 'deterministic' fails \\(the same matrix planned twice gives the same schedule\\): " +
              "nondeterministic planner: P = \\d+ planned twice gives two different schedules; " +
              'line \\d+: first ".*", then ".*"',
          ),
        );
        const b = await run("check-planner", fixture(name), "--seed", seed);
        // the module is loaded once per process: its generator goes on, the verdict stays
        expect(b.code).toBe(1);
        expect(b.out.split("\n")[1]).toMatch(/^check 'deterministic' fails .*nondeterministic planner/);
      }
  });

  it("replays a counterexample before printing it: one that does not reproduce is nondeterministic", async () => {
    const r = await run("check-planner", fixture("fails-twice"));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      new RegExp(
        "check 'deterministic' fails .*: nondeterministic planner: " +
          "on the counterexample it failed \\(check 'delivery' fails .*\\), then passed twice on replay",
      ),
    );
  });

  it("states the kit's bounds as flags: --max-steps, --max-buffer, --time-factor on --machine in --mode", async () => {
    const ok = await run("check-planner", fixture("two-hop"), "--max-steps", "P-1", "--runs", "50");
    expect(ok).toMatchObject({ code: 0, err: "" });
    expect(ok.out).toMatch(
      /50 runs pass every check \(seed 1; any matrix, P 1\.\.8, entries up to 100; steps <= P-1\)/,
    );
    const steps = await run("check-planner", fixture("two-senders"), "--max-steps", "1", "--family", "uniform");
    expect(steps.code).toBe(1);
    expect(steps.out).toMatch(/check '(max-steps|node-contention)' fails/);
    const buffer = await run("check-planner", fixture("two-hop"), "--max-buffer", "3P");
    expect(buffer.code).toBe(1);
    expect(buffer.out).toMatch(
      new RegExp(
        "check 'max-buffer' fails \\(every node holds at most \\d+ elements at a step boundary\\): " +
          "node \\d+ holds \\d+ elements",
      ),
    );
    const time = await run(
      "check-planner",
      fixture("two-hop"),
      "--time-factor",
      "2",
      "--machine",
      "t3d-004",
      "--mode",
      "blocking",
    );
    expect(time.code).toBe(1);
    expect(time.out).toMatch(
      new RegExp(
        "time <= 2 x traffic bound on t3d-004 \\(blocking\\)\\)\\n" +
          "check 'modelled-time' fails \\(modelled time on t3d-004 <= 2 x the traffic lower bound\\)",
      ),
    );
    const lone = await run("check-planner", fixture("two-hop"), "--time-factor", "2");
    expect(lone).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^check-planner: --time-factor and --machine go together/),
    });
    // --mode without --time-factor was taken and ignored (its default hid it), as --machine alone is not
    expect(await run("check-planner", fixture("two-hop"), "--mode", "blocking")).toMatchObject({
      code: 2,
      err: "check-planner: --mode goes with --time-factor (the cost mode of the time bound)\n",
    });
    // and so was --max-entry with a pattern family
    expect(await run("check-planner", fixture("two-hop"), "--family", "uniform", "--max-entry", "5")).toMatchObject({
      code: 2,
      err: "check-planner: --max-entry goes with --family any (pattern uniform's entries are its own)\n",
    });
    const bad = await run("check-planner", fixture("two-hop"), "--max-steps", "Q");
    expect(bad).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^check-planner: --max-steps must be an integer or a linear function of P/),
    });
    const help = await run("check-planner", "--help");
    for (const flag of [
      "--max-steps <n>",
      "--max-buffer <n>",
      "--time-factor <x>",
      "--machine <name>",
      "--mode <mode>",
    ])
      expect(help.out).toContain(flag);
  });
});

describe("commplan check-planner: the counterexample as written", () => {
  it("writes a sparse counterexample as entries, which reproduces the failure when read back", async () => {
    const tmp = tempDir("check");
    const out = join(tmp, "sce.json");
    const r = await run("check-planner", fixture("sparse-only"), "--runs", "100", "-o", out);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`counterexample, P = 2, stored sparse (written to ${out}):\n`);
    const doc = JSON.parse(readFileSync(out, "utf8")) as { p: number; entries: number[][]; rows?: unknown };
    expect(doc).toMatchObject({ p: 2, entries: [[expect.any(Number), expect.any(Number), 1]] });
    expect(doc.rows).toBeUndefined();
    const m = readMatrixFile(out);
    expect(m.sparse).toBeDefined();
    expect(planFailure(sparseOnly, m)?.check).toBe("delivery");
    const json = await run("check-planner", fixture("sparse-only"), "--runs", "100", "--json");
    expect(JSON.parse(json.out)).toMatchObject({ verdict: "fail", counterexample: { p: 2, entries: doc.entries } });
    // a command is always given rows: its counterexample is written as rows, though seed 2 draws it sparse
    const module = await run("check-planner", fixture("two-senders"), "--seed", "2");
    expect(module.out).toContain("counterexample, P = 3, stored sparse:\n  0 0 0\n  1 0 0\n  1 0 0\n");
    const dense = await run("check-planner", "--command", command("two-senders"), "--seed", "2", "-o", out);
    expect(dense.out).toContain(`counterexample, P = 3 (written to ${out}):\n  0 0 0\n  1 0 0\n  1 0 0\n`);
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({
      p: 3,
      rows: [
        [0, 0, 0],
        [1, 0, 0],
        [1, 0, 0],
      ],
    });
  });

  it("-o - writes the counterexample alone on stdout (a matrix another command reads), the report on stderr", async () => {
    const r = await run("check-planner", fixture("two-senders"), "--seed", "2", "-o", "-");
    expect(r.code).toBe(1);
    const m = JSON.parse(r.out) as { format: string; p: number };
    expect(m).toMatchObject({ format: "commplan.matrix/v1", p: 3 });
    expect(r.err).toContain("counterexample, P = 3, stored sparse (written to stdout):\n");
    expect(r.err).toMatch(/^check-planner: .*two-senders\.mjs: FAIL after/);
    // a file's format follows its extension, as the readers read it
    const csv = join(tempDir("check"), "cx.csv");
    expect((await run("check-planner", fixture("two-senders"), "--seed", "2", "-o", csv)).code).toBe(1);
    expect(readFileSync(csv, "utf8")).toBe("# commplan elementBytes=8\n0,0,0\n1,0,0\n1,0,0\n");
    expect(Array.from(readMatrixFile(csv).data)).toEqual([0, 0, 0, 1, 0, 0, 1, 0, 0]);
    const pass = await run("check-planner", fixture("two-hop"), "--runs", "5", "-o", "-");
    expect(pass).toMatchObject({ code: 0, out: "" });
    expect(pass.err).toMatch(/5 runs pass every check/);
  });

  it("shrinks a pattern family's counterexample on the matrix itself, within --min-p", async () => {
    const out = join(tempDir("check"), "cx.json");
    const r = await run(
      ...["check-planner", fixture("two-senders"), "--family", "uniform", "--min-p", "8", "--max-p", "16", "-o", out],
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/check 'node-contention' fails .*node 0 receives 2 messages/);
    expect(r.out).toContain("counterexample, P = 8 (written to");
    expect(readMatrixFile(out).p).toBe(8);
    expect(nonZero(out)).toEqual([1, 1]);
  });
});

describe("commplan check-planner: a module runs in a sandbox", () => {
  it("a plan that calls process.exit(0) fails its run with a line naming the module (exit 1, not a silent pass)", async () => {
    const r = await run(
      "check-planner",
      planner("quits", "export function plan() { process.exit(0); }\n"),
      "--runs",
      "5",
    );
    expect(r).toMatchObject({ code: 1, err: "" });
    expect(r.out).toMatch(
      /check 'planner' fails \(the planner returns a schedule\): quits\.mjs called process\.exit\(0\) while planning\n/,
    );
    expect(r.out).toContain("counterexample, P = 1");
  });

  it("a stray rejection fails the run that left it, in one line (no stack trace)", async () => {
    const text = 'export function plan() { Promise.reject(new Error("stray")); return { stages: [] }; }\n';
    const r = await run("check-planner", planner("strays", text), "--runs", "5");
    expect(r).toMatchObject({ code: 1, err: "" });
    expect(r.out).toMatch(/strays\.mjs left a promise rejected with no handler: Error: stray\n/);
    expect(r.out).not.toMatch(/\n\s+at /);
  });

  it("runaway memory stops at the --max-memory heap limit with a line naming the module, not a V8 abort", async () => {
    const text = "export function plan(m) { const a = []; for (;;) a.push(new Array(1e5).fill(m.p + 0.5)); }\n";
    const r = await run("check-planner", planner("hoards", text), "--runs", "3", "--max-memory", "64M");
    expect(r).toMatchObject({ code: 1, err: "" });
    expect(r.out).toMatch(
      /hoards\.mjs ran out of memory: its heap and buffers passed the limit of 64 MiB \(--max-memory\)\n/,
    );
  });

  /** Runs the built CLI in a child process; its output and its peak resident memory (bytes). */
  const measured = (argv: string[], env: NodeJS.ProcessEnv = {}): { out: string; peak: number } => {
    const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
    const report = `process.on("exit", () => process.stderr.write("maxrss " + process.resourceUsage().maxRSS + "\\n"))`;
    const r = spawnSync(process.execPath, ["--import", `data:text/javascript,${report}`, bin, ...argv], {
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    const kib = /maxrss (\d+)/.exec(r.stderr)?.[1];
    expect(kib, r.stderr).toBeDefined();
    return { out: r.stdout, peak: Number(kib) * 1024 };
  };

  it("typed arrays outside the heap are held to --max-memory too: the run is stopped in one line", () => {
    // 2 GiB of buffers, then a spin: unchecked, the run would end at --timeout with the memory taken
    const text =
      "export function plan() { const a = []; for (let i = 0; i < 256; i++) a.push(new Float64Array(1 << 20).fill(1));" +
      " for (;;) {} }\n";
    const r = measured(["check-planner", planner("buffers", text), "--runs", "3", "--max-memory", "64M"]);
    expect(r.out).toMatch(
      /buffers\.mjs ran out of memory: its heap and buffers passed the limit of 64 MiB \(--max-memory\)\n/,
    );
    expect(r.peak).toBeLessThan(1.5 * 2 ** 30);
  });

  it("a heap freed from its limit by NODE_OPTIONS=--max-old-space-size is held to --max-memory too", () => {
    const text = "export function plan(m) { const a = []; for (;;) a.push(new Array(1e5).fill(m.p + 0.5)); }\n";
    const r = measured(["check-planner", planner("hoards", text), "--runs", "3", "--max-memory", "64M"], {
      NODE_OPTIONS: "--max-old-space-size=4096",
    });
    expect(r.out).toMatch(
      /hoards\.mjs ran out of memory: its heap and buffers passed the limit of 64 MiB \(--max-memory\)\n/,
    );
    expect(r.peak).toBeLessThan(2 ** 30);
  });

  it("an endless loop is stopped at --timeout and the matrix it was on is reported (no further run)", async () => {
    const r = await run(
      "check-planner",
      planner("spins", "export function plan() { for (;;) {} }\n"),
      "--runs",
      "5",
      "--timeout",
      "1",
    );
    expect(r).toMatchObject({ code: 1, err: "" });
    expect(r.out).toMatch(/FAIL: the planner ran past --timeout 1 s and was killed; no further run/);
    expect(r.out).toMatch(/the matrix it was on, P = \d+:/);
  });

  it("a module with a syntax error, or that exits while loading, is refused in one line with the line number (exit 2)", async () => {
    const bad = await run(
      "check-planner",
      planner("broken", "export function plan() {\n  return { stages: [] };\n}}\n"),
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /^check-planner: .*broken\.mjs: cannot load the planner module: syntax error at line 3: Unexpected token '\}'\n$/,
    );
    const quits = await run("check-planner", planner("early", "process.exit(3);\nexport function plan() {}\n"));
    expect(quits).toMatchObject({
      code: 2,
      err: expect.stringMatching(/early\.mjs called process\.exit\(3\) while loading\n$/),
    });
  });
});

describe("commplan check-planner: a module that does not load (or does not finish loading) is refused", () => {
  it("run in process, a top-level await that never settles or a load past --timeout is refused in one line (exit 2)", async () => {
    const tla = await run("check-planner", planner("tla", "await new Promise(() => {});\nexport function plan() {}\n"));
    expect(tla).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        /^check-planner: .*tla\.mjs: cannot load the planner module: tla\.mjs did not finish loading: its top-level await never settles\n$/,
      ),
    });
    const slow = planner("slow", "await new Promise((r) => setTimeout(r, 1e7));\nexport function plan() {}\n");
    const r = await run("check-planner", slow, "--timeout", "1");
    expect(r).toMatchObject({
      code: 2,
      out: "",
      err: expect.stringMatching(/slow\.mjs did not finish loading within --timeout 1 s and was stopped\n$/),
    });
  });

  it("a module that loads once and then hangs on its reload (after a run ended its worker) stops as a hang does", async () => {
    const flag = join(tempDir("sandbox"), "loaded");
    const text =
      `import { existsSync, writeFileSync } from "node:fs";\n` +
      `if (existsSync(${JSON.stringify(flag)})) for (;;) {}\n` +
      `writeFileSync(${JSON.stringify(flag)}, "");\n` +
      "export function plan() { process.exit(0); }\n";
    const r = await run("check-planner", planner("reloads", text), "--runs", "5", "--timeout", "1");
    expect(r).toMatchObject({ code: 1, err: "" });
    expect(r.out).toMatch(/FAIL after 1 run .*; while that failure was shrunk, the planner ran past --timeout 1 s/);
  });

  /**
   * Runs the built CLI (bin/commplan.js, dist/) in a child process: its exit code, stdout and stderr. Asynchronous, so
   * that a CLI that hangs meets vitest's safety net instead of blocking the test's thread.
   */
  const child = (...argv: string[]): Promise<{ code: number | null; out: string; err: string }> =>
    new Promise((done, failed) => {
      const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
      const cli = spawn(process.execPath, [bin, ...argv], { stdio: ["ignore", "pipe", "pipe"] });
      let out = "",
        err = "";
      cli.stdout.on("data", (b: Buffer) => void (out += b.toString("utf8")));
      cli.stderr.on("data", (b: Buffer) => void (err += b.toString("utf8")));
      cli.on("error", failed);
      cli.on("close", (code) => done({ code, out, err }));
    });

  // a real process ends on its own unsettled await (exit 13, silent) unless something holds it during the load
  const loads = [
    [
      "early",
      "process.exit(3);\nexport function plan() {}\n",
      [],
      "early\\.mjs called process\\.exit\\(3\\) while loading",
    ],
    [
      "tla",
      "await new Promise(() => {});\nexport function plan() {}\n",
      [],
      "tla\\.mjs did not finish loading: its top-level await never settles",
    ],
    [
      "loadhang",
      "for (;;) {}\nexport function plan(m) { return null; }\n",
      ["--runs", "5", "--timeout", "2"],
      "loadhang\\.mjs did not finish loading within --timeout 2 s and was stopped",
    ],
  ] as const;
  for (const [name, text, flags, line] of loads)
    it(`a real process refuses ${name}.mjs in one line naming it (exit 2), and with --json says so in its document`, async () => {
      const file = planner(name, text);
      const r = await child("check-planner", file, ...flags);
      expect(r).toEqual({
        code: 2,
        out: "",
        err: expect.stringMatching(
          new RegExp(`^check-planner: .*${name}\\.mjs: cannot load the planner module: ${line}\n$`),
        ),
      });
      const j = await child("check-planner", file, ...flags, "--json");
      expect({ code: j.code, err: j.err }).toEqual({ code: 2, err: r.err });
      const doc = JSON.parse(j.out) as Record<string, unknown>;
      expect(() => validateWithSchema("check-planner", doc, "test")).not.toThrow();
      expect(doc).toMatchObject({
        verdict: "not-loaded",
        planner: { module: file },
        runs: 0,
        counterexample: null,
        failure: null,
        loadError: r.err.trimEnd(),
      });
    });
});
