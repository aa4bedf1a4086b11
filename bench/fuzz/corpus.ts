/** Fuzz corpus: valid matrices, schedules, programs and a plan store, made once by the product's own CLI (dist/). */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CliIo } from "../../src/cli/io.js";

/** A valid schedule with the matrix it was planned for (file names in the corpus directory). */
export interface CorpusPair {
  readonly schedule: string;
  readonly matrix: string;
  readonly program: string | null;
}

/** The corpus: its directory and what it holds. */
export interface Corpus {
  readonly dir: string;
  readonly matrices: string[];
  readonly pairs: CorpusPair[];
  /** A split program's directory (index.json and rank files) and its matrix. */
  readonly split: { dir: string; matrix: string };
  /** The store directory, the matrix its entries were planned for, and their ids with their requests. */
  readonly store: string;
  readonly storeMatrix: string;
  readonly entries: { id: string; request: string[] }[];
  /** A matrix whose entries are near 2^50 elements (its byte counts pass 2^53 at 8 bytes an element and more). */
  readonly huge: string;
}

type Main = (argv: readonly string[], io: CliIo) => Promise<number>;

async function must(main: Main, argv: string[]): Promise<string> {
  let out = "",
    err = "";
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t), interactive: false });
  if (code !== 0) throw new Error(`fuzz corpus: ${argv.join(" ")} exited ${code}: ${err}`);
  return out;
}

const GENS: string[][] = [
  ["uniform", "--p", "4"],
  ["pattern1", "--p", "5"],
  ["ranka-fig1", "--p", "8"],
  ["liu-pattern3", "--p", "9", "--lmax", "20"],
  ["uniform", "--p", "16"],
  ["uniform", "--p", "1"],
];
const PLANS = [
  ["shift"],
  ["two-stage", "--payload"],
  ["coloring", "--payload"],
  ["te-direct"],
  ["four-stage", "--payload"],
];

/** Builds the corpus in `dir` with the build at `dist`. */
export async function buildCorpus(dir: string, dist: string): Promise<Corpus> {
  const { main } = (await import(pathToFileURL(join(dist, "cli", "main.js")).href)) as { main: Main };
  mkdirSync(dir, { recursive: true });
  const c: Corpus = {
    dir,
    matrices: [],
    pairs: [],
    split: { dir: "split", matrix: "m2.json" },
    store: "store",
    storeMatrix: "m0.json",
    entries: [],
    huge: "huge.json",
  };
  const at = (f: string): string => join(dir, f);
  for (const [k, g] of GENS.entries()) {
    for (const ext of [".json", ".csv", ".mtx"]) {
      await must(main, ["gen", ...g, "--seed", String(k + 1), "-o", at(`m${k}${ext}`)]);
      c.matrices.push(`m${k}${ext}`);
    }
    for (const [j, plan] of PLANS.entries()) {
      const s = `s${k}-${plan[0]}.json`;
      try {
        await must(main, ["plan", at(`m${k}.json`), "-a", ...plan, "-o", at(s)]);
      } catch {
        continue; // a planner that does not take this matrix
      }
      let program: string | null = `p${k}-${j}.json`;
      const variant = ["nonblocking", "blocking", "dataflow"][(k + j) % 3]!;
      try {
        await must(main, [
          "export",
          at(s),
          "-m",
          at(`m${k}.json`),
          "-f",
          "program",
          "--variant",
          variant,
          "-o",
          at(program),
        ]);
      } catch {
        program = null;
      }
      c.pairs.push({ schedule: s, matrix: `m${k}.json`, program });
    }
  }
  const h = 2 ** 50;
  writeFileSync(
    at(c.huge),
    JSON.stringify({
      format: "commplan.matrix/v1",
      p: 3,
      elementBytes: 8,
      rows: [
        [0, h, 3],
        [h + 1, 0, h],
        [5, h - 1, 0],
      ],
    }),
  );
  for (const plan of [["shift"], ["two-stage", "--payload"]]) {
    const s = `huge-${plan[0]}.json`;
    await must(main, ["plan", at(c.huge), "-a", ...plan, "-o", at(s)]);
    c.pairs.push({ schedule: s, matrix: c.huge, program: null });
  }
  await must(main, ["export", at("s2-two-stage.json"), "-m", at("m2.json"), "-f", "program", "--split", at("split")]);
  for (const request of [
    ["-a", "shift"],
    ["-a", "two-stage", "--payload"],
    ["-a", "coloring", "--seed", "3"],
  ]) {
    const id = (await must(main, ["store", "add", at("store"), at("m0.json"), ...request])).trim();
    c.entries.push({ id, request });
  }
  if (readdirSync(at("split")).length < 2) throw new Error("fuzz corpus: the split program has no rank files");
  return c;
}

/** The bytes of a corpus file. */
export function corpusBytes(c: Corpus, rel: string): Buffer {
  return readFileSync(join(c.dir, rel));
}
