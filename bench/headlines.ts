/** Bench headlines: the few numbers the README quotes, computed from the recorded bench/results/*.json (so they cannot drift from them). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

type Json = { [k: string]: unknown };

function read(dir: string, name: string): Json | null {
  const f = join(dir, `${name}.json`);
  return existsSync(f) ? (JSON.parse(readFileSync(f, "utf8")) as Json) : null;
}

const rows = (d: Json | null, key: string): Json[] => (d && Array.isArray(d[key]) ? (d[key] as Json[]) : []);
const n = (x: unknown): number => (typeof x === "number" ? x : NaN);
const int = (x: number): string => Math.round(x).toLocaleString("en-US");

/** The README's headline lines (markdown bullets), one per recorded bench that has the numbers. */
export function benchHeadlines(dir: string): string {
  const out: string[] = [];
  const foundation = rows(read(dir, "foundation"), "results").filter((r) => r["payload"] === false);
  const big = foundation.reduce<Json | null>((a, r) => (a === null || n(r["p"]) > n(a["p"]) ? r : a), null);
  if (big)
    out.push(
      `- linear permutation at P = ${int(n(big["p"]))} (${int(n(big["transfers"]))} transfers): plan + verify in ${n(big["planVerifyRatio"]).toFixed(0)} statistics passes over the same matrix (${(n(big["planMs"]) / 1000).toFixed(1)} s + ${(n(big["verifyMs"]) / 1000).toFixed(1)} s).`,
    );
  const scale = rows(read(dir, "sparse-scale"), "scale");
  const biggest = scale.reduce((a, r) => Math.max(a, n(r["p"])), 0);
  const at = (label: string): Json | undefined => scale.find((r) => n(r["p"]) === biggest && r["label"] === label);
  const [rd, pl, vf] = [at("read"), at("plan shift"), at("verify (shift plan)")];
  if (rd && pl && vf)
    out.push(
      `- sparse: a 3D halo exchange on ${int(biggest)} ranks (${int(n(rd["entries"]))} messages) reads in ${(n(rd["readMs"]) / 1000).toFixed(1)} s; shift plans it in ${(n(pl["stepMs"]) / n(rd["readMs"])).toFixed(1)} reads and verifies it in ${(n(vf["stepMs"]) / n(rd["readMs"])).toFixed(1)}, at ${(n(vf["peakMiB"]) / n(vf["fileMiB"])).toFixed(1)} x the file's size in memory.`,
    );
  const four = read(dir, "four-stage");
  if (four && typeof four["largestPayloadP"] === "number")
    out.push(
      `- four-stage (A4), payload level: the largest P whose plan + verify fits ${int(n(four["budgetMiB"]))} MiB is ${int(n(four["largestPayloadP"]))}.`,
    );
  const sim = rows(read(dir, "simulate"), "results");
  if (sim.length > 0) {
    const best = sim.reduce((a, r) => (n(r["eventsPerSecond"]) > n(a["eventsPerSecond"]) ? r : a));
    out.push(
      `- simulated machine: up to ${(n(best["eventsPerSecond"]) / 1e6).toFixed(1)} million events per second (shift schedule, P = ${int(n(best["p"]))}, ${String(best["mode"])}).`,
    );
  }
  const te = rows(read(dir, "total-exchange"), "cells");
  const withPaper = te.filter((c) => c["paper"] !== null && typeof (c["paper"] as Json)["oursRounds"] === "number");
  if (withPaper.length > 0) {
    const off = (c: Json): Json => (c["results"] as Json)["te-offline"] as Json;
    const below = withPaper.filter((c) => n(off(c)["maxRounds"]) < n((c["paper"] as Json)["oursRounds"])).length;
    const worstOver = Math.max(...te.map((c) => n(off(c)["maxOverLowerBound"])));
    out.push(
      `- total exchange (001's table): te-offline's worst seed needs fewer rounds than the paper's protocol in ${below} of ${withPaper.length} cells, and at most ${worstOver} rounds above the lower bound.`,
    );
  }
  return out.join("\n") + "\n";
}
