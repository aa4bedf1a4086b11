/** Fuzz corpus: valid matrices, schedules, lowered programs (whole and split), topology JSON files and a plan store, made by the CLI itself in process. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/io.js";
import type { FuzzFile } from "./inputs.js";

/** What a command printed and returned (thrown: what escaped main, null when nothing did). */
export interface MainResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly thrown: unknown;
}

/** Runs main in process with captured output (the first 4096 characters of each stream). */
export async function runMain(argv: readonly string[]): Promise<MainResult> {
  let out = "",
    err = "";
  let outBytes = 0;
  const io: CliIo = {
    out: (t) => {
      outBytes += t.length;
      if (out.length < 4096) out += t.slice(0, 4096);
    },
    err: (t) => void (err += t.slice(0, 4096)),
    interactive: false,
    stdinIsTerminal: false,
  };
  try {
    const code = await main(argv, io);
    return { code, out: out + (outBytes > 4096 ? "..." : ""), err, thrown: null };
  } catch (e) {
    return { code: -1, out, err, thrown: e };
  }
}

/** The corpus: every file, the matrix files, the valid (schedule, matrix) pairs, the topology files and the store. */
export interface Corpus {
  readonly files: FuzzFile[];
  readonly matrices: string[];
  /** Valid schedules with the matrix each was planned for (the network commands of a topology case run them). */
  readonly pairs: { schedule: string; matrix: string }[];
  readonly topologies: string[];
  /** The pristine store directory, and the matrix its entries were planned for. */
  readonly store: string;
  readonly storeMatrix: string;
}

async function must(argv: string[]): Promise<void> {
  const r = await runMain(argv);
  if (r.code !== 0) throw new Error(`corpus: ${argv.join(" ")} failed: ${r.err}${String(r.thrown ?? "")}`);
}

const GENS: string[][] = [
  ["uniform", "--p", "4"],
  ["pattern1", "--p", "5"],
  ["ranka-fig1", "--p", "8"],
  ["liu-pattern3", "--p", "9", "--lmax", "20"],
  ["wang-set1", "--p", "8", "--d", "3"],
  ["uniform", "--p", "1"],
  ["liu-pattern2", "--p", "16", "--lmax", "8"],
];

const PLANS = [
  ["shift"],
  ["two-stage", "--payload"],
  ["four-stage", "--payload"],
  ["te-direct"],
  ["coloring", "--payload"],
  ["linear-permutation"],
];

/** Matrices in three formats, schedules of six planners and a realised trace per matrix. */
async function matricesAndSchedules(dir: string, c: Corpus): Promise<void> {
  for (const [k, g] of GENS.entries()) {
    for (const ext of [".json", ".csv", ".mtx"]) {
      const path = join(dir, `m${k}${ext}`);
      await must(["gen", ...g, "--seed", String(k + 1), "-o", path]);
      c.files.push({ bytes: readFileSync(path), ext, kind: "matrix" });
      c.matrices.push(path);
    }
    const m = join(dir, `m${k}.json`);
    for (const plan of PLANS) {
      const path = join(dir, `s${k}-${plan[0]}.json`);
      const r = await runMain(["plan", m, "-a", ...plan, "-o", path]);
      if (r.code !== 0) continue;
      c.files.push({ bytes: readFileSync(path), ext: ".json", kind: "schedule", matrix: m });
      c.pairs.push({ schedule: path, matrix: m });
    }
    const realised = join(dir, `r${k}.json`);
    if (
      (await runMain(["simulate", m, "--machine", "t3d-004", "--protocol", "drs-n", "--realised", realised])).code === 0
    )
      c.files.push({ bytes: readFileSync(realised), ext: ".json", kind: "schedule", matrix: m });
  }
}

/** Programs lowered by export --format program: both variants, both layouts, and one split program (every file of it). */
async function programs(dir: string, c: Corpus): Promise<void> {
  const variants: string[][] = [[], ["--variant", "blocking"], ["--layout", "full"], ["--layout", "peers"]];
  for (const [k, { schedule, matrix }] of c.pairs.entries()) {
    const v = variants[k % variants.length]!;
    const path = join(dir, `p${k}.json`);
    const r = await runMain(["export", schedule, "--matrix", matrix, "--format", "program", ...v, "-o", path]);
    if (r.code === 0) c.files.push({ bytes: readFileSync(path), ext: ".json", kind: "program", matrix });
  }
  for (const k of [2, 8]) {
    const { schedule, matrix } = c.pairs[k % c.pairs.length]!;
    const split = join(dir, `split${k}`);
    await must(["export", schedule, "--matrix", matrix, "--format", "program", "--split", split]);
    for (const rel of readdirSync(split).sort()) {
      const bytes = readFileSync(join(split, rel));
      c.files.push({ bytes, ext: ".json", kind: "program", matrix, within: { dir: split, rel, main: "index.json" } });
    }
  }
}

/** A topology of `hosts` hosts on `racks` switches in a row, with one explicit route. */
function rackTopology(name: string, hosts: number, racks: number): string {
  const H = Array.from({ length: hosts }, (_, i) => `n${i}`);
  const S = Array.from({ length: racks }, (_, i) => `r${i}`);
  const links = [
    ...H.map((h, i) => ({ a: h, b: S[Math.floor((i * racks) / hosts)], bandwidth: 12500, latency: 0.2 })),
    ...S.slice(1).map((s, i) => ({ a: S[i], b: s, bandwidth: 25000 * (i + 1), latency: 1 })),
  ];
  const routes = racks > 1 ? [{ src: H[0], dst: H[hosts - 1], path: S }] : [];
  return JSON.stringify({ format: "commplan.topology/v1", name, hosts: H, switches: S, links, routes }, null, 2);
}

/** Topology JSON files of 16 hosts (every corpus schedule fits) and of 8 and 4 (some do not). */
function topologies(dir: string, c: Corpus): void {
  for (const [name, hosts, racks] of [
    ["two-racks", 16, 2],
    ["one-switch", 16, 1],
    ["chain", 16, 5],
    ["small", 8, 2],
    ["tiny", 4, 3],
  ] as const) {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, rackTopology(name, hosts, racks));
    c.files.push({ bytes: readFileSync(path), ext: ".json", kind: "topology" });
    c.topologies.push(path);
  }
}

/** A store of four entries of one matrix; every entry file (and the marker and log) is a corpus file. */
async function store(c: Corpus): Promise<void> {
  const requests = [
    ["-a", "shift"],
    ["-a", "two-stage", "--payload"],
    ["-a", "coloring", "--seed", "3"],
    ["-a", "rs-n"],
  ];
  for (const request of requests) {
    const r = await runMain(["store", "add", c.store, c.storeMatrix, ...request]);
    if (r.code !== 0) throw new Error(`corpus: store add ${request.join(" ")} failed: ${r.err}`);
    const id = r.out.trim();
    const rel = join("entries", id.slice(0, 2), `${id}.arrow`);
    const bytes = readFileSync(join(c.store, rel));
    c.files.push({
      bytes,
      ext: ".arrow",
      kind: "entry",
      matrix: c.storeMatrix,
      within: { dir: c.store, rel, main: "" },
      entry: { id, request },
    });
  }
  for (const rel of ["commplan-store.json", "log"])
    c.files.push({
      bytes: readFileSync(join(c.store, rel)),
      ext: "",
      kind: "entry",
      within: { dir: c.store, rel, main: "" },
    });
}

/** Builds the corpus in `dir`. */
export async function buildCorpus(dir: string): Promise<Corpus> {
  mkdirSync(dir, { recursive: true });
  const c: Corpus = {
    files: [],
    matrices: [],
    pairs: [],
    topologies: [],
    store: join(dir, "store"),
    storeMatrix: join(dir, "m2.json"),
  };
  await matricesAndSchedules(dir, c);
  await programs(dir, c);
  topologies(dir, c);
  await store(c);
  return c;
}
