/**
 * precompute --from-capture --json: one commplan.precompute-capture/v1 document on stdout (schemas/), its fields what
 * the run did and what each plan.json says; a rerun, a damaged program directory, a failure mid-run, a refusal.
 */
import fs, { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { MOE_CAPTURE, writeCapture } from "../helpers/capture.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

/** A ring of 8 MB messages: no plan is faster than MPI_Alltoallv's default (call MPI). */
const RING = matrixFromRows(
  [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (j === (i + 1) % 4 ? 1_000_000 : 0))),
  { elementBytes: 8 },
);

interface Pattern {
  key: string;
  p: number;
  elementBytes: number;
  status: string;
  replaced: { was: string; because: string } | null;
  program: string | null;
  plan: Record<string, unknown> | null;
  message: string | null;
  [k: string]: unknown;
}
interface Doc {
  format: string;
  target: Record<string, unknown>;
  patterns: Pattern[];
  totals: Record<string, number>;
  [k: string]: unknown;
}

/** precompute --from-capture d/cap into d/s on ib-hdr-200 (its runtime model), with --json and `more`. */
async function precomputeJson(d: string, ...more: string[]): Promise<{ code: number; doc: Doc; err: string }> {
  const argv = ["precompute", "--from-capture", join(d, "cap"), "--store", join(d, "s"), "--machine", "ib-hdr-200"];
  const r = await run(...argv, ...more, "--json");
  // exactly one document on stdout, valid against its schema
  const doc = JSON.parse(r.out) as Doc;
  expect(() => validateWithSchema("precompute-capture", doc, "test")).not.toThrow();
  return { code: r.code, doc, err: r.err };
}

const planJson = (d: string, key: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(d, "s", "programs", key, "plan.json"), "utf8")) as Record<string, unknown>;

/** A "call MPI_Alltoallv" answer's figures, as precompute --from-capture --json gives them. */
interface CallMpiPlan {
  readonly algorithm: string;
  readonly planUs: number;
  readonly libraryUs: number;
  readonly gain: number;
  readonly reason: string;
}

/** A plan not replayed: its gain is the two times' (as the speed-up is), below the 5 % a plan must win by. */
function expectCallMpi(plan: CallMpiPlan): void {
  expect(plan.gain).toBeCloseTo((100 * (plan.libraryUs - plan.planUs)) / plan.libraryUs, 2);
  expect(plan.gain).toBeLessThan(5);
  // a plan faster than the library by less than the margin is not called slower
  const within = plan.planUs < plan.libraryUs ? "more than 5 % " : "";
  // auto's pick of mpi-linear is the default itself, and says so rather than "no plan is faster"
  const said =
    plan.algorithm === "mpi-linear"
      ? "auto's pick, mpi-linear, is MPI_Alltoallv's default itself: call MPI_Alltoallv or run this plan"
      : `no plan is predicted ${within}faster`;
  expect(plan.reason.startsWith(`call MPI_Alltoallv: ${said}`)).toBe(true);
}

describe("precompute --from-capture --json", () => {
  it("prints every pattern with its verdict (replay, call MPI), its program and its plan.json's figures", async () => {
    const d = tempDir("capture-json");
    const moe = writeCapture(join(d, "cap"), MOE_CAPTURE, { calls: 7 });
    const ring = writeCapture(join(d, "cap"), RING, { calls: 2 });
    const { code, doc, err } = await precomputeJson(d);
    expect(code).toBe(0);
    expect(err).toBe(
      "precompute: 2 captured patterns (ib-hdr-200, runtime ib-hdr-200-mpi): 2 added, 0 present, 0 replaced, 1 to replay\n",
    );
    expect(doc).toMatchObject({
      format: "commplan.precompute-capture/v1",
      capture: join(d, "cap"),
      store: join(d, "s"),
      target: { machine: "ib-hdr-200", runtime: "ib-hdr-200-mpi", freeCopies: false, network: null, portSharing: null },
      totals: { patterns: 2, added: 2, present: 0, replaced: 0, failed: 0, skipped: 0, replay: 1 },
    });
    expect(doc.patterns.map((x) => x.key)).toEqual([moe, ring].sort());
    const byKey = new Map(doc.patterns.map((x) => [x.key, x]));
    expect(byKey.get(moe)).toMatchObject({
      p: 4,
      elementBytes: 24,
      call: "MPI_Alltoallv",
      kinds: ["MPI_Alltoallv"],
      sites: ["app(main+0x10)"],
      calls: 7,
      records: [`${moe}-0-0.capture.json`],
      matrix: `${moe}-0-0.matrix.json`,
      status: "added",
      replaced: null,
      program: `programs/${moe}`,
      plan: { replay: true },
      message: null,
    });
    expect(byKey.get(ring)).toMatchObject({ p: 4, elementBytes: 8, calls: 2, plan: { replay: false } });
    expectCallMpi(byKey.get(ring)!.plan as unknown as CallMpiPlan);
    for (const x of doc.patterns) {
      // the plan is what the program's plan.json says, the figures included
      const rec = planJson(d, x.key);
      const { algorithm, variant, payload, entry, replay, reason, planUs, libraryUs, gain } = rec;
      expect(x.plan).toEqual({ algorithm, variant, payload, entry, replay, reason, planUs, libraryUs, gain });
      expect(existsSync(join(d, "s", x.program!, "index.json"))).toBe(true);
    }
    const win = byKey.get(moe)!.plan as { planUs: number; libraryUs: number; gain: number; reason: string };
    expect(win.planUs).toBeLessThan(win.libraryUs);
    expect(win.gain).toBeGreaterThan(5); // beyond RUNTIME_MPI_MARGIN
    const x = `${Math.round((1000 * win.libraryUs) / win.planUs) / 1000}x as fast as MPI_Alltoallv's default`;
    expect(win.reason).toContain(`(${x} on ib-hdr-200, runtime ib-hdr-200-mpi: ${win.gain} % of its time saved)`);
    // the text run of the same capture prints the same verdicts, one line per pattern on stdout
    const text = await run(
      ...["precompute", "--from-capture", join(d, "cap"), "--store", join(d, "t"), "--machine", "ib-hdr-200"],
    );
    for (const x of doc.patterns) {
      const p = x.plan as { algorithm: string; variant: string; replay: boolean; reason: string };
      const verdict = `${p.replay ? "replay" : "fall back"} (${p.reason})`;
      expect(text.out).toContain(`${x.key} MPI_Alltoallv ${x["calls"]} calls at app(main+0x10): added, `);
      expect(text.out).toContain(`: added, ${p.algorithm} (${p.variant}), ${verdict}\n`);
    }
  });

  it("says present on a rerun, and replaced (damaged, or another target) with what the old program was for", async () => {
    const d = tempDir("capture-json");
    const moe = writeCapture(join(d, "cap"), MOE_CAPTURE);
    const ring = writeCapture(join(d, "cap"), RING);
    const first = await precomputeJson(d);
    const again = await precomputeJson(d);
    expect(again.code).toBe(0);
    expect(again.doc.patterns.map((x) => x.status)).toEqual(["present", "present"]);
    expect(again.doc.patterns.map((x) => x.plan)).toEqual(first.doc.patterns.map((x) => x.plan));
    expect(again.doc.totals).toMatchObject({ added: 0, present: 2, replaced: 0, replay: 1 });
    // a rank file cut short: the program is planned again and said to have been damaged
    const rankFile = join(d, "s", "programs", moe, "rank-2.json");
    writeFileSync(rankFile, readFileSync(rankFile, "utf8").slice(0, 30));
    const mended = await precomputeJson(d);
    const [m, r] = [moe, ring].map((k) => mended.doc.patterns.find((x) => x.key === k)!);
    expect(m!.status).toBe("replaced");
    expect(m!.replaced!.because).toBe("damaged");
    expect(m!.replaced!.was).toMatch(/^ib-hdr-200, runtime ib-hdr-200-mpi, but its program does not read \(.*rank-2/);
    expect(r!.status).toBe("present");
    expect(mended.doc.totals).toMatchObject({ present: 1, replaced: 1 });
    // no plan.json: damaged too
    rmSync(join(d, "s", "programs", ring, "plan.json"));
    const noPlan = (await precomputeJson(d)).doc.patterns.find((x) => x.key === ring)!;
    expect(noPlan.replaced).toEqual({ was: "a directory without plan.json", because: "damaged" });
    // planned for another runtime: replaced because of the target, not damage
    const other = await precomputeJson(d, "--runtime", "none");
    expect(other.doc.target).toMatchObject({ runtime: null, freeCopies: null });
    for (const x of other.doc.patterns)
      expect(x.replaced).toEqual({ was: "ib-hdr-200, runtime ib-hdr-200-mpi", because: "another target" });
    // a plan.json written before it recorded the gain: the gain is unknown, the rest as it says
    const { gain: _, ...old } = planJson(d, moe);
    writeFileSync(join(d, "s", "programs", moe, "plan.json"), JSON.stringify(old));
    const before = (await precomputeJson(d, "--runtime", "none")).doc.patterns.find((x) => x.key === moe)!;
    expect(before.status).toBe("present");
    expect(before.plan).toMatchObject({ gain: null, algorithm: old["algorithm"], planUs: old["planUs"] });
  });

  it("says of an exchange without messages between ranks: no replay, gain 0, the reason why", async () => {
    const d = tempDir("capture-json");
    const diagonal = matrixFromRows(
      [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? 5 : 0))),
      { elementBytes: 8 },
    );
    writeCapture(join(d, "cap"), diagonal);
    for (const target of [[], ["--runtime", "none"]]) {
      const { code, doc } = await precomputeJson(d, ...target);
      expect(code).toBe(0);
      expect(doc.patterns[0]!.plan).toMatchObject({
        replay: false,
        gain: 0,
        reason: "no messages between ranks: a plan has nothing to gain over MPI_Alltoallv",
      });
      expect(doc.totals["replay"]).toBe(0);
    }
  });
});

describe("precompute --from-capture --json on a failure", () => {
  /** Writes the captures a, b, c (read in that order) into d/cap; returns their keys. */
  function threeCaptures(d: string): [string, string, string] {
    const three = matrixFromRows(
      [
        [0, 3, 3],
        [3, 0, 3],
        [3, 3, 0],
      ],
      { elementBytes: 4 },
    );
    const cap = join(d, "cap");
    return [
      writeCapture(cap, MOE_CAPTURE, { name: "a" }),
      writeCapture(cap, RING, { name: "b" }),
      writeCapture(cap, three, { name: "c" }),
    ];
  }

  /** precomputeJson(d) with fs's `name` throwing `error()` once on a path `at` names (node:fs's exports follow it). */
  async function withFault(
    d: string,
    name: "renameSync" | "rmSync",
    at: (args: unknown[]) => boolean,
    error: () => Error,
  ): Promise<Awaited<ReturnType<typeof precomputeJson>>> {
    const real = fs[name] as (...args: unknown[]) => void;
    let met = false;
    (fs as Record<string, unknown>)[name] = (...args: unknown[]): void => {
      if (!met && at(args)) {
        met = true;
        throw error();
      }
      real(...args);
    };
    syncBuiltinESMExports();
    try {
      return await precomputeJson(d);
    } finally {
      (fs as Record<string, unknown>)[name] = real;
      syncBuiltinESMExports();
      expect(met).toBe(true);
    }
  }

  it("on a pattern that fails: the document (failed with the error, the rest skipped), then the error, exit 2", async () => {
    // a write that fails (EIO, refused as bad input), an allocation the machine refuses (out of memory): both exit 2
    for (const fault of ["EIO", "out of memory"]) {
      const d = tempDir("capture-json");
      const [a, b, c] = threeCaptures(d);
      const programDir = join(d, "s", "programs", b);
      const r =
        fault === "EIO"
          ? await withFault(
              d,
              "renameSync",
              (args) => args[1] === programDir,
              () => Object.assign(new Error(`EIO: i/o error, rename onto ${programDir}`), { code: "EIO" }),
            )
          : await withFault(
              d,
              "rmSync",
              (args) => String(args[0]).includes(`.${b}.`),
              () => new RangeError("Array buffer allocation failed"),
            );
      expect([fault, r.code]).toEqual([fault, 2]);
      const line =
        fault === "EIO" ? /^precompute: [^\n]*EIO[^\n]*\n$/ : /^precompute: out of memory: Array buffer [^\n]*\n$/;
      expect(r.err).toMatch(line);
      const byKey = new Map(r.doc.patterns.map((x) => [x.key, x]));
      expect(byKey.get(a)).toMatchObject({ status: "added", message: null, program: `programs/${a}` });
      expect(byKey.get(b)).toMatchObject({ status: "failed", message: r.err.trimEnd(), plan: null, program: null });
      expect(byKey.get(c)).toMatchObject({ status: "skipped", plan: null, program: null });
      expect(byKey.get(c)!.message).toBe(`not planned: the run stopped at ${b}`);
      expect(r.doc.totals).toMatchObject({ patterns: 3, added: 1, failed: 1, skipped: 1 });
      expect(existsSync(programDir)).toBe(false);
    }
  });

  it("refuses bad input before planning in one line, with nothing on stdout", async () => {
    const d = tempDir("capture-json");
    writeCapture(join(d, "cap"), MOE_CAPTURE, { key: "0".repeat(32) });
    const base = ["precompute", "--from-capture", join(d, "cap"), "--store", join(d, "s")];
    const bad = await run(...base, "--machine", "ib-hdr-200", "--json");
    expect([bad.code, bad.out]).toEqual([2, ""]);
    expect(bad.err).toMatch(/^precompute: [^\n]*capture\.json: the capture's key 0{32} is not its matrix's[^\n]*\n$/);
    const noMachine = await run(...base, "--json");
    expect([noMachine.code, noMachine.out]).toEqual([2, ""]);
    expect(noMachine.err).toMatch(/^precompute: --from-capture needs --machine[^\n]*\n$/);
    expect(existsSync(join(d, "s"))).toBe(false);
    // --help names the document
    const help = (await run("precompute", "--help")).out.replace(/\s+/g, " ");
    expect(help).toContain("with --from-capture every captured pattern");
    expect(help).toContain("as commplan.precompute-capture/v1");
  });
});
