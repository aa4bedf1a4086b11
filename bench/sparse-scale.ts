/**
 * Sparse scale: 3D halo exchanges with 26 neighbours (periodic, so every rank has 26) at
 * P = 2^14, 2^17 and 2^20, read from a Matrix Market file. Each step runs in its own process
 * (bench/sparse-case.ts) that reads the file first: its time is a ratio to that read, its peak
 * memory a ratio to the file's size. Then a P = 16384 matrix with ten entries: every planner plans
 * and verifies it, its peak memory against a process that reads the file and runs a stats pass.
 *
 * COMMPLAN_BENCH_SPARSE_MAX_P caps P (a quick run: 131072).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeMatrixFile } from "../src/io/matrix-write.js";
import { matrixFromCoordinates } from "../src/model/matrix.js";
import { createRng } from "../src/model/rng.js";
import { generatePattern } from "../src/patterns/index.js";
import { PLANNERS } from "../src/planner/registry.js";
import { machineInfo, mdTable, runCase, writeResults } from "./lib.js";

interface CaseResult {
  p: number;
  entries: number | null;
  readMs: number;
  stepMs: number;
  transfers: number;
  steps: number;
  afterReadMiB: number;
  peakMiB: number;
  outMiB: number;
  refused: string | null;
}

const SIZES = [1 << 14, 1 << 17, 1 << 20];
const STEPS: [string, string, string][] = [
  ["read", "read", "shift"],
  ["stats", "stats", "shift"],
  ["plan coloring", "plan", "coloring"],
  ["plan shift", "plan", "shift"],
  ["verify (coloring plan)", "verify", "coloring"],
  ["verify (shift plan)", "verify", "shift"],
  ["cost (shift plan)", "cost", "shift"],
  ["simulate (shift plan)", "simulate", "shift"],
  ["lower (shift plan)", "lower", "shift"],
  ["export program JSON (shift plan)", "export", "shift"],
];

const f1 = (x: number): string => x.toFixed(1);
const f2 = (x: number): string => x.toFixed(2);

/** Runs the sparse-scale bench; returns its markdown section. */
export async function sparseScaleBench(log: (s: string) => void): Promise<string> {
  const maxP = Number(process.env["COMMPLAN_BENCH_SPARSE_MAX_P"] ?? SIZES[SIZES.length - 1]);
  const dir = mkdtempSync(join(tmpdir(), "commplan-sparse-"));
  const rows: (string | number)[][] = [];
  const programs: string[] = [];
  const json: { scale: unknown[]; tenEntries: unknown[] } = { scale: [], tenEntries: [] };
  try {
    for (const p of SIZES.filter((x) => x <= maxP)) {
      const file = join(dir, `halo-${p}.mtx`);
      await writeMatrixFile(generatePattern("halo", p, { dims: 3, neighbours: 26, periodic: 1 }, 1), file, "mtx");
      const fileMiB = statSync(file).size / 2 ** 20;
      for (const [label, step, algorithm] of STEPS) {
        log(`sparse-scale: P = ${p}, ${label}`);
        const r = runCase<CaseResult>("sparse-case.ts", [file, step, algorithm], 16384);
        const perEntry = r.entries ? ((step === "read" ? r.readMs : r.stepMs) * 1e6) / r.entries : 0;
        json.scale.push({ label, fileMiB, ...r });
        if (step === "export" && r.refused === null && r.entries)
          programs.push(
            `P = ${p.toLocaleString("en-US")}: ${f1(r.outMiB)} MiB (${f1((r.outMiB * 2 ** 20) / r.entries)} bytes per entry)`,
          );
        rows.push([
          p.toLocaleString("en-US"),
          label,
          (r.entries ?? 0).toLocaleString("en-US"),
          r.refused === null ? f1(step === "read" ? r.readMs : r.stepMs) : `refused: ${r.refused}`,
          f2((step === "read" ? r.readMs : r.stepMs) / r.readMs),
          f1(perEntry),
          f1(fileMiB),
          Math.round(r.peakMiB),
          f2(r.peakMiB / fileMiB),
        ]);
      }
      rmSync(file, { force: true });
    }
    const ten = await tenEntries(dir, log);
    json.tenEntries = ten.json;
    const md =
      `### Sparse scale: 3D halo, 26 neighbours, P = 2^14 .. 2^20\n\n` +
      `Each step runs in its own process that first reads the Matrix Market file (streamed). Time ratio = the step / that read; ns per entry = the step's time / the matrix's non-zero entries (near-constant down a column means linear in E); memory ratio = the process's peak RSS / the file's size (the node runtime's own ~50 MiB included). verify, cost, simulate, lower and export plan first, untimed (their plan rows time it); lower builds the per-rank program in memory (the peer form of the layout: no P-long array per rank), export also writes it as program JSON. Machine: ${JSON.stringify(machineInfo())}.\n\n` +
      mdTable(
        ["P", "step", "entries", "ms", "time / read", "ns / entry", "file MiB", "peak MiB", "peak / file"],
        rows,
      ) +
      `\nThe program JSON the export rows wrote: ${programs.join("; ")}.\n` +
      `\n#### A P = 16384 matrix with ten entries: plan + verify with every planner\n\n` +
      `Peak RSS of a process that reads the file, runs a stats pass, then plans and verifies, against one that reads and runs the stats pass only (${Math.round(ten.baseMiB)} MiB). Target: at most 1.5 x, or refused up front with the estimate.\n\n` +
      mdTable(["planner", "outcome", "peak MiB", "ratio"], ten.rows);
    writeResults("sparse-scale", json, md);
    return md;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Ten random off-diagonal entries at P = 16384: every planner, peak memory against read + stats. */
async function tenEntries(
  dir: string,
  log: (s: string) => void,
): Promise<{ rows: (string | number)[][]; json: unknown[]; baseMiB: number }> {
  const p = 16384;
  const rng = createRng(16);
  const row = new Uint32Array(10),
    col = new Uint32Array(10),
    val = new Float64Array(10);
  for (let k = 0; k < 10; k++) {
    row[k] = rng.int(p);
    col[k] = (row[k]! + 1 + rng.int(p - 1)) % p;
    val[k] = 1 + rng.int(1000);
  }
  const file = join(dir, "ten.mtx");
  await writeMatrixFile(matrixFromCoordinates(p, row, col, val, 10), file, "mtx");
  const base = runCase<CaseResult>("sparse-case.ts", [file, "stats"]);
  const rows: (string | number)[][] = [];
  const json: unknown[] = [];
  for (const planner of PLANNERS) {
    log(`sparse-scale: ten entries, ${planner.name}`);
    const r = runCase<CaseResult>("sparse-case.ts", [file, "plan+verify", planner.name], 16384);
    json.push({ planner: planner.name, ...r, baseMiB: base.peakMiB });
    rows.push([
      planner.name,
      r.refused === null ? `planned and verified (${r.transfers} transfers)` : `refused: ${r.refused}`,
      Math.round(r.peakMiB),
      f2(r.peakMiB / base.peakMiB),
    ]);
  }
  return { rows, json, baseMiB: base.peakMiB };
}
