/** Issue 11 regressions: limits on every number of a file, a memory budget, outputs that never destroy inputs, short one-line errors. */
import { describe, expect, it } from "vitest";
import { chmodSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/io.js";
import { CsvReader } from "../../src/io/matrix-text-read.js";
import { MAX_P } from "../../src/model/matrix.js";
import { checkMemory, formatBytes, parseByteSize } from "../../src/model/memory-budget.js";
import { memoryOption } from "../../src/cli/memory-option.js";
import { cliMessage } from "../../src/cli/option-flags.js";
import { readMatrixFile } from "../../src/io/matrix-read.js";
import { MAX_QUOTED, quoted } from "../../src/internal/quoted.js";
import { tempDir } from "../helpers/temp-dir.js";
import { errorOf } from "../helpers/errors.js";

async function run(argv: string[], extra: Partial<CliIo> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = "",
    err = "";
  const io: CliIo = { out: (t) => void (out += t), err: (t) => void (err += t), interactive: false, ...extra };
  const code = await main(argv, io);
  return { code, out, err };
}

const dir = tempDir("hardening");
const f = (name: string): string => join(dir, name);

/** A one-transfer schedule with header fields replaced. */
function schedule(
  header: Record<string, unknown> = {},
  step = '{"transfers":[{"src":0,"dst":1,"size":3}],"stalls":[]}',
): string {
  const h = {
    format: "commplan.schedule/v1",
    p: 4,
    algorithm: "x",
    params: {},
    seed: 1,
    elementBytes: 8,
    matrixDigest: "d",
    ...header,
  };
  const head = Object.entries(h)
    .map(
      ([k, v]) => `${JSON.stringify(k)}:${typeof v === "string" && v.startsWith("#") ? v.slice(1) : JSON.stringify(v)}`,
    )
    .join(",");
  return `{${head},"stages":[{"name":"a","rearrange":"none","steps":[${step}]}]}`;
}

/** Expects exit 2 with one line that matches `re`. */
function oneLineError(r: { code: number; err: string }, re: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.err.trimEnd().split("\n")).toHaveLength(1);
  expect(r.err).toMatch(re);
}

describe("item 1: the schedule's p has the matrices' limit", () => {
  for (const p of ["1000000000", "4294967297", "1e300"]) {
    for (const cmd of [
      ["show"],
      ["cost", "--machine", "t3d-004"],
      ["simulate", "--machine", "t3d-004"],
      ["verify", "-m", "MATRIX"],
    ]) {
      it(`"p":${p}: ${cmd[0]} exits 2 naming the file and /p`, async () => {
        const s = f(`p-${p}.json`);
        writeFileSync(s, schedule({ p: `#${p}` }));
        writeFileSync(f("m4.json"), JSON.stringify({ format: "commplan.matrix/v1", p: 4, entries: [[0, 1, 3]] }));
        const args = cmd.map((a) => (a === "MATRIX" ? f("m4.json") : a));
        const r = await run([cmd[0]!, s, ...args.slice(1)]);
        oneLineError(r, new RegExp(`p-${p.replace(".", "\\.")}\\.json: /p must be <= ${MAX_P}`));
      });
    }
  }
});

describe("a memory budget (--max-memory)", () => {
  it("parses sizes and refuses nonsense", () => {
    expect(parseByteSize("512M")).toBe(512 * 2 ** 20);
    expect(parseByteSize("1.5G")).toBe(1.5 * 2 ** 30);
    expect(parseByteSize("4GiB")).toBe(4 * 2 ** 30);
    expect(parseByteSize("12")).toBe(12);
    expect(parseByteSize("lots")).toBeNull();
    expect(() => memoryOption("1k")).toThrow(/--max-memory must be a size of at least 1M/);
    expect(formatBytes(3 * 2 ** 30)).toBe("3 GiB");
  });

  it("checkMemory refuses past the budget with the estimate, the budget and the option; the CLI names its flag", () => {
    expect(() => checkMemory("m", 2 ** 20, "x", 2 ** 20)).not.toThrow();
    let message = "";
    try {
      checkMemory("m", 3 * 2 ** 20, "a thing", 2 ** 20);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe(
      "m: a thing needs about 3 MiB, past the memory budget of 1 MiB (raise it with the option maxMemory (bytes), e.g. 3M)",
    );
    expect(cliMessage(message)).toBe(
      "m: a thing needs about 3 MiB, past the memory budget of 1 MiB (raise it with --max-memory, e.g. --max-memory 3M)",
    );
    // a planner's refusal names a budget that would do, as the readers' do
    expect(
      cliMessage("planner: x (raise it with the option maxMemory (bytes), e.g. 84M), or plan another algorithm"),
    ).toBe("planner: x (raise it with --max-memory, e.g. --max-memory 84M), or plan another algorithm");
  });

  it("in-process runs keep their budget to themselves: one run's --max-memory limits neither the next run nor library calls", async () => {
    // a dense 512 x 512 matrix: 2 MiB, and 1 MiB of the reader's working set (denseReadBytes)
    const rows = Array.from({ length: 512 }, () => `[${new Array<number>(512).fill(0).join(",")}]`);
    writeFileSync(f("dense512.json"), `{"format":"commplan.matrix/v1","p":512,"rows":[${rows.join(",")}]}`);
    oneLineError(
      await run(["stats", f("dense512.json"), "--max-memory", "1M"]),
      /past the memory budget of 1 MiB \(raise it with --max-memory, e\.g\. --max-memory 3M\)\n$/,
    );
    expect((await run(["stats", f("dense512.json")])).code).toBe(0);
    expect(readMatrixFile(f("dense512.json")).p).toBe(512);
    expect(() => readMatrixFile(f("dense512.json"), { maxMemory: 2 ** 20 })).toThrow(
      /past the memory budget of 1 MiB \(raise it with the option maxMemory \(bytes\), e\.g\. 3M\)$/,
    );
  });

  it("an in-process run hands what it writes to - to the caller's io.out (streamed writers too), not to the process's stdout", async () => {
    const g = await run(["gen", "uniform", "--p", "3", "--seed", "1", "-o", "-"]);
    expect(g.code, g.err).toBe(0);
    expect(JSON.parse(g.out)).toMatchObject({ format: "commplan.matrix/v1", p: 3 });
    writeFileSync(f("u3.json"), g.out);
    const s = await run(["plan", f("u3.json"), "-a", "shift", "-o", "-"]);
    expect(s.code, s.err).toBe(0);
    expect(JSON.parse(s.out)).toMatchObject({ format: "commplan.schedule/v1", p: 3, algorithm: "shift" });
  });

  it("a 70-byte Matrix Market file announcing 10^8 entries is refused up front under a small budget; P = 16384 with one entry is not", async () => {
    writeFileSync(f("big.mtx"), "%%MatrixMarket matrix coordinate integer general\n16384 16384 100000000\n1 2 3\n");
    for (const cmd of [["stats"], ["plan", "-a", "shift"]]) {
      const r = await run([cmd[0]!, f("big.mtx"), ...cmd.slice(1), "--max-memory", "64M"]);
      oneLineError(
        r,
        /big\.mtx:line 2: the size line's 100000000 entries needs about 2\.\d+ GiB, past the memory budget of 64 MiB \(raise it with --max-memory/,
      );
    }
    writeFileSync(f("one.mtx"), "%%MatrixMarket matrix coordinate integer general\n16384 16384 1\n1 2 3\n");
    const json = f("big.json");
    writeFileSync(json, JSON.stringify({ format: "commplan.matrix/v1", p: 16384, entries: [[0, 1, 3]] }));
    for (const file of [f("one.mtx"), json]) {
      const r = await run(["stats", file, "--max-memory", "64M"]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^P +16,384 /);
    }
    // a dense form of the same P is refused before its P^2 array is allocated
    writeFileSync(json, `{"format":"commplan.matrix/v1","p":16384,"rows":[[${Array(16384).fill(0).join(",")}]]}`);
    oneLineError(
      await run(["stats", json, "--max-memory", "64M"]),
      /big\.json: a dense 16384 x 16384 matrix needs about 2\.01 GiB, past the memory budget of 64 MiB/,
    );
  });

  it("a CSV whose first row makes a matrix past the budget is refused before it is allocated", async () => {
    writeFileSync(f("wide.csv"), Array(3000).fill("0").join(",") + "\n");
    oneLineError(
      await run(["stats", f("wide.csv"), "--max-memory", "16M"]),
      /wide\.csv: a dense 3000 x 3000 matrix needs about 76\.7 MiB, past the memory budget of 16 MiB/,
    );
  });

  it("cost and show of a schedule of many empty steps are refused up front past the budget, and run under it", async () => {
    const steps = Array(40000).fill('{"transfers":[],"stalls":[]}').join(",");
    writeFileSync(
      f("empty-steps.json"),
      schedule({}, steps + ',{"transfers":[{"src":0,"dst":1,"size":3}],"stalls":[0]}'),
    );
    oneLineError(
      await run(["cost", f("empty-steps.json"), "--machine", "t3d-004", "--max-memory", "1M"]),
      /cost: .*empty-steps\.json: the cost of 40001 steps on 4 nodes needs about 6\.1 MiB, past the memory budget of 1 MiB/,
    );
    oneLineError(
      await run(["show", f("empty-steps.json"), "--max-memory", "1M"]),
      /show: .*the grid of stage 1 \(40001 steps x 2 senders\) needs about/,
    );
    oneLineError(
      await run(["simulate", f("empty-steps.json"), "--machine", "t3d-004", "--max-memory", "1M"]),
      /simulate: .*needs about .* past the memory budget of 1 MiB/,
    );
    expect((await run(["cost", f("empty-steps.json"), "--machine", "t3d-004", "--max-memory", "64M"])).code).toBe(0);
    expect((await run(["show", f("empty-steps.json"), "--max-memory", "64M"])).code).toBe(0);
  });

  it("--max-memory is an option of every command that reads a file, and each run starts from the default", async () => {
    for (const cmd of ["stats", "plan", "verify", "cost", "show", "simulate"])
      expect((await run([cmd, "--help"])).out).toMatch(/--max-memory <size>/);
    writeFileSync(f("small.mtx"), "%%MatrixMarket matrix coordinate integer general\n600 600 100000\n1 2 3\n");
    expect((await run(["stats", f("small.mtx"), "--max-memory", "1M"])).code).toBe(2);
    expect((await run(["stats", f("small.mtx")])).err).toMatch(/announces 100000 entries but the file has 1/);
  });
});

describe("--max-memory where a refusal names it", () => {
  it("every command whose refusal names --max-memory takes it: gen --file, store add and get, precompute (in its thread and on worker threads)", async () => {
    writeFileSync(f("huge.mtx"), "%%MatrixMarket matrix coordinate integer general\n16384 16384 100000000\n1 2 3\n");
    const past = /past the memory budget of 64 MiB \(raise it with --max-memory/;
    // the store get reads (a refused add makes none)
    writeFileSync(
      f("small-st.json"),
      JSON.stringify({
        format: "commplan.matrix/v1",
        p: 2,
        rows: [
          [0, 1],
          [1, 0],
        ],
      }),
    );
    expect((await run(["store", "add", f("st"), f("small-st.json"), "-a", "shift"])).code).toBe(0);
    for (const argv of [
      ["gen", "spmv", "--p", "4", "--file", f("huge.mtx")],
      ["store", "add", f("st"), f("huge.mtx"), "-a", "shift"],
      ["store", "get", f("st"), f("huge.mtx"), "-a", "shift"],
    ])
      oneLineError(await run([...argv, "--max-memory", "64M"]), past);
    writeFileSync(
      f("big-spec.json"),
      JSON.stringify({ patterns: ["uniform"], p: [4096], seeds: [1, 2], algorithms: ["shift"] }),
    );
    for (const jobs of ["1", "2"]) {
      const r = await run([
        "precompute",
        f("big-spec.json"),
        "--store",
        f(`pre-${jobs}`),
        "--jobs",
        jobs,
        "--max-memory",
        "64M",
      ]);
      // two workers plan at once: each has half the budget
      expect(r.err, jobs).toContain(
        `uniform P=4096 seed=1 shift: patterns: the dense 4096 x 4096 matrix needs about 128 MiB, past the memory budget of ${jobs === "1" ? 64 : 32} MiB`,
      );
      expect(r.err, jobs).toContain("2 jobs: 0 added, 0 present, 2 unplannable");
    }
  });
});

const m = f("in.json");
/** The matrix in.json and its shift plan s.json, the inputs the outputs below must not replace. */
const setup = async (): Promise<void> => {
  expect((await run(["gen", "uniform", "--p", "4", "-o", m])).code).toBe(0);
  expect((await run(["plan", m, "-a", "shift", "-o", f("s.json")])).code).toBe(0);
};

describe("items 2-3: an output never destroys an input", () => {
  it("plan -o onto its matrix, simulate --trace onto its schedule, --realised onto its matrix: exit 2, the input unchanged", async () => {
    await setup();
    const before = readFileSync(m, "utf8"),
      sched = readFileSync(f("s.json"), "utf8");
    oneLineError(
      await run(["plan", m, "-a", "shift", "-o", m]),
      /plan: .*in\.json: -o .*in\.json is the input file: writing it would destroy the input/,
    );
    oneLineError(
      await run(["simulate", f("s.json"), "--machine", "t3d-004", "--trace", f("s.json")]),
      /--trace .* is the input file/,
    );
    oneLineError(
      await run(["simulate", f("s.json"), "--machine", "t3d-004", "--svg", f("s.json")]),
      /--svg .* is the input file/,
    );
    oneLineError(
      await run(["simulate", m, "--machine", "t3d-004", "--protocol", "drs-n", "--realised", m]),
      /--realised .* is the input file/,
    );
    oneLineError(await run(["show", f("s.json"), "--svg", f("s.json")]), /--svg .* is the input file/);
    expect(readFileSync(m, "utf8")).toBe(before);
    expect(readFileSync(f("s.json"), "utf8")).toBe(sched);
  });

  it("two outputs on one file (the same path, a relative spelling, a link to it) are refused before anything is written; /dev/null takes several", async () => {
    await setup();
    const same = /are the same file: one would overwrite the other/;
    oneLineError(
      await run(["platform", "--topology", "flat", "-P", "4", "-o", f("x.xml"), "--hostfile", f("x.xml")]),
      /platform: .*x\.xml: --hostfile .*x\.xml and --output .*x\.xml are the same file/,
    );
    oneLineError(
      await run([
        "simulate",
        f("s.json"),
        "--machine",
        "t3d-004",
        "--trace",
        f("t.json"),
        "--svg",
        join(dir, ".", "t.json"),
      ]),
      same,
    );
    writeFileSync(f("old.svg"), "old");
    symlinkSync(f("old.svg"), f("to-old.svg"));
    oneLineError(
      await run(["compare", m, "--machine", "t3d-004", "--svg", f("old.svg"), "--html", f("to-old.svg")]),
      same,
    );
    expect(readFileSync(f("old.svg"), "utf8")).toBe("old");
    for (const name of ["x.xml", "t.json"]) expect(() => lstatSync(f(name)), name).toThrow();
    const sink = await run([
      "simulate",
      f("s.json"),
      "--machine",
      "t3d-004",
      "--trace",
      "/dev/null",
      "--svg",
      "/dev/null",
    ]);
    expect(sink.code, sink.err).toBe(0);
  });

  it("through a symbolic link, a relative spelling or a hard link: still the input", async () => {
    await setup();
    symlinkSync(m, f("via-link.json"));
    oneLineError(
      await run(["plan", m, "-a", "shift", "-o", f("via-link.json")]),
      /via-link\.json is the input file \(.*in\.json\)/,
    );
    oneLineError(await run(["plan", f("via-link.json"), "-a", "shift", "-o", m]), /is the input file/);
    oneLineError(
      await run(["plan", m, "-a", "shift", "-o", join(dir, ".", "x", "..", "in.json")]),
      /is the input file/,
    );
    const { linkSync } = await import("node:fs");
    linkSync(m, f("hard.json"));
    oneLineError(await run(["plan", m, "-a", "shift", "-o", f("hard.json")]), /hard\.json is the input file/);
    // a link that dangles into a new file is not an input: written
    symlinkSync(f("new-target.json"), f("dangling.json"));
    expect((await run(["plan", m, "-a", "shift", "-o", f("dangling.json")])).code).toBe(0);
    expect(JSON.parse(readFileSync(f("new-target.json"), "utf8"))).toMatchObject({ format: "commplan.schedule/v1" });
  });

  it("a read-only target (no write bit; refused also as root) is not replaced", async () => {
    await setup();
    const ro = f("ro.json");
    writeFileSync(ro, "keep");
    chmodSync(ro, 0o444);
    oneLineError(
      await run(["plan", m, "-a", "shift", "-o", ro]),
      /ro\.json: cannot write: the file is read-only \(mode 0444\)/,
    );
    expect(readFileSync(ro, "utf8")).toBe("keep");
  });
});

describe("items 2-3: inputs named by options (--network, --file) and Arrow outputs", () => {
  it("a topology file given to --network is an input: plan -a auto -o, compare --html / --svg, simulate --link-svg onto it: exit 2, unchanged", async () => {
    await setup();
    const net = f("net.json");
    const topology = {
      format: "commplan.topology/v1",
      name: "two-racks",
      hosts: ["n0", "n1", "n2", "n3"],
      switches: ["left", "right"],
      links: [
        ...["n0", "n1"].map((a) => ({ a, b: "left", bandwidth: 12500, latency: 0.2 })),
        ...["n2", "n3"].map((a) => ({ a, b: "right", bandwidth: 12500, latency: 0.2 })),
        { a: "left", b: "right", bandwidth: 25000, latency: 1 },
      ],
    };
    writeFileSync(net, JSON.stringify(topology));
    const machine = ["--machine", "ib-hdr-200", "--network", net];
    oneLineError(
      await run(["plan", m, "-a", "auto", ...machine, "-o", net]),
      /plan: .*-o .*net\.json is the input file/,
    );
    for (const flag of ["--html", "--svg"])
      oneLineError(
        await run(["compare", m, ...machine, flag, net]),
        new RegExp(`compare: .*${flag} .*net\\.json is the input file`),
      );
    oneLineError(
      await run(["simulate", f("s.json"), ...machine, "--link-svg", net]),
      /--link-svg .*net\.json is the input file/,
    );
    expect(JSON.parse(readFileSync(net, "utf8"))).toEqual(topology);
    // the same file is read as the network when the output goes elsewhere
    expect((await run(["plan", m, "-a", "auto", ...machine, "-o", f("auto.json")])).code).toBe(0);
  });

  it("gen's --file and export / store's Arrow output are guarded too; an Arrow output follows a symbolic link", async () => {
    await setup();
    const mtx = f("A.mtx");
    const text = "%%MatrixMarket matrix coordinate pattern general\n4 4 2\n1 2\n3 4\n";
    writeFileSync(mtx, text);
    oneLineError(await run(["gen", "spmv", "--p", "4", "--file", mtx, "-o", mtx]), /A\.mtx is the input file/);
    expect(readFileSync(mtx, "utf8")).toBe(text);
    writeFileSync(f("real.arrow"), "old");
    symlinkSync(f("real.arrow"), f("link.arrow"));
    expect((await run(["export", f("s.json"), "-f", "arrow", "-o", f("link.arrow")])).code).toBe(0);
    expect(lstatSync(f("link.arrow")).isSymbolicLink()).toBe(true); // the link stays; the file it names is replaced
    expect(readFileSync(f("real.arrow")).subarray(0, 6).toString()).toBe("ARROW1");
  });
});

describe("item 4: numbers past what a double holds exactly are refused with the field's name", () => {
  it("schedule size 2^60: verify and cost exit 2 naming the size", async () => {
    writeFileSync(
      f("big-size.json"),
      schedule({}, '{"transfers":[{"src":0,"dst":1,"size":1152921504606846976}],"stalls":[]}'),
    );
    oneLineError(
      await run(["cost", f("big-size.json"), "--machine", "t3d-004"]),
      /transfers\/0\/size must be <= 9007199254740991/,
    );
    writeFileSync(f("m4.json"), JSON.stringify({ format: "commplan.matrix/v1", p: 4, entries: [[0, 1, 3]] }));
    oneLineError(
      await run(["verify", f("big-size.json"), "-m", f("m4.json")]),
      /transfers\/0\/size must be <= 9007199254740991/,
    );
  });

  it("elementBytes past 1048576 in a schedule, a JSON matrix, a CSV or Matrix Market comment", async () => {
    writeFileSync(f("eb.json"), schedule({ elementBytes: "#1e300" }));
    oneLineError(await run(["cost", f("eb.json"), "--machine", "t3d-004"]), /\/elementBytes must be <= 1048576/);
    writeFileSync(f("ebm.json"), '{"format":"commplan.matrix/v1","p":2,"elementBytes":1e15,"rows":[[0,1],[1,0]]}');
    oneLineError(await run(["stats", f("ebm.json")]), /\/elementBytes must be <= 1048576/);
    writeFileSync(f("eb.csv"), "# commplan elementBytes=1048577\n0,1\n1,0\n");
    oneLineError(
      await run(["stats", f("eb.csv")]),
      /eb\.csv:line 1: elementBytes in the comment = 1048577 exceeds the maximum 1048576/,
    );
    writeFileSync(
      f("eb.mtx"),
      "%%MatrixMarket matrix coordinate integer general\n% commplan elementBytes=2000000\n2 2 1\n1 2 1\n",
    );
    oneLineError(await run(["stats", f("eb.mtx")]), /elementBytes in the comment = 2000000 exceeds the maximum/);
    writeFileSync(f("ok.csv"), "# commplan elementBytes=1048576\n0,1\n1,0\n");
    expect((await run(["stats", f("ok.csv"), "--json"])).out).toMatch(/"elementBytes": 1048576/);
  });
});

describe("item 5: a CSV row longer than a matrix can be is refused as it arrives", () => {
  it("the first row passes MAX_P entries within one chunk of no newline: refused at once", () => {
    const r = new CsvReader("w.csv");
    const chunk = Buffer.from("0,".repeat(MAX_P + 1));
    expect(() => r.write(chunk)).toThrow(/w\.csv:line 1: the first row has more than 16384 entries/);
  });

  it("a later row with more entries than the first is refused before its end", () => {
    const r = new CsvReader("w.csv");
    r.write(Buffer.from("# a, comment, with, commas\n0,1\n"));
    expect(() => r.write(Buffer.from("1,0,0"))).toThrow(/w\.csv:line 3: row has more than 2 entries, expected 2/);
  });

  it("a comment line may hold any number of commas", () => {
    const r = new CsvReader("w.csv");
    r.write(Buffer.from("#" + ",".repeat(MAX_P + 5) + "\n0,1\n1,0\n"));
    expect(r.finish().p).toBe(2);
  });
});

describe("item 6: errors quote a short excerpt of junk", () => {
  it("quoted() cuts long text and says how long it was", () => {
    expect(quoted("abc")).toBe("'abc'");
    const q = quoted("x".repeat(5000));
    expect(q).toBe(`'${"x".repeat(MAX_QUOTED - 3)}...' (5000 characters)`);
    expect(quoted("\n".repeat(100))).toMatch(/^"(\\n){37}\.\.\." \(100 characters\)$/);
    expect(quoted("😀".repeat(30)).includes("\ud83d.")).toBe(false); // no half surrogate pair
  });

  it("stats of 4 KB of random bytes: one line of at most 300 characters", async () => {
    const junk = Buffer.alloc(4096);
    let x = 12345;
    for (let i = 0; i < junk.length; i++) junk[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    writeFileSync(f("junk.bin"), junk);
    const r = await run(["stats", f("junk.bin")]);
    oneLineError(r, /^stats: /);
    expect(r.err.length).toBeLessThan(300 + dir.length);
  });
});

describe("items 7 and 9: usage and stdin", () => {
  it("bare commplan prints one line, exit 2; --help prints the help, exit 0", async () => {
    const bare = await run([]);
    expect(bare).toEqual({ code: 2, out: "", err: "commplan: missing command (try commplan --help)\n" });
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/Usage: commplan/);
    expect(help.out).toContain("Exit codes: 0 ok, 1 a check failed, 2 bad input or usage, 70 an internal error");
  });

  it("a command of sub-commands without one (commplan store) is a one-line usage error naming them, exit 2; asked for, help exits 0", async () => {
    const bare = await run(["store"]);
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(
      /^store: missing sub-command: add, get, list, verify or gc \(try commplan store --help\)\n$/,
    );
    for (const argv of [
      ["store", "--help"],
      ["help", "store"],
      ["store", "help", "add"],
    ]) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(0);
      expect(r.out, argv.join(" ")).toMatch(/Usage: commplan store/);
    }
  });

  it("reading '-' from a terminal says so on stderr; from a pipe it does not", async () => {
    const notice = "commplan: reading standard input (end with Ctrl-D)\n";
    // each run fails on an option before it reads a byte (the notice comes before the action)
    const tty = await run(["stats", "-", "--element-bytes", "0"], { stdinIsTerminal: true });
    expect(tty.err.startsWith(notice)).toBe(true);
    expect(tty.err).toMatch(/--element-bytes must be an integer/);
    const pipe = await run(["stats", "-", "--element-bytes", "0"], { stdinIsTerminal: false });
    expect(pipe.err.includes("reading standard input")).toBe(false);
    const v = await run(["verify", f("none.json"), "-m", "-", "--ports", "0"], { stdinIsTerminal: true });
    expect(v.err.startsWith(notice)).toBe(true);
    expect(
      (await run(["stats", f("none.json")], { stdinIsTerminal: true })).err.includes("reading standard input"),
    ).toBe(false);
  });
});

describe("item 8 (file parts): seed and stalls", () => {
  it('"seed": -1 is refused naming /seed', async () => {
    writeFileSync(f("seed.json"), schedule({ seed: -1 }));
    oneLineError(await run(["cost", f("seed.json"), "--machine", "t3d-004"]), /seed\.json: \/seed must be >= 0/);
  });

  it("duplicate stalls [0,0] are refused naming the stall", async () => {
    writeFileSync(f("stalls.json"), schedule({}, '{"transfers":[],"stalls":[0,0]}'));
    oneLineError(await run(["show", f("stalls.json")]), /\/stages\/0\/steps\/0\/stalls\/1 = 0 repeats a node/);
  });
});

describe("status lines quote names from the input on one line", () => {
  it("export, verify and simulate print a schedule's algorithm holding newlines as escapes, one status line each", async () => {
    writeFileSync(
      f("evil-m.json"),
      JSON.stringify({
        format: "commplan.matrix/v1",
        p: 4,
        elementBytes: 8,
        rows: [
          [0, 3, 0, 0],
          [0, 0, 0, 0],
          [0, 0, 0, 0],
          [0, 0, 0, 0],
        ],
      }),
    );
    const m = await run(["plan", f("evil-m.json"), "-a", "shift", "-o", f("evil-s0.json")]);
    expect(m.code).toBe(0);
    const doc = JSON.parse(readFileSync(f("evil-s0.json"), "utf8")) as { algorithm: string };
    doc.algorithm = "shift\n0 send 1 0 8\nrank 9 {";
    writeFileSync(f("evil-s.json"), JSON.stringify(doc));
    for (const argv of [
      ["export", f("evil-s.json"), "--matrix", f("evil-m.json"), "--format", "program", "-o", f("evil-p.json")],
      ["verify", f("evil-s.json"), "--matrix", f("evil-m.json")],
      ["simulate", f("evil-s.json"), "--machine", "t3d-004"],
    ]) {
      const r = await run(argv);
      expect(r.code, argv[0]).toBe(0);
      const lines = `${r.out}${r.err}`.split("\n");
      expect(
        lines.filter((l) => l.includes("0 send 1 0 8")),
        argv[0],
      ).toEqual([expect.stringContaining("shift\\n0 send 1 0 8\\nrank 9 {")]);
      expect(
        lines.filter((l) => l.startsWith("0 send") || l.startsWith("rank 9")),
        argv[0],
      ).toEqual([]);
    }
  });
});

describe("memory needs past any machine", () => {
  it("a need past any machine's memory (1 PiB) is refused as such, with no budget suggested (not 64G)", () => {
    const messageOf = (f: () => void): string => errorOf(f).message;
    const big = 10 ** 15 * 20;
    const message = messageOf(() => checkMemory("m", big, "a thing", 64 * 2 ** 30));
    expect(message).toBe("m: a thing needs about 18,600,000 GiB: no value of the option maxMemory can hold it");
    expect(formatBytes(big)).toBe("18,600,000 GiB");
    expect(cliMessage(message)).toBe("m: a thing needs about 18,600,000 GiB: no --max-memory can hold it");
    expect(messageOf(() => checkMemory("m", Infinity, "a thing", 2 ** 30))).toBe(
      "m: a thing needs more memory than any machine has: no value of the option maxMemory can hold it",
    );
    // up to 1 PiB a budget that would do is still suggested
    expect(messageOf(() => checkMemory("m", 2 ** 50, "a thing", 2 ** 30))).toContain("e.g. 1048576G)");
  });

  it("verify-program names the buffer size no machine could hold (rank 0's sendSize, its JSON pointer)", async () => {
    const d = tempDir("huge-buffer");
    expect((await run(["gen", "uniform", "--p", "8", "-o", join(d, "m8.json")])).code).toBe(0);
    expect((await run(["plan", join(d, "m8.json"), "-a", "coloring", "-o", join(d, "p.json")])).code).toBe(0);
    const exp = await run([
      "export",
      join(d, "p.json"),
      "-m",
      join(d, "m8.json"),
      "-f",
      "program",
      "-o",
      join(d, "p.prog"),
    ]);
    expect(exp.code, exp.err).toBe(0);
    const prog = JSON.parse(readFileSync(join(d, "p.prog"), "utf8")) as { ranks: { sendSize: number }[] };
    prog.ranks[0]!.sendSize = 10 ** 15;
    writeFileSync(join(d, "big.prog"), JSON.stringify(prog));
    const r = await run(["verify-program", join(d, "big.prog"), "-m", join(d, "m8.json"), "--max-memory", "64G"]);
    expect([r.code, r.err]).toEqual([
      2,
      `verify-program: ${join(d, "big.prog")}: checking 112 operations on P = 8 (rank 0's sendSize at /ranks/0/sendSize is 1,000,000,000,000,000 elements) needs about 18,600,000 GiB: no --max-memory can hold it\n`,
    ]);
  });

  it("verify-program names a scratch size no machine could hold by its JSON field, scratch; split: in its rank file", async () => {
    const d = tempDir("huge-scratch");
    expect((await run(["gen", "uniform", "--p", "8", "-o", join(d, "m8.json")])).code).toBe(0);
    expect((await run(["plan", join(d, "m8.json"), "-a", "coloring", "-o", join(d, "p.json")])).code).toBe(0);
    const m = join(d, "m8.json");
    const exp = await run(["export", join(d, "p.json"), "-m", m, "-f", "program", "-o", join(d, "p.prog")]);
    expect(exp.code, exp.err).toBe(0);
    const split = await run(["export", join(d, "p.json"), "-m", m, "-f", "program", "--split", join(d, "sp")]);
    expect(split.code, split.err).toBe(0);
    const prog = JSON.parse(readFileSync(join(d, "p.prog"), "utf8")) as { ranks: { scratch: number }[] };
    prog.ranks[5]!.scratch = 10 ** 15;
    writeFileSync(join(d, "big.prog"), JSON.stringify(prog));
    const rankFile = join(d, "sp", "rank-5.json");
    const part = JSON.parse(readFileSync(rankFile, "utf8")) as { ranks: { rank: number; scratch: number }[] };
    expect(part.ranks.map((r) => r.rank)).toEqual([5]);
    part.ranks[0]!.scratch = 10 ** 15;
    writeFileSync(rankFile, JSON.stringify(part));
    const tail = "is 1,000,000,000,000,000 elements) needs about 18,600,000 GiB: no --max-memory can hold it\n";
    const whole = await run(["verify-program", join(d, "big.prog"), "-m", m, "--max-memory", "64G"]);
    expect([whole.code, whole.err]).toEqual([
      2,
      `verify-program: ${join(d, "big.prog")}: checking 112 operations on P = 8 (rank 5's scratch at /ranks/5/scratch ${tail}`,
    ]);
    const r = await run(["verify-program", join(d, "sp"), "-m", m, "--max-memory", "64G"]);
    expect([r.code, r.err]).toEqual([
      2,
      `verify-program: ${rankFile}: checking 112 operations on P = 8 (rank 5's scratch at /ranks/0/scratch ${tail}`,
    ]);
  });
});
