/** commplan precompute --from-capture (libcommplan's captures planned, stored and lowered) and the capture key. */
import fs, { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { captureKey } from "../../src/cli/capture-key.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { readMatrixFile } from "../../src/io/matrix-read.js";
import { RUNTIME_MODELS } from "../../src/machines/runtime/runtime-model.js";
import { verifyProgram } from "../../src/verifier/index.js";
import { openPlanStore, getPlanById } from "../../src/store/index.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { MOE_CAPTURE, writeCapture } from "../helpers/capture.js";

// Keys libcommplan's C code (runtimes/libcommplan/key.c) computed under Open MPI at P = 4 for these matrices.
const MOE_KEY = "222575cb38809e299dcf39099f95e309";
const ALLTOALL_KEY = "2e26576f61c323ece3d4ea526852c4de"; // MPI_Alltoall of one int: every count 1, 4 bytes

function dir(): string {
  return tempDir("capture");
}

/** precompute of the captures in d/cap into the store d/s for `machine` on the one-port model. */
function precompute(d: string, machine: string): ReturnType<typeof run> {
  return run(
    "precompute",
    "--from-capture",
    join(d, "cap"),
    "--store",
    join(d, "s"),
    "--machine",
    machine,
    "--runtime",
    "none",
  );
}

describe("captureKey", () => {
  it("equals the key libcommplan's C code computes", () => {
    expect(captureKey(MOE_CAPTURE)).toBe(MOE_KEY);
    expect(
      captureKey(
        matrixFromRows(
          [1, 1, 1, 1].map(() => [1, 1, 1, 1]),
          { elementBytes: 4 },
        ),
      ),
    ).toBe(ALLTOALL_KEY);
  });

  it("changes with any one count and with the element size", () => {
    const gen = fc
      .integer({ min: 2, max: 9 })
      .chain((p) =>
        fc.tuple(
          fc.array(fc.array(fc.nat(1000), { minLength: p, maxLength: p }), { minLength: p, maxLength: p }),
          fc.nat(p - 1),
          fc.nat(p - 1),
          fc.integer({ min: 1, max: 5 }),
        ),
      );
    fc.assert(
      fc.property(gen, ([rows, i, j, delta]) => {
        const key = captureKey(matrixFromRows(rows, { elementBytes: 8 }));
        const changed = rows.map((r, a) => r.map((v, b) => (a === i && b === j ? v + delta : v)));
        expect(captureKey(matrixFromRows(changed, { elementBytes: 8 }))).not.toBe(key);
        expect(captureKey(matrixFromRows(rows, { elementBytes: 4 }))).not.toBe(key);
        expect(key).toMatch(/^[0-9a-f]{32}$/);
      }),
      { numRuns: 50 },
    );
  });
});

describe("precompute --from-capture", () => {
  it("plans (one-port model), stores and lowers every captured pattern into STORE/programs/<key>/, once", async () => {
    const d = dir();
    const m = MOE_CAPTURE;
    writeCapture(join(d, "cap"), m);
    writeCapture(join(d, "cap2"), m, { calls: 4 }); // the same pattern from another run: merged below
    const m2 = matrixFromRows(
      Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 0 : ((i * 5 + j) % 4) * 90))),
      { elementBytes: 8 },
    );
    const key2 = writeCapture(join(d, "cap"), m2);
    for (const f of readdirSync(join(d, "cap2")))
      writeFileSync(join(d, "cap", `x${f}`), readFileSync(join(d, "cap2", f)));
    const r = await precompute(d, "t3d-004");
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      "precompute: 2 captured patterns (t3d-004, one-port model): 2 added, 0 present, 0 replaced, " +
        /(\d) to replay/.exec(r.err)![1] +
        " to replay\n",
    );
    expect(r.out).toContain(`${MOE_KEY} MPI_Alltoallv 7 calls at app(main+0x10): added, `);
    expect(r.out).toMatch(/: added, [a-z-]+ \(nonblocking\), (replay|fall back) /);
    for (const [key, mm] of [
      [MOE_KEY, m],
      [key2, m2],
    ] as const) {
      const pdir = join(d, "s", "programs", key);
      const rec = JSON.parse(readFileSync(join(pdir, "plan.json"), "utf8")) as Record<string, unknown>;
      expect(rec["format"]).toBe("commplan.libplan/v1");
      expect(rec["key"]).toBe(key);
      expect(rec["p"]).toBe(mm.p);
      expect(typeof rec["replay"]).toBe("boolean");
      expect(rec["replay"] === false ? rec["reason"] : "faster").toMatch(/shift|faster/);
      expect([rec["runtime"], rec["variant"]]).toEqual([null, "nonblocking"]);
      const { program: prog } = readProgramJson(join(pdir, "index.json"));
      expect(prog.variant).toBe("nonblocking");
      expect(prog.p).toBe(mm.p);
      expect(prog.elementBytes).toBe(mm.elementBytes);
      // the program's layout is the matrix's MPI_Alltoallv layout (the full form: slot i * p + j)
      expect(prog.layout.sendPeers).toBeNull();
      expect(Array.from(prog.layout.sendCounts)).toEqual(Array.from(mm.data));
    }
    expect((await run("store", "verify", join(d, "s"))).out).toContain("2 entries, 0 damaged");
    const again = await precompute(d, "t3d-004");
    expect(again.err).toContain("2 present");
    expect(readdirSync(join(d, "s", "programs")).sort()).toEqual([MOE_KEY, key2].sort());
  });

  it("refuses a capture whose key is not its matrix's, and bad option sets, in one line", async () => {
    const d = dir();
    writeCapture(join(d, "cap"), MOE_CAPTURE, { key: "0".repeat(32) });
    const bad = await run(
      "precompute",
      "--from-capture",
      join(d, "cap"),
      "--store",
      join(d, "s"),
      "--machine",
      "t3d-004",
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^precompute: .*capture\.json: the capture's key 0{32} is not its matrix's \(222575cb/);
    expect(existsSync(join(d, "s", "programs", "0".repeat(32)))).toBe(false);
    // --shard splits a spec's jobs: refused in one line with nothing on stdout (--json: precompute-capture-json.test.ts)
    const shard = await run("precompute", "--from-capture", join(d, "cap"), "--store", join(d, "s"), "--shard", "0/2");
    expect([shard.code, shard.out]).toEqual([2, ""]);
    expect(shard.err).toMatch(/^precompute: --from-capture takes no --shard\n$/);
    // --jobs (which has a default) would be ignored: refused when given
    const jobs = await run("precompute", "--from-capture", join(d, "cap"), "--store", join(d, "s"), "--jobs", "2");
    expect([jobs.code, jobs.out]).toEqual([2, ""]);
    expect(jobs.err).toBe("precompute: --from-capture plans one pattern at a time: it takes no --jobs\n");
    const noMachine = await run("precompute", "--from-capture", join(d, "cap"), "--store", join(d, "s"));
    expect(noMachine.err).toMatch(/^precompute: --from-capture needs --machine/);
    const both = await run("precompute", "spec.json", "--from-capture", join(d, "cap"), "--store", join(d, "s"));
    expect(both.err).toMatch(/^precompute: give a spec file or --from-capture, not both/);
    const none = await run("precompute", "--store", join(d, "s"));
    expect(none.err).toMatch(/^precompute: give a spec file or --from-capture DIR/);
    mkdirSync(join(d, "empty"));
    const empty = await run(
      "precompute",
      "--from-capture",
      join(d, "empty"),
      "--store",
      join(d, "s"),
      "--machine",
      "t3d-004",
    );
    expect(empty.err).toMatch(/^precompute: .*empty: no \*\.capture\.json records/);
    const record = readdirSync(join(d, "cap")).find((n) => n.endsWith(".capture.json"))!;
    const file = await run(
      "precompute",
      "--from-capture",
      join(d, "cap", record),
      "--store",
      join(d, "s"),
      "--machine",
      "t3d-004",
    );
    expect([file.code, file.err]).toEqual([
      2,
      `precompute: ${join(d, "cap", record)}: is a file, not a capture directory (give the COMMPLAN_CAPTURE directory)\n`,
    ]);
    writeFileSync(join(d, "empty", "a.capture.json"), JSON.stringify({ format: "commplan.capture/v1", key: "zz" }));
    const malformed = await run(
      "precompute",
      "--from-capture",
      join(d, "empty"),
      "--store",
      join(d, "s"),
      "--machine",
      "t3d-004",
    );
    expect(malformed.err).toMatch(
      /^precompute: .*a\.capture\.json: a commplan\.capture\/v1 record needs a valid 'key'/,
    );
  });
});

describe("docs/formats.md on libcommplan's files", () => {
  /** The backticked names after "Fields:" in the paragraph of `format` in docs/formats.md. */
  function documentedFields(format: string): string[] {
    const text = readFileSync(new URL("../../docs/formats.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    const at = text.indexOf(`- \`${format}\``);
    expect(at).toBeGreaterThan(0);
    const fields = /Fields: ([^.]*)\./.exec(text.slice(at))![1]!;
    return [...fields.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]!);
  }

  it("lists the fields libcommplan writes in a capture record and precompute writes in plan.json", async () => {
    const c = readFileSync(new URL("../../runtimes/libcommplan/interpose.c", import.meta.url), "utf8");
    const pack = /json_t \*rec = json_pack\(([^;]*)\);/.exec(c)![1]!;
    const strings = [...pack.matchAll(/"([^"]*)"/g)].map((m) => m[1]!).slice(1); // after the format string
    expect(documentedFields("commplan.capture/v1")).toEqual(strings.filter((x) => x !== "commplan.capture/v1"));
    const d = dir();
    const key = writeCapture(join(d, "cap"), MOE_CAPTURE);
    expect((await precompute(d, "t3d-004")).code).toBe(0);
    const rec = JSON.parse(readFileSync(join(d, "s", "programs", key, "plan.json"), "utf8")) as object;
    expect(documentedFields("commplan.libplan/v1")).toEqual(Object.keys(rec));
  });
});

describe("precompute --from-capture of a damaged capture", () => {
  it("checks every record against its matrix before it plans any: one line, no store written", async () => {
    const damage: [string, (rec: Record<string, unknown>, matrixFile: string) => void, RegExp][] = [
      ["p", (rec) => (rec["p"] = 5), /capture\.json: the record's p 5 is not its matrix's \(6\)$/],
      ["elementBytes", (rec) => (rec["elementBytes"] = 4), /the record's elementBytes 4 is not its matrix's \(8\)$/],
      ["key", (rec) => (rec["key"] = "f".repeat(32)), /the capture's key f{32} is not its matrix's/],
      ["no p", (rec) => delete rec["p"], /capture\.json: a commplan\.capture\/v1 record needs a valid 'p'$/],
      ["matrix", (_, mf) => writeFileSync(mf, readFileSync(mf, "utf8").slice(0, 40)), /^precompute: .*invalid JSON/],
    ];
    for (const [what, change, message] of damage) {
      const d = dir();
      writeCapture(join(d, "cap"), MOE_CAPTURE);
      // a second pattern whose record sorts last ("z"), damaged: the first must not be planned either
      const m2 = matrixFromRows(
        Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i + j) % 3)),
        { elementBytes: 8 },
      );
      const key2 = writeCapture(join(d, "z"), m2);
      const rec = JSON.parse(readFileSync(join(d, "z", `${key2}-0-0.capture.json`), "utf8")) as Record<string, unknown>;
      const matrixFile = join(d, "cap", `${key2}-0-0.matrix.json`);
      writeFileSync(matrixFile, readFileSync(join(d, "z", `${key2}-0-0.matrix.json`)));
      change(rec, matrixFile);
      writeFileSync(join(d, "cap", `z${key2}.capture.json`), JSON.stringify(rec));
      const r = await precompute(d, "t3d-004");
      expect([what, r.code]).toEqual([what, 2]);
      expect(r.err.split("\n")).toHaveLength(2);
      expect(r.err.trim()).toMatch(message);
      expect(r.out).toBe("");
      expect(existsSync(join(d, "s"))).toBe(false);
    }
  });
});

describe("precompute --from-capture of capture files read whole", () => {
  it("refuses a record past its size limit (/dev/zero), a key given twice, and a matrix that is /dev/zero: one line each", async () => {
    const cases: [string, (cap: string, key: string) => void, RegExp][] = [
      [
        "record /dev/zero",
        (cap, key) => {
          rmSync(join(cap, `${key}-0-0.capture.json`));
          fs.symlinkSync("/dev/zero", join(cap, `${key}-0-0.capture.json`));
        },
        /^precompute: .*-0-0\.capture\.json: more than the 1048576 bytes a capture record may have$/,
      ],
      [
        "key twice",
        (cap, key) => {
          const f = join(cap, `${key}-0-0.capture.json`);
          writeFileSync(f, readFileSync(f, "utf8").replace(/^\{/, '{"calls":1,'));
        },
        /^precompute: .*-0-0\.capture\.json:line 1: \/ has the key 'calls' twice$/,
      ],
      [
        "matrix /dev/zero",
        (cap, key) => {
          rmSync(join(cap, `${key}-0-0.matrix.json`));
          fs.symlinkSync("/dev/zero", join(cap, `${key}-0-0.matrix.json`));
        },
        /^precompute: .*-0-0\.matrix\.json: /,
      ],
    ];
    for (const [what, change, message] of cases) {
      const d = dir();
      const key = writeCapture(join(d, "cap"), MOE_CAPTURE);
      change(join(d, "cap"), key);
      const r = await precompute(d, "t3d-004");
      expect([what, r.code]).toEqual([what, 2]);
      expect([what, r.err.split("\n").length]).toEqual([what, 2]);
      expect([what, r.err.trim()]).toEqual([what, expect.stringMatching(message)]);
      expect(existsSync(join(d, "s"))).toBe(false);
    }
  });
});

describe("precompute --from-capture, run again", () => {
  it("plans again for another machine, or over an unreadable plan.json, and replaces the program", async () => {
    const d = dir();
    writeCapture(join(d, "cap"), MOE_CAPTURE);
    const key2 = writeCapture(
      join(d, "cap"),
      matrixFromRows(
        Array.from({ length: 5 }, (_, i) => Array.from({ length: 5 }, (_, j) => (i === j ? 0 : 10 + i + j))),
        { elementBytes: 8 },
      ),
    );
    const first = await precompute(d, "t3d-004");
    expect(first.err).toContain("2 added, 0 present, 0 replaced");
    // another machine: each program is planned again for it and replaces the one planned for t3d-004
    const other = await precompute(d, "ib-hdr-200");
    expect(other.code).toBe(0);
    expect(other.err).toContain("0 added, 0 present, 2 replaced");
    expect(other.out).toContain(
      `${MOE_KEY} MPI_Alltoallv 3 calls at app(main+0x10): replaced (was planned for t3d-004, one-port model), `,
    );
    for (const key of [MOE_KEY, key2]) {
      const rec = JSON.parse(readFileSync(join(d, "s", "programs", key, "plan.json"), "utf8")) as Record<
        string,
        unknown
      >;
      expect(rec["machine"]).toBe("ib-hdr-200");
    }
    expect(readdirSync(join(d, "s", "programs")).sort()).toEqual([MOE_KEY, key2].sort());
    // an unreadable plan.json is planned again, not a crash
    writeFileSync(join(d, "s", "programs", MOE_KEY, "plan.json"), "{ not json");
    const mended = await precompute(d, "ib-hdr-200");
    expect(mended.code, mended.err).toBe(0);
    expect(mended.out).toContain("replaced (was planned for an unreadable plan.json)");
    expect(mended.err).toContain("0 added, 1 present, 1 replaced");
  });

  it("replaces a key's directory that has no plan.json (its program planned again), leaving nothing aside", async () => {
    const d = dir();
    writeCapture(join(d, "cap"), MOE_CAPTURE);
    expect((await precompute(d, "t3d-004")).code).toBe(0);
    rmSync(join(d, "s", "programs", MOE_KEY, "plan.json"));
    const again = await precompute(d, "t3d-004");
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain("replaced (was planned for a directory without plan.json)");
    expect(again.err).toContain("0 added, 0 present, 1 replaced");
    expect(existsSync(join(d, "s", "programs", MOE_KEY, "plan.json"))).toBe(true);
    expect(readdirSync(join(d, "s", "programs"))).toEqual([MOE_KEY]);
  });

  it("keeps the old program when the new one cannot take its name, and leaves nothing aside", async () => {
    const d = dir();
    writeCapture(join(d, "cap"), MOE_CAPTURE);
    expect((await precompute(d, "t3d-004")).code).toBe(0);
    const programDir = join(d, "s", "programs", MOE_KEY);
    // the next rename onto programDir fails (EIO), once: node:fs's named exports follow its default object after
    // syncBuiltinESMExports, whichever test file loaded precompute-capture.ts first (the workers share modules)
    const real = fs.renameSync;
    let met = false;
    fs.renameSync = (from, to) => {
      if (!met && to === programDir) {
        met = true;
        throw Object.assign(new Error(`EIO: i/o error, rename onto ${String(to)}`), { code: "EIO" });
      }
      real(from, to);
    };
    syncBuiltinESMExports();
    let r: Awaited<ReturnType<typeof run>>;
    try {
      r = await precompute(d, "ib-hdr-200");
    } finally {
      fs.renameSync = real;
      syncBuiltinESMExports();
    }
    expect(met).toBe(true); // the fault was met
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^precompute: .*EIO/);
    const rec = JSON.parse(readFileSync(join(programDir, "plan.json"), "utf8")) as Record<string, unknown>;
    expect(rec["machine"]).toBe("t3d-004");
    expect(readdirSync(join(d, "s", "programs"))).toEqual([MOE_KEY]);
  });
});

describe("precompute --from-capture, what a rerun checks and what a plan.json says", () => {
  it("lists every call kind of a key in plan.json; a plan.json for fewer kinds is planned again", async () => {
    const d = dir();
    const m = MOE_CAPTURE;
    writeCapture(join(d, "cap"), m, { name: `${MOE_KEY}-0-0-alltoallv` });
    writeCapture(join(d, "cap"), m, { call: "MPI_Alltoall", name: `${MOE_KEY}-0-0-alltoall` });
    const r = await precompute(d, "t3d-004");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${MOE_KEY} MPI_Alltoall and MPI_Alltoallv 6 calls at app(main+0x10): added, `);
    const planFile = join(d, "s", "programs", MOE_KEY, "plan.json");
    const rec = JSON.parse(readFileSync(planFile, "utf8")) as Record<string, unknown>;
    expect([rec["call"], rec["kinds"]]).toEqual(["MPI_Alltoall", ["MPI_Alltoall", "MPI_Alltoallv"]]);
    expect((await precompute(d, "t3d-004")).err).toContain("0 added, 1 present, 0 replaced");
    // a plan.json written for the first kind only (as before kinds were listed): planned again for both
    const { kinds: _, ...old } = rec;
    writeFileSync(planFile, JSON.stringify(old));
    const again = await precompute(d, "t3d-004");
    expect(again.out).toContain(
      "replaced (was planned for t3d-004, one-port model, but its plan.json is not for MPI_Alltoallv)",
    );
    expect((JSON.parse(readFileSync(planFile, "utf8")) as Record<string, unknown>)["kinds"]).toHaveLength(2);
  });

  it("plans again a program whose rank file does not read, instead of calling it present", async () => {
    const d = dir();
    writeCapture(join(d, "cap"), MOE_CAPTURE);
    expect((await precompute(d, "t3d-004")).code).toBe(0);
    const rankFile = join(d, "s", "programs", MOE_KEY, "rank-3.json");
    const whole = readFileSync(rankFile, "utf8");
    writeFileSync(rankFile, whole.slice(0, 40));
    const again = await precompute(d, "t3d-004");
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain("0 added, 0 present, 1 replaced");
    expect(again.out).toMatch(
      /replaced \(was planned for t3d-004, one-port model, but its program does not read \(.*rank-3\.json/,
    );
    expect(readFileSync(rankFile, "utf8")).toBe(whole);
    expect((await precompute(d, "t3d-004")).err).toContain("0 added, 1 present, 0 replaced");
  });

  it("says that an exchange without messages has nothing to gain: no replay, no percentage", async () => {
    const d = dir();
    writeCapture(
      join(d, "cap"),
      matrixFromRows(
        [0, 1, 2, 3].map(() => [0, 0, 0, 0]),
        { elementBytes: 4 },
      ),
    );
    writeCapture(
      join(d, "cap"),
      matrixFromRows(
        [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? 5 : 0))),
        { elementBytes: 8 },
      ),
    );
    for (const target of [[], ["--runtime", "none"]]) {
      const r = await run(
        "precompute",
        "--from-capture",
        join(d, "cap"),
        "--store",
        join(d, `s${target.length}`),
        "--machine",
        "ib-hdr-200",
        ...target,
      );
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain("0 to replay");
      const lines = r.out.trim().split("\n");
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line).toMatch(/fall back \(no messages between ranks: a plan has nothing to gain over MPI_Alltoallv\)$/);
        expect(line).not.toContain("%");
      }
    }
  });
});

describe("precompute --from-capture on a runtime", () => {
  it("plans for the machine's runtime model by default: auto's verdict there, its dataflow program with relays", async () => {
    const d = dir();
    // small random messages on InfiniBand with per-message overheads: a relaying plan's dataflow program wins
    expect(
      (await run("gen", "random", "--p", "16", "--seed", "1", "--element-bytes", "1", "-o", join(d, "m.json"))).code,
    ).toBe(0);
    const m = readMatrixFile(join(d, "m.json"));
    const key = writeCapture(join(d, "cap"), m);
    const r = await run(
      "precompute",
      "--from-capture",
      join(d, "cap"),
      "--store",
      join(d, "s"),
      "--machine",
      "ib-hdr-200",
    );
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      "precompute: 1 captured pattern (ib-hdr-200, runtime ib-hdr-200-mpi): 1 added, 0 present, 0 replaced, 1 to replay\n",
    );
    // what plan -a auto --runtime answers for the same matrix
    const auto = await run(
      "plan",
      join(d, "m.json"),
      "-a",
      "auto",
      "--machine",
      "ib-hdr-200",
      "--runtime",
      "ib-hdr-200-mpi",
      "-o",
      join(d, "auto.json"),
    );
    const header = JSON.parse(readFileSync(join(d, "auto.json"), "utf8")) as {
      algorithm: string;
      auto: { runtime: { name: string; variant: string }; mpi: { answer: string } };
    };
    expect(auto.err).toContain("run it as the dataflow program");
    const rec = JSON.parse(readFileSync(join(d, "s", "programs", key, "plan.json"), "utf8")) as Record<string, unknown>;
    expect(rec).toMatchObject({
      algorithm: header.algorithm,
      runtime: "ib-hdr-200-mpi",
      freeCopies: false,
      variant: header.auto.runtime.variant,
      replay: header.auto.mpi.answer === "use the plan",
      payload: true,
    });
    expect(r.out).toContain(`: added, ${header.algorithm} (dataflow), replay (`);
    expect(rec["planUs"] as number).toBeLessThan(rec["libraryUs"] as number);
    const { program: prog } = readProgramJson(join(d, "s", "programs", key, "index.json"));
    expect(prog.variant).toBe("dataflow");
    expect(prog.after).not.toBeNull();
    expect(prog.layout.scratchSize.some((x) => x > 0)).toBe(true); // it relays
    expect(verifyProgram(m, prog).ok).toBe(true);
    // kept under the winner's own key (with payload), as store add -a <winner> would
    const entry = getPlanById(openPlanStore(join(d, "s")), rec["entry"] as string);
    expect(entry?.algorithm).toBe(header.algorithm);
    expect(entry?.chunks).not.toBeNull();
  });

  it("plans for smpi on a machine without a runtime model of its own, and with --free-copies", async () => {
    const d = dir();
    const key = writeCapture(join(d, "cap"), MOE_CAPTURE);
    const base = ["precompute", "--from-capture", join(d, "cap"), "--machine", "t3d-004"];
    const r = await run(...base, "--store", join(d, "s"));
    expect(r.err).toMatch(/^precompute: 1 captured pattern \(t3d-004, runtime smpi\): 1 added/);
    const rec = JSON.parse(readFileSync(join(d, "s", "programs", key, "plan.json"), "utf8")) as Record<string, unknown>;
    expect([rec["runtime"], rec["freeCopies"]]).toEqual(["smpi", false]);
    expect(["dataflow", "nonblocking"]).toContain(rec["variant"]);
    expect(readProgramJson(join(d, "s", "programs", key, "index.json")).program.variant).toBe(rec["variant"]);
    const free = await run(...base, "--store", join(d, "s2"), "--free-copies");
    expect(free.err).toMatch(/^precompute: 1 captured pattern \(t3d-004, runtime smpi\)/);
    const rec2 = JSON.parse(readFileSync(join(d, "s2", "programs", key, "plan.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(rec2["freeCopies"]).toBe(true);
  });

  it("says in --help what --runtime takes and defaults to; refuses a bad runtime in one line", async () => {
    const help = await run("precompute", "--help");
    const text = help.out.replace(/\s+/g, " ");
    for (const r of RUNTIME_MODELS) expect(text).toContain(r.name);
    expect(text).toContain("none: the papers' one-port model");
    expect(text).toContain("default: the runtime model made for --machine, else smpi");
    const d = dir();
    writeCapture(join(d, "cap"), MOE_CAPTURE);
    const base = ["precompute", "--from-capture", join(d, "cap"), "--store", join(d, "s"), "--machine", "t3d-004"];
    const bad = await run(...base, "--runtime", "ib-hdr");
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      `precompute: unknown runtime 'ib-hdr'; known: ${RUNTIME_MODELS.map((x) => x.name).join(", ")}, none\n`,
    );
    const freeNone = await run(...base, "--runtime", "none", "--free-copies");
    expect(freeNone.err).toMatch(/^precompute: --free-copies goes with a runtime model, not --runtime none\n$/);
    const spec = await run("precompute", "spec.json", "--store", join(d, "s"), "--runtime", "smpi");
    expect(spec.err).toMatch(/^precompute: --runtime goes with --from-capture/);
    expect(existsSync(join(d, "s", "programs"))).toBe(false);
  });
});

describe("precompute --from-capture on a network", () => {
  it("plans on --network as plan -a auto --runtime --network does, and records the network; refuses it without a runtime", async () => {
    const d = dir();
    expect(
      (await run("gen", "random", "--p", "16", "--seed", "1", "--element-bytes", "1", "-o", join(d, "m.json"))).code,
    ).toBe(0);
    const key = writeCapture(join(d, "cap"), readMatrixFile(join(d, "m.json")));
    const base = ["precompute", "--from-capture", join(d, "cap"), "--machine", "ib-hdr-200"];
    const net = "fat-tree:k=4";
    const r = await run(...base, "--store", join(d, "s"), "--network", net);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /^precompute: 1 captured pattern \(ib-hdr-200, runtime ib-hdr-200-mpi, network fat-tree:k=4\): /,
    );
    // the same network with another port-sharing rule is another target: planned again, not left as present
    const fair = await run(...base, "--store", join(d, "fair"), "--network", net);
    expect(fair.code).toBe(0);
    const rerun = await run(...base, "--store", join(d, "fair"), "--network", net, "--port-sharing", "fair");
    expect(rerun.code, rerun.err).toBe(0);
    expect(rerun.err).toContain("0 present, 1 replaced");
    expect(rerun.out).toContain(
      ": replaced (was planned for ib-hdr-200, runtime ib-hdr-200-mpi, network fat-tree:k=4)",
    );
    const same = await run(...base, "--store", join(d, "fair"), "--network", net, "--port-sharing", "fair");
    expect(same.err).toContain("1 present, 0 replaced");
    const flat = await run(...base, "--store", join(d, "flat"));
    expect(flat.code).toBe(0);
    const rec = (store: string): Record<string, unknown> =>
      JSON.parse(readFileSync(join(d, store, "programs", key, "plan.json"), "utf8")) as Record<string, unknown>;
    // what plan -a auto answers on the same runtime and network
    const auto = await run(
      "plan",
      join(d, "m.json"),
      ...["-a", "auto", "--machine", "ib-hdr-200", "--runtime", "ib-hdr-200-mpi", "--network", net],
      ...["-o", join(d, "auto.json"), "--json"],
    );
    const summary = JSON.parse(auto.out) as { algorithm: string; auto: { mpi: { mpiSimulated: number } } };
    expect(rec("s")).toMatchObject({
      network: net,
      algorithm: summary.algorithm,
      libraryUs: summary.auto.mpi.mpiSimulated,
    });
    // the network's contention is in the figures: MPI_Alltoallv's default takes another time than on the flat cluster
    expect(rec("flat")["network"]).toBeNull();
    expect(rec("flat")["libraryUs"]).not.toBe(rec("s")["libraryUs"]);
    const none = await run(...base, "--store", join(d, "s3"), "--runtime", "none", "--network", net);
    expect(none.err).toMatch(/^precompute: --network goes with a runtime model \(--runtime none plans on the one-port/);
    const spec = await run("precompute", "spec.json", "--store", join(d, "s4"), "--network", net);
    expect(spec.err).toBe("precompute: --network goes with --from-capture (a spec plans no network)\n");
    const sharing = await run(...base, "--store", join(d, "s5"), "--port-sharing", "fair");
    expect(sharing.err).toMatch(/^precompute: --port-sharing goes with --network/);
    const small = await run(...base, "--store", join(d, "s6"), "--network", "fat-tree:k=2");
    expect(small.code).toBe(2);
    expect(small.err).toMatch(/fewer than P = 16\n$/);
  });
});

describe("precompute --from-capture on a network too small for one pattern", () => {
  it("refuses it in one line before any pattern is planned: no program written for the patterns that fit", async () => {
    const d = dir();
    const ring = (p: number): number[][] =>
      Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => (j === (i + 1) % p ? 9 : 0)));
    // read in record order: the P = 4 pattern first, then P = 32, more ranks than fat-tree:k=4's 16 hosts
    writeCapture(join(d, "cap"), matrixFromRows(ring(4), { elementBytes: 1 }), { name: "a" });
    writeCapture(join(d, "cap"), matrixFromRows(ring(32), { elementBytes: 1 }), { name: "b" });
    const base = ["precompute", "--from-capture", join(d, "cap"), "--machine", "ib-hdr-200", "--network"];
    for (const json of [[], ["--json"]]) {
      const r = await run(...base, "fat-tree:k=4", "--store", join(d, "s"), ...json);
      expect([r.code, r.out]).toEqual([2, ""]);
      expect(r.err).toBe("precompute: fat-tree: k = 4 gives 16 hosts, fewer than P = 32\n");
      expect(existsSync(join(d, "s"))).toBe(false);
    }
    const fits = await run(...base, "fat-tree:k=6", "--store", join(d, "s"));
    expect(fits.code, fits.err).toBe(0);
    expect(fits.err).toContain("2 added");
  });
});
