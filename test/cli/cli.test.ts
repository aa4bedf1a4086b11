import { describe, expect, it } from "vitest";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("cli");
const f = (name: string): string => join(dir, name);

describe("commplan gen | plan | verify (issue 2, done-when)", () => {
  for (const p of [64, 61]) {
    for (const algorithm of ["linear-permutation", "shift"]) {
      it(`pattern1, P = ${p}, ${algorithm}, payload: verify exits 0`, async () => {
        const m = f(`m${p}.json`),
          s = f(`s${p}-${algorithm}.json`);
        expect((await run("gen", "pattern1", "--p", String(p), "--seed", "1", "-o", m)).code).toBe(0);
        const planned = await run("plan", m, "--algorithm", algorithm, "--payload", "-o", s);
        expect(planned.code).toBe(0);
        const v = await run("verify", s, "--matrix", m);
        expect(v.err).toBe("");
        expect(v.code).toBe(0);
        expect(v.out).toMatch(/all checks hold/);
        const j = await run("verify", s, "--matrix", m, "--json");
        expect(JSON.parse(j.out)).toMatchObject({ format: "commplan.report/v1", ok: true, p });
      });
    }
  }

  it("gen is deterministic for a seed and different for another seed", async () => {
    await run("gen", "pattern1", "--p", "16", "--seed", "5", "-o", f("a.json"));
    await run("gen", "pattern1", "--p", "16", "--seed", "5", "-o", f("b.json"));
    await run("gen", "pattern1", "--p", "16", "--seed", "6", "-o", f("c.json"));
    expect(readFileSync(f("a.json"), "utf8")).toBe(readFileSync(f("b.json"), "utf8"));
    expect(readFileSync(f("a.json"), "utf8")).not.toBe(readFileSync(f("c.json"), "utf8"));
  });

  it("verify exits 1 and names the failing check for a corrupted schedule", async () => {
    await run("gen", "uniform", "--p", "6", "-o", f("u.json"));
    await run("plan", f("u.json"), "-a", "shift", "--payload", "-o", f("us.json"));
    const doc = JSON.parse(readFileSync(f("us.json"), "utf8"));
    doc.stages[0].steps[1].transfers.push(doc.stages[0].steps[0].transfers.pop());
    writeFileSync(f("bad.json"), JSON.stringify(doc));
    const v = await run("verify", f("bad.json"), "--matrix", f("u.json"));
    expect(v.code).toBe(1);
    expect(v.out).toMatch(/FAIL/);
    expect(v.out).toMatch(/node-contention: step 1: node \d+ (sends|receives) 2 messages/);
  });

  it("cost, stats and the listings print and exit 0", async () => {
    await run("gen", "pattern1", "--p", "8", "-o", f("c8.json"));
    await run("plan", f("c8.json"), "-a", "shift", "-o", f("c8s.json"));
    const c = await run("cost", f("c8s.json"), "--machine", "t3d-004", "--json");
    expect(c.code).toBe(0);
    expect(JSON.parse(c.out).total).toBeGreaterThan(0);
    expect(c.err).toBe("");
    // a step with more messages of a node than the machine's ports: the model understates it, and says so
    await run("plan", f("c8.json"), "-a", "mpi-linear", "-o", f("c8l.json"));
    const l = await run("cost", f("c8l.json"), "--machine", "t3d-004");
    expect([l.code, l.err]).toEqual([
      0,
      "cost: note: a node has 7 messages in one step on a machine with 1 port: the flat model charges a step its " +
        "slowest message, which understates such a step (node contention is not modelled); 'commplan simulate' " +
        "replays it (docs/cost-model.md)\n",
    ]);
    // docs/cost-model.md's figures: MPI's linear plan of pattern1 at P = 64 (seed 1) on t3d-004
    await run("gen", "pattern1", "--p", "64", "--seed", "1", "-o", f("c64.json"));
    await run("plan", f("c64.json"), "-a", "mpi-linear", "-o", f("c64l.json"));
    expect((await run("cost", f("c64l.json"), "--machine", "t3d-004")).out).toMatch(
      /^blocking cost on t3d-004: 2,030 us \(63 start-ups at the busiest node\)/,
    );
    expect((await run("simulate", f("c64l.json"), "--machine", "t3d-004")).out).toMatch(/: makespan 20,408 us /);
    const st = await run("stats", f("c8.json"), "--json");
    expect(JSON.parse(st.out)).toMatchObject({ p: 8, h: 7 });
    expect(JSON.parse(st.out)).not.toHaveProperty("perNode");
    for (const cmd of ["algorithms", "machines", "patterns"]) {
      const r = await run(cmd);
      expect(r.code).toBe(0);
      expect(r.out.length).toBeGreaterThan(20);
    }
  });

  it("demo plans, verifies and costs the built-in example", async () => {
    const d = await run("demo");
    expect(d.code).toBe(0);
    expect(d.out).toMatch(/linear-permutation\s+yes/);
    expect(d.out).toMatch(/shift\s+yes/);
    expect(d.out).toMatch(/four-stage\s+yes/);
    // MPI's plans that post several messages of a node at once pass only with unlimited ports, and say so
    expect(d.out).toMatch(/^mpi-linear\s+yes, any ports\s/m);
    expect(d.out).toMatch(/^mpi-ring\s+yes\s+\d/m);
    expect(d.out).toMatch(/verified with unlimited ports \("yes, any ports"; verify --ports unlimited\)/);
    expect(d.out).not.toMatch(/^te-/m);
    expect(d.out).toMatch(/commplan te-table/);
  });

  it("demo --json replays every plan with data mode: all delivered, and the spike makes shift wait for busy receivers", async () => {
    const d = await run("demo", "--json");
    expect(d.code).toBe(0);
    const j = JSON.parse(d.out) as {
      results: { algorithm: string; verified: boolean; simulatedUs: number; maxWaitUs: number; blockingUs: number }[];
    };
    expect(j.results.length).toBeGreaterThanOrEqual(9);
    for (const r of j.results) {
      expect(r.verified).toBe(true);
      expect(r.simulatedUs).toBeGreaterThan(0);
      expect(r.maxWaitUs).toBeGreaterThanOrEqual(0);
    }
    expect(j.results.find((r) => r.algorithm === "shift")!.maxWaitUs).toBeGreaterThan(0);
    const ports = (name: string) => (j.results.find((r) => r.algorithm === name) as { verifiedPorts?: unknown })!;
    expect([ports("shift").verifiedPorts, ports("mpi-ring").verifiedPorts, ports("mpi-linear").verifiedPorts]).toEqual([
      1,
      1,
      null,
    ]);
  });
});

describe("bad input exits 2 with one line naming the problem", () => {
  // the whole stderr line, after "matrix: <file>"
  const cases: [string, string, string][] = [
    [
      "not square",
      '{"format":"commplan.matrix/v1","p":2,"rows":[[0,1],[1]]}',
      ":line 1: row 1 has 1 entry, expected 2 (the matrix must be square)",
    ],
    ["negative", '{"format":"commplan.matrix/v1","p":2,"rows":[[0,-1],[1,0]]}', ":line 1: /rows/0/1 must be >= 0"],
    [
      "fractional",
      '{"format":"commplan.matrix/v1","p":2,"rows":[[0,1.5],[1,0]]}',
      ":line 1: /rows/0/1 must be integer",
    ],
    [
      "wrong format name",
      '{"format":"commplan.matrix/v2","p":2,"rows":[[0,1],[1,0]]}',
      ': /format is "commplan.matrix/v2", expected "commplan.matrix/v1"',
    ],
    ["P = 0", '{"format":"commplan.matrix/v1","p":0,"rows":[]}', ": /p must be >= 1"],
    [
      "malformed JSON",
      '{"format":"commplan.matrix/v1",\n"p":2,\n"rows":[[0,1],[1,0]\n',
      ":line 4: invalid JSON: unexpected end of input (2 unclosed brackets) (column 1)",
    ],
    ["malformed CSV", "0,1,2\n1,0,x\n2,2,0\n", ":line 2: 'x' is not a non-negative integer (column 3)"],
    ["NaN in CSV", "0,NaN\n1,0\n", ":line 1: 'NaN' is not a non-negative integer (column 2)"],
    ["empty", "", ":line 1: invalid JSON: the document is empty (column 1)"],
  ];
  for (const [name, text, message] of cases) {
    it(name, async () => {
      const file = f(`bad-${name.replace(/\W/g, "_")}.${name.includes("CSV") ? "csv" : "json"}`);
      writeFileSync(file, text);
      const r = await run("stats", file);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`stats: ${file}${message}\n`);
    });
  }

  it("a schedule for another matrix", async () => {
    await run("gen", "uniform", "--p", "5", "-o", f("m5.json"));
    await run("gen", "pattern1", "--p", "5", "-o", f("m5b.json"));
    await run("plan", f("m5.json"), "-a", "shift", "-o", f("s5.json"));
    const r = await run("verify", f("s5.json"), "--matrix", f("m5b.json"));
    expect(r.code).toBe(2);
    // one line naming both files (before: neither), as export, verify-program and simulate --data do
    const esc = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const named = (module: string, doc: string, what: string): RegExp =>
      new RegExp(
        `^${module}: ${esc(doc)}: ${what} was made for another matrix \\(digest mm3x64:[0-9a-f]+, --matrix ${esc(f("m5b.json"))} has mm3x64:[0-9a-f]+\\)\n$`,
      );
    expect(r.err).toMatch(named("verify", f("s5.json"), "the schedule"));
    await run("export", f("s5.json"), "--matrix", f("m5.json"), "--format", "program", "-o", f("p5.json"));
    const lowered = await run("export", f("s5.json"), "--matrix", f("m5b.json"), "--format", "program");
    expect([lowered.code, lowered.out]).toEqual([2, ""]);
    expect(lowered.err).toMatch(named("export", f("s5.json"), "the schedule"));
    const program = await run("verify-program", f("p5.json"), "--matrix", f("m5b.json"));
    expect(program.code).toBe(2);
    expect(program.err).toMatch(named("verify-program", f("p5.json"), "the program"));
    const data = await run("simulate", f("s5.json"), "--machine", "t3d-004", "--data", "-m", f("m5b.json"));
    expect(data.code).toBe(2);
    expect(data.err).toMatch(named("simulate", f("s5.json"), "data mode: the schedule"));
  });

  it("a schedule whose P is not the matrix's is told as that, not as the memory its P would need", async () => {
    await run("gen", "uniform", "--p", "8", "-o", f("m8.json"));
    await run("plan", f("m8.json"), "-a", "coloring", "-o", f("s8.json"));
    const doc = JSON.parse(readFileSync(f("s8.json"), "utf8")) as { p: number };
    writeFileSync(f("big-p.json"), JSON.stringify({ ...doc, p: 1048576 }));
    const r = await run("verify", f("big-p.json"), "--matrix", f("m8.json"));
    expect([r.code, r.err]).toEqual([
      2,
      `verify: ${f("big-p.json")}: the schedule is for P = 1048576, --matrix ${f("m8.json")} has P = 8\n`,
    ]);
  });

  it("unknown algorithm, machine, pattern option, missing file, bad seed, unknown command", async () => {
    await run("gen", "uniform", "--p", "4", "-o", f("m4.json"));
    expect((await run("plan", f("m4.json"), "-a", "nope")).err).toMatch(/unknown algorithm 'nope'/);
    expect((await run("cost", f("m4.json"), "--machine", "nope")).err).toMatch(/unknown machine 'nope'/);
    expect((await run("gen", "uniform", "--p", "4", "--mmax", "3")).err).toMatch(
      /pattern 'uniform' has no option --mmax/,
    );
    expect((await run("stats", f("missing.json"))).err).toMatch(/missing\.json/);
    expect((await run("gen", "uniform", "--p", "4", "--seed", "-3")).err).toMatch(/--seed must be an integer/);
    const u = await run("frobnicate");
    expect(u.code).toBe(2);
    expect(u.err).toMatch(/unknown command/);
  });

  it("a failed write leaves no partial file", async () => {
    const r = await run("gen", "uniform", "--p", "4", "-o", join(dir, "no-such-dir", "m.json"));
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `gen: ${join(dir, "no-such-dir", "m.json")}: cannot write: the directory ${join(dir, "no-such-dir")} does not exist\n`,
    );
    expect(existsSync(join(dir, "no-such-dir"))).toBe(false);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("a matrix key with a newline is quoted: the message stays one line", async () => {
    writeFileSync(f("nl-key.json"), '{"format":"commplan.matrix/v1","p":1,"rows":[[0]],"a\\nb":1}');
    const r = await run("stats", f("nl-key.json"));
    expect(r.code).toBe(2);
    expect(r.err).toBe(`stats: ${f("nl-key.json")}: / must NOT have additional properties ("a\\nb")\n`);
  });

  it("--param __proto__=3 is an unknown parameter, not silently dropped", async () => {
    await run("gen", "uniform", "--p", "4", "-o", f("proto.json"));
    const r = await run("plan", f("proto.json"), "-a", "shift", "--param", "__proto__=3");
    expect(r.code).toBe(2);
    expect(r.err).toBe("plan: shift: unknown parameter '__proto__'; known: (none)\n");
  });
});

describe("output targets: -o writes to what is there, never replaces it", () => {
  it("gen -o and show --svg through a symbolic link: the link stays, the file it names gets the text", async () => {
    mkdirSync(f("links/real"), { recursive: true });
    writeFileSync(f("links/real/m.json"), "old");
    writeFileSync(f("links/real/g.svg"), "old");
    symlinkSync("real/m.json", f("links/m.json"));
    symlinkSync("real/g.svg", f("links/g.svg"));
    expect((await run("gen", "uniform", "--p", "4", "-o", f("links/m.json"))).code).toBe(0);
    expect(readFileSync(f("links/real/m.json"), "utf8")).toMatch(/^\{"format":"commplan\.matrix\/v1"/);
    expect((await run("plan", f("links/m.json"), "-a", "shift", "-o", f("links/s.json"))).code).toBe(0);
    expect((await run("show", f("links/s.json"), "--svg", f("links/g.svg"))).code).toBe(0);
    expect(readFileSync(f("links/real/g.svg"), "utf8")).toMatch(/^<svg/);
    for (const link of ["m.json", "g.svg"]) expect(lstatSync(f(`links/${link}`)).isSymbolicLink(), link).toBe(true);
  });

  it("a socket as the output: exit 2, one line, the socket stays", async () => {
    const sock = f("out.sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      const r = await run("gen", "uniform", "--p", "4", "-o", sock);
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        `gen: ${sock}: cannot write: no such device or address (a socket cannot be opened as a file)\n`,
      );
      expect(lstatSync(sock).isSocket()).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("stats --per-node", () => {
  it("prints r_i, c_j, f_i, g_j of every node as a table, and as arrays with --json", async () => {
    // node 0 sends 5 to 1 and 7 to 2; node 2 sends 1 to 0; diagonal left out
    writeFileSync(f("pn.csv"), "9,5,7\n0,0,0\n1,0,4\n");
    const t = await run("stats", f("pn.csv"), "--per-node");
    expect(t.code).toBe(0);
    expect(t.out).toContain(
      "\nnode  r_i  c_j  f_i  g_j\n0     12   1    2    1\n1     0    5    0    1\n2     1    7    1    1\n",
    );
    const j = JSON.parse((await run("stats", f("pn.csv"), "--per-node", "--json")).out) as {
      perNode: unknown;
      r: number;
    };
    expect(j.perNode).toEqual({ r: [12, 0, 1], c: [1, 5, 7], f: [2, 0, 1], g: [1, 1, 1] });
    expect(j.r).toBe(12);
    expect((await run("stats", f("pn.csv"))).out).not.toMatch(/r_i/);
  });
});

describe("options: one parser, one line per problem", () => {
  it("integer options take decimal digits only; number options decimal notation", async () => {
    for (const [args, line] of [
      [["gen", "uniform", "--p", "0x10"], "gen: --ranks (--p) must be an integer in 1..1048576, got '0x10'"],
      [["gen", "uniform", "--p", "1e1"], "gen: --ranks (--p) must be an integer in 1..1048576, got '1e1'"],
      [["gen", "uniform", "--p", " 4"], "gen: --ranks (--p) must be an integer in 1..1048576, got ' 4'"],
      [["gen", "uniform", "--p", "4", "--size", "0x2"], "gen: --size must be an integer in 0..4294967296, got '0x2'"],
      [
        ["gen", "h-relation", "--p", "8", "--h", "2.5"],
        "gen: --messages (--h) must be an integer in 0..1048576, got '2.5'",
      ],
      [["gen", "h-relation", "--p", "8", "--self", "2"], "gen: --self must be an integer in 0..1, got '2'"],
      [["gen", "ranka-kl", "--p", "8", "--l", "0x1"], "gen: --non-uniformity (--l) must be a number, got '0x1'"],
      [
        ["te-table", "--h", "4N,4x"],
        "te-table: --h-over-n (--h) takes integers in 1..1024, each bare or followed by N (e.g. 4 or 4N), got '4x'",
      ],
      [
        ["gen", "uniform", "--p", "4", "--element-bytes", "0"],
        "gen: --element-bytes must be an integer in 1..1048576, got '0'",
      ],
    ] as const) {
      const r = await run(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toBe(`${line}\n`);
    }
    expect((await run("gen", "ranka-kl", "--p", "8", "--l", "0.5")).code).toBe(0);
  });

  it("an error of the option parsers every command shares names the command, as its other errors do", async () => {
    expect((await run("gen", "uniform", "--p", "4", "-o", f("named.json"))).code).toBe(0);
    expect((await run("plan", f("named.json"), "-a", "shift", "-o", f("named-s.json"))).code).toBe(0);
    // one per parser (intOption, numberOption, keyValues, --max-memory, --ports) and per command calling intOption
    for (const [args, line] of [
      [["gen", "pattern1", "--ranks", "8x"], "gen: --ranks (--p) must be an integer in 1..1048576, got '8x'"],
      [["gen", "ranka-kl", "--p", "8", "--l", "x"], "gen: --non-uniformity (--l) must be a number, got 'x'"],
      [
        ["plan", f("named.json"), "-a", "shift", "--seed", "q"],
        "plan: --seed must be an integer in 0..4294967295, got 'q'",
      ],
      [["plan", f("named.json"), "-a", "rs-nh", "--param", "x"], "plan: --param expects key=value, got 'x'"],
      [["stats", f("named.json"), "--max-memory", "1k"], "stats: --max-memory must be a size of at least 1M"],
      [["show", f("named-s.json"), "--stage", "z"], "show: --stage must be an integer >= 1, got 'z'"],
      [["simulate", f("named-s.json"), "--machine", "t3d-004", "--ports", "0"], "simulate: --ports must be an integer"],
      [["compare", f("named.json"), "--machine", "t3d-004", "--seed", "q"], "compare: --seed must be an integer"],
      [["cost", f("named-s.json"), "--machine", "t3d-004", "--envelope", "x"], "cost: --envelope must be an integer"],
      [["demo", "--ranks", "x"], "demo: --ranks (--p) must be an integer in 1..512, got 'x'"],
      [["te-table", "--seeds", "x"], "te-table: --seeds must be an integer in 1..10000, got 'x'"],
      [["check-planner", "shift", "--runs", "x"], "check-planner: --runs must be an integer in 1..1000000, got 'x'"],
      [["store", "list", f("no-store"), "--ranks", "x"], "store list: --ranks (--p) must be an integer >= 1, got 'x'"],
      // store get --id runs apart from commander (store-get-main.ts)
      [["store", "get", f("no-store"), "--id", "x", "--max-memory", "1k"], "store get: --max-memory must be a size"],
    ] as const) {
      const r = await run(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err.startsWith(line), `${args.join(" ")}: ${r.err}`).toBe(true);
      expect(r.err.split("\n"), args.join(" ")).toHaveLength(2); // one line
    }
  });

  it("verify cannot read both files from stdin", async () => {
    const r = await run("verify", "-", "--matrix", "-");
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "verify: the schedule and --matrix cannot both be read from stdin ('-'): give one of them as a file\n",
    );
  });

  it("gen --format follows the output's extension and refuses to contradict it", async () => {
    const mtx = await run("gen", "uniform", "--p", "3", "-o", f("x.mtx"));
    expect([mtx.code, mtx.err]).toEqual([0, `gen: uniform: P = 3, 6 non-zero entries, mtx -> ${f("x.mtx")}\n`]);
    // the matrix on stdout: no summary line
    expect((await run("gen", "uniform", "--p", "3")).err).toBe("");
    expect(readFileSync(f("x.mtx"), "utf8")).toMatch(
      /^%%MatrixMarket matrix coordinate integer general\n%% commplan elementBytes=8\n3 3 6\n/,
    );
    const r = await run("gen", "uniform", "--p", "3", "--format", "csv", "-o", f("x.json"));
    expect(r.err).toBe(`gen: --format csv but the output file ${f("x.json")} has the extension of json\n`);
    expect((await run("gen", "uniform", "--p", "3", "--format", "csv", "--sparse")).err).toBe(
      "gen: --sparse applies to JSON only (the output format is csv)\n",
    );
    // an .arrow name got a JSON matrix, which a reader going by the name refuses: refused, nothing written
    const arrow = await run("gen", "uniform", "--p", "3", "-o", f("m.arrow"));
    expect([arrow.code, arrow.err]).toEqual([
      2,
      `gen: -o ${f("m.arrow")}: a matrix is written as json, csv or mtx (by the extension or --format); Arrow files hold schedules\n`,
    ]);
    expect(existsSync(f("m.arrow"))).toBe(false);
  });
});

describe("elementBytes through every format and command", () => {
  it("gen keeps it in JSON, CSV and Matrix Market; --element-bytes overrides it on gen, stats and plan; verify, export and verify-program count elements and refuse it", async () => {
    for (const ext of ["json", "csv", "mtx"]) {
      const m = f(`eb.${ext}`);
      expect((await run("gen", "pattern1", "--p", "6", "-o", m)).code).toBe(0);
      expect(JSON.parse((await run("stats", m, "--json")).out).elementBytes, ext).toBe(22);
      expect(JSON.parse((await run("stats", m, "--json", "--element-bytes", "48")).out).elementBytes, ext).toBe(48);
      await run("plan", m, "-a", "shift", "--payload", "-o", f(`eb-${ext}.s.json`));
      expect(JSON.parse(readFileSync(f(`eb-${ext}.s.json`), "utf8")).elementBytes, ext).toBe(22);
      await run("plan", m, "-a", "shift", "--element-bytes", "48", "-o", f(`eb48-${ext}.s.json`));
      expect(JSON.parse(readFileSync(f(`eb48-${ext}.s.json`), "utf8")).elementBytes, ext).toBe(48);
      expect((await run("verify", f(`eb48-${ext}.s.json`), "--matrix", m)).code).toBe(0);
      for (const cmd of [["verify"], ["export", "-f", "goal"]]) {
        const r = await run(...cmd, f(`eb48-${ext}.s.json`), "--matrix", m, "--element-bytes", "48");
        expect([r.code, r.err], ext).toEqual([2, expect.stringContaining("unknown option '--element-bytes'")]);
      }
    }
    const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
    expect(
      execFileSync(process.execPath, [bin, "gen", "uniform", "--p", "3", "--element-bytes", "5", "--format", "csv"], {
        encoding: "utf8",
      }),
    ).toBe("# commplan elementBytes=5\n0,1,1\n1,0,1\n1,1,0\n");
  });
});

describe("commplan help", () => {
  it("help with a command and its sub-command prints the sub-command's help, as --help does", async () => {
    const sub = await run("store", "get", "--help");
    expect(sub.out).toMatch(/^Usage: commplan store get /);
    expect(await run("help", "store", "get")).toEqual(sub);
    expect(await run("help", "store", "list")).toEqual(await run("store", "list", "--help"));
    expect((await run("help", "store")).out).toMatch(/^Usage: commplan store \[options\] \[command\]/);
    expect((await run("help", "gen")).out).toMatch(/^Usage: commplan gen /);
  });
});

describe("the installed command", () => {
  const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
  it("prints --help for every sub-command and exits 0", () => {
    for (const cmd of ["demo", "gen", "stats", "plan", "verify", "cost", "algorithms", "machines", "patterns"]) {
      const out = execFileSync(process.execPath, [bin, cmd, "--help"], { encoding: "utf8" });
      expect(out).toMatch(new RegExp(`Usage: commplan ${cmd}`));
    }
  });
  it("marks the options that must be given (required), and no other", () => {
    const help = (...args: string[]): string =>
      execFileSync(process.execPath, [bin, ...args, "--help"], { encoding: "utf8" });
    expect(help("gen")).toMatch(
      /-p, --ranks <n> +number of nodes P \(1\.\.\d+, or 1\.\.\d+[^)]*ranka-fig1\s+and\s+wang-table1\s+give\s+their\s+own\)\s+\(required\)/,
    );
    expect(help("export")).toMatch(/-f, --format <name> +output format \(choices: [^)]*\) \(required\)/);
    expect(help("platform")).toMatch(/--topology <spec>[^]*\(required\)/);
    expect(help("stats")).not.toContain("(required)");
  });
  it("precompute reads its spec from stdin for -", () => {
    const spec = JSON.stringify({ patterns: ["uniform"], p: [4], seeds: [1], algorithms: ["shift"] });
    const r = spawnSync(
      process.execPath,
      [bin, "precompute", "-", "--store", join(dir, "stdin-store"), "--jobs", "1"],
      {
        input: spec,
        encoding: "utf8",
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("precompute: 1 job: 1 added");
  });
  it("reads a matrix from stdin and writes the schedule to stdout", () => {
    const m = execFileSync(process.execPath, [bin, "gen", "uniform", "--p", "4"], { encoding: "utf8" });
    const s = execFileSync(process.execPath, [bin, "plan", "-", "-a", "linear-permutation"], {
      input: m,
      encoding: "utf8",
    });
    expect(JSON.parse(s)).toMatchObject({ format: "commplan.schedule/v1", p: 4, algorithm: "linear-permutation" });
  });
  /** Runs the command, reads its first stdout chunk, closes the pipe; resolves with its exit status and stderr. */
  const closeAfterFirstChunk = (args: string[]): Promise<{ status: number | null; stderr: string; got: number }> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "",
        got = 0;
      child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
      child.stdout.once("data", (d: Buffer) => {
        got = d.length;
        child.stdout.destroy();
      });
      child.on("close", (status) => resolve({ status, stderr, got }));
    });
  it("a reader that closes stdout early (| head) ends the command quietly with exit 0", async () => {
    const m = f("pipe-m.json");
    expect((await run("gen", "uniform", "--p", "300", "-o", m)).code).toBe(0);
    for (const args of [
      ["gen", "uniform", "--p", "3000"],
      ["plan", m, "-a", "shift"],
      ["plan", m, "-a", "shift", "--payload"],
    ]) {
      const r = await closeAfterFirstChunk(args);
      expect(r.got, args.join(" ")).toBeGreaterThan(0);
      expect(r.stderr, args.join(" ")).toBe("");
      expect(r.status, args.join(" ")).toBe(0);
    }
  });
  it("empty stdin says the input is empty (not what a CSV guess makes of it)", () => {
    for (const [input, line] of [
      ["", "stats: <stdin>: the input is empty"],
      [" \n\n", "stats: <stdin>: the input is empty (only blanks)"],
    ] as const) {
      const r = spawnSync(process.execPath, [bin, "stats", "-"], { input, encoding: "utf8" });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`${line}\n`);
    }
  });
  it("usage errors exit 2 with one line, without a stack trace", () => {
    for (const [args, line] of [
      [["plan"], "plan: required option '-a, --algorithm <name>' not specified (add --help for usage)"],
      [["plan", "-a", "shift"], "plan: missing required argument 'matrix' (add --help for usage)"],
      [["gen", "uniform"], "gen: required option '-p, --ranks <n>' not specified (add --help for usage)"],
      [["stats", "--bogus", "x"], "stats: unknown option '--bogus' (add --help for usage)"],
      [["plna"], "commplan: unknown command 'plna' (did you mean plan?) (add --help for usage)"],
    ] as const) {
      const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toBe(`${line}\n`);
    }
  });
});
