/**
 * Fingerprints of what commplan emits: every planner's plan, its verifier report, its cost, its
 * simulated replay (both modes, a network, the protocols), its lowered program and every export,
 * compare and auto, over seeded cases, run through the command line in-process (the CLI's flags are
 * the stable surface a refactor must keep). Prints one JSON object { case: sha256 } to stdout.
 *
 *   npx tsx bench/fingerprint.ts > before.json   (then, after a change)
 *   npx tsx bench/fingerprint.ts > after.json && diff before.json after.json
 *
 * Output that names a temporary path or a wall time is scrubbed before hashing. Used to show that a
 * restructuring leaves behaviour byte-identical (docs/architecture.md).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../src/cli/main.js";

const dir = mkdtempSync(join(tmpdir(), "commplan-fp-"));
const out: Record<string, string> = {};

/** Drops what varies between runs (temporary paths, wall-clock times). */
function scrub(text: string): string {
  return text
    .split(dir)
    .join("<DIR>")
    .replace(/"(ms|wallMs|seconds|elapsedMs|planMs|simMs|timeMs)":\s*[-0-9.e+]+/g, '"$1":0');
}

function hash(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** Runs one command line; records its exit code, stdout and stderr and the files it wrote. */
async function run(key: string, argv: string[], files: string[] = []): Promise<number> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { out: (t) => void (stdout += t), err: (t) => void (stderr += t), interactive: false });
  const parts = [`exit ${code}`, scrub(stdout), scrub(stderr)];
  for (const f of files) {
    const p = join(dir, f);
    let st;
    try {
      st = statSync(p);
    } catch {
      parts.push(`${f}: absent`);
      continue;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort())
        parts.push(`${f}/${name}: ${hash(scrub(readFileSync(join(p, name), "latin1")))}`);
    } else parts.push(`${f}: ${hash(scrub(readFileSync(p, "latin1")))}`);
  }
  out[key] = `${code} ${hash(parts.join("\n\0"))}`;
  return code;
}

const f = (name: string): string => join(dir, name);

const PATTERNS: readonly (readonly [string, readonly string[]])[] = [
  ["pattern1", []],
  ["liu-pattern2", ["--lmax", "64"]],
  ["wang-set2", ["--d", "3"]],
  ["moe", []],
  ["zipf", []],
  ["h-relation", ["--h", "3"]],
];
const SIZES = [8, 12, 16];
const SEEDS = [1, 2];

async function algorithms(): Promise<string[]> {
  let text = "";
  await main(["algorithms", "--json"], { out: (t) => void (text += t), err: () => {}, interactive: false });
  const doc = JSON.parse(text) as { name: string }[] | { algorithms: { name: string }[] };
  const list = Array.isArray(doc) ? doc : doc.algorithms;
  return list.map((a) => a.name);
}

const algs = await algorithms();
let cases = 0;
for (const [pattern, opts] of PATTERNS) {
  for (const p of SIZES) {
    for (const seed of SEEDS) {
      const tag = `${pattern}-p${p}-s${seed}`;
      const m = f(`${tag}.json`);
      const gen = await run(
        `gen ${tag}`,
        ["gen", pattern, "--p", String(p), "--seed", String(seed), ...opts, "-o", m],
        [`${tag}.json`],
      );
      if (gen !== 0) continue;
      await run(`stats ${tag}`, ["stats", m, "--json"]);
      for (const alg of algs) {
        const key = `${tag} ${alg}`;
        const s = f(`${tag}-${alg}.json`);
        const code = await run(
          `plan ${key}`,
          ["plan", m, "-a", alg, "--payload", "--seed", String(seed), "-o", s],
          [`${tag}-${alg}.json`],
        );
        cases++;
        if (code !== 0) continue;
        await run(`verify ${key}`, ["verify", s, "-m", m, "--json"]);
        await run(`cost ${key}`, ["cost", s, "--machine", "t3d-004", "--mode", "nonblocking", "--json"]);
        await run(`sim-b ${key}`, ["simulate", s, "--machine", "sp2-004", "--json"]);
        await run(`sim-nb ${key}`, ["simulate", s, "--machine", "t3d-004", "--mode", "nonblocking", "--json"]);
        if (seed !== 1) continue;
        await run(`sim-net ${key}`, [
          "simulate",
          s,
          "--machine",
          "ib-hdr-200",
          "--network",
          "fat-tree:k=4,oversub=2",
          "--json",
        ]);
        await run(`sim-data ${key}`, ["simulate", s, "--machine", "t3d-004", "--data", "-m", m, "--json"]);
        await run(`sim-step ${key}`, [
          "simulate",
          s,
          "--machine",
          "t3d-004",
          "--recv-order",
          "step",
          "--no-stage-barriers",
          "--json",
        ]);
        const prog = `${tag}-${alg}.prog.json`;
        await run(`export-program ${key}`, ["export", s, "-m", m, "-f", "program", "-o", f(prog)], [prog]);
        await run(`verify-program ${key}`, ["verify-program", f(prog), "-m", m, "--json"]);
        if (p !== 8) continue;
        const goal = `${tag}-${alg}.goal`;
        await run(`export-goal ${key}`, ["export", s, "-m", m, "-f", "goal", "-o", f(goal)], [goal]);
        const xml = `${tag}-${alg}.xml`;
        await run(`export-msccl ${key}`, ["export", s, "-m", m, "-f", "msccl-xml", "-o", f(xml)], [xml]);
        const sg = `${tag}-${alg}-sg`;
        await run(
          `export-simgrid ${key}`,
          ["export", s, "-m", m, "-f", "simgrid", "--machine", "t3d-004", "--out", f(sg)],
          [sg],
        );
        const blk = `${tag}-${alg}.blk.json`;
        await run(
          `export-blocking ${key}`,
          ["export", s, "-m", m, "-f", "program", "--variant", "blocking", "-o", f(blk)],
          [blk],
        );
        const svg = `${tag}-${alg}.svg`;
        const trace = `${tag}-${alg}.trace.json`;
        await run(
          `sim-pictures ${key}`,
          ["simulate", s, "--machine", "t3d-004", "--svg", f(svg), "--trace", f(trace)],
          [svg, trace],
        );
      }
      await run(`compare ${tag}`, ["compare", m, "--machine", "t3d-004", "--seed", String(seed), "--json"]);
      await run(`compare-nb ${tag}`, ["compare", m, "--machine", "ib-hdr-200", "--mode", "nonblocking", "--json"]);
      const auto = `${tag}-auto.json`;
      await run(`auto ${tag}`, ["plan", m, "-a", "auto", "--machine", "t3d-004", "-o", f(auto)], [auto]);
      const autoNet = `${tag}-auto-net.json`;
      await run(
        `auto-net ${tag}`,
        ["plan", m, "-a", "auto", "--machine", "ib-hdr-200", "--network", "fat-tree:k=4,oversub=2", "-o", f(autoNet)],
        [autoNet],
      );
      await run(`drs-n ${tag}`, ["simulate", "--protocol", "drs-n", m, "--machine", "cm5-004", "--json"]);
      await run(`async ${tag}`, ["simulate", "--protocol", "async", m, "--machine", "cm5-004", "--json"]);
    }
  }
}
await run("te-table", ["te-table", "--n", "16", "--h", "4N", "--seeds", "1", "--json"]);
process.stderr.write(`fingerprint: ${Object.keys(out).length} outputs from ${cases} plans\n`);
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
rmSync(dir, { recursive: true, force: true });
