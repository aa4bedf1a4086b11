/** Total-exchange protocol: the shape every 001 protocol shares, its planner wrapper and the round-counting entry point. */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { createRng, type Rng } from "../../model/rng.js";
import type { JsonValue } from "../../model/schedule.js";
import { planHeader } from "../plan-header.js";
import type { Planner, PlanOptions } from "../types.js";
import { checkTeMatrix, relationLoad, roundLowerBound, RoundEngine } from "./round-engine.js";

/** A numeric parameter of a protocol. */
export interface TeParam {
  readonly name: string;
  readonly description: string;
  readonly default: number;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
}

/** What a protocol reports about its run (stored in the schedule's params). */
export type TeInfo = { [k: string]: JsonValue };

/** A total-exchange protocol over unit packets. */
export interface TeProtocol {
  readonly name: string;
  readonly title: string;
  readonly source: string;
  readonly params: readonly TeParam[];
  /** Moves every packet to its destination through the engine; returns what happened. */
  run(m: CommMatrix, eng: RoundEngine, rng: Rng, params: Readonly<Record<string, number>>): TeInfo;
  /** A faster round count without moving packets (optional). */
  count?(m: CommMatrix, rng: Rng, params: Readonly<Record<string, number>>): { rounds: number; info: TeInfo };
}

/** Checks a protocol's parameters and fills the defaults. */
export function resolveTeParams(proto: TeProtocol, given: { readonly [k: string]: JsonValue }): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of Object.keys(given)) {
    if (!proto.params.some((p) => p.name === name)) {
      const known = proto.params.map((p) => p.name);
      throw fail("planner", "BAD_OPTION", `${proto.name}: unknown parameter '${name}'${known.length ? `; known: ${known.join(", ")}` : " (it takes none)"}`, { field: `params.${name}` });
    }
  }
  for (const p of proto.params) {
    const v = given[p.name] ?? p.default;
    if (typeof v !== "number" || !Number.isFinite(v) || v < p.min || v > p.max || (p.integer && !Number.isInteger(v))) {
      throw fail("planner", "BAD_OPTION", `${proto.name}: parameter ${p.name} must be ${p.integer ? "an integer" : "a number"} in ${p.min}..${p.max}, got ${JSON.stringify(v)}`, { field: `params.${p.name}` });
    }
    out[p.name] = v;
  }
  return out;
}

/** The planner of a protocol: one stage per non-empty round, N - 1 shift steps per round (empty steps dropped). */
export function tePlanner(proto: TeProtocol): Planner {
  return {
    name: proto.name,
    title: proto.title,
    source: proto.source,
    plan(m: CommMatrix, opts: PlanOptions) {
      const { ports = 1, ...rest } = opts.params;
      if (typeof ports !== "number" || !Number.isInteger(ports) || ports < 1 || ports > Math.max(1, m.p - 1)) {
        throw fail("planner", "BAD_OPTION", `${proto.name}: ports must be an integer in 1..${Math.max(1, m.p - 1)} (shifts per step), got ${JSON.stringify(ports)}`, { field: "params.ports" });
      }
      const params = resolveTeParams(proto, rest);
      checkTeMatrix(proto.name, m, true);
      const eng = new RoundEngine(m, planHeader(m, proto.name, opts), opts.payload, ports);
      const info = proto.run(m, eng, createRng(opts.seed), params);
      const { t, maxPair } = relationLoad(m);
      return eng.build({ ...params, ...info, ports, rounds: eng.rounds, idleRounds: eng.idleRounds, lowerBound: roundLowerBound(m.p, t), maxPairLoad: maxPair });
    },
  };
}

/** Result of a round-counting run. */
export interface TeCount {
  readonly algorithm: string;
  /** Rounds the protocol spends (including idle rounds in which only copies or dummies travel). */
  readonly rounds: number;
  /** ceil(max packets a node sends or receives, self excluded, / (N - 1)). */
  readonly lowerBound: number;
  /** Largest off-diagonal entry (the direct protocol's rounds). */
  readonly maxPairLoad: number;
  readonly info: TeInfo;
}

/** Counts the rounds a protocol needs on m without building a schedule (typed arrays only). */
export function countTeRounds(proto: TeProtocol, m: CommMatrix, seed: number, given: { readonly [k: string]: JsonValue } = {}): TeCount {
  const params = resolveTeParams(proto, given);
  checkTeMatrix(proto.name, m, false);
  const { t, maxPair } = relationLoad(m);
  const base = { algorithm: proto.name, lowerBound: roundLowerBound(m.p, t), maxPairLoad: maxPair };
  const rng = createRng(seed);
  if (proto.count) {
    const { rounds, info } = proto.count(m, rng, params);
    return { ...base, rounds, info };
  }
  const eng = new RoundEngine(m, null, false);
  const info = proto.run(m, eng, rng, params);
  return { ...base, rounds: eng.rounds + eng.idleRounds, info };
}
