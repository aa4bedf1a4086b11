/**
 * Total-exchange protocol: the shape every 001 protocol shares, its planner wrapper and the round-counting entry point.
 */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { createRng, type Rng } from "../../model/rng.js";
import type { JsonValue } from "../../model/schedule.js";
import { progressPhases, type ProgressCallback } from "../../model/progress.js";
import { planHeader, trackedRng } from "../plan-header.js";
import { integer, output, type InputSpec, type OutputSpec, type Resolved } from "../../model/param-spec.js";
import { definePlanner, resolveParams } from "../plan-params.js";
import type { AutoProfile, Planner } from "../types.js";
import { checkTeMatrix, checkTeRounds, relationLoad, roundLowerBound, RoundEngine } from "./round-engine.js";
import { refuseOverBudget } from "../plan-memory.js";

/** A numeric parameter of a protocol: an integer or number (in min..max) with a default. */
export type TeParam = InputSpec<number, true>;

/** The parameters of a protocol by name. */
export type TeParams = { readonly [name: string]: TeParam };

/** The header keys a protocol writes, by name. */
export type TeOutputs = { readonly [name: string]: OutputSpec };

/**
 * The `ports` parameter every te-* planner takes besides its protocol's (its upper bound P - 1 is checked against the
 * matrix).
 */
const PORTS_PARAM = integer({
  description: "a node sends and receives up to k messages per step (k <= P - 1)",
  min: 1,
  unit: "shifts per step",
  default: 1,
});

/** Output (header key) declarations from `name: description` pairs, in order. */
export function teOutputs(keys: { readonly [name: string]: string }): TeOutputs {
  return Object.fromEntries(Object.entries(keys).map(([name, description]) => [name, output(description)]));
}

/**
 * The header keys every te-* planner writes after its protocol's own (declared as outputs, so a header's params can be
 * given back).
 */
const COMMON_OUTPUTS = teOutputs({
  rounds: "rounds in which a packet moved (the schedule's stages)",
  idleRounds: "protocol rounds in which only copies or dummies travelled (no stage)",
  lowerBound: "the node bound ceil(t / (P - 1)) on rounds",
  maxPairLoad: "the largest off-diagonal entry (te-direct's rounds)",
});

/** What a protocol reports about its run (stored in the schedule's params under its declared `outputs`). */
export type TeInfo = { [k: string]: JsonValue };

/** A total-exchange protocol over unit packets. */
export interface TeProtocol<S extends TeParams = TeParams> {
  readonly name: string;
  readonly title: string;
  readonly source: string;
  readonly params: S;
  /** The keys `run` returns (written into the header's params). */
  readonly outputs: TeOutputs;
  /**
   * Share (0..1) of a plan's progress taken by work the protocol does before its first round (te-offline's
   * search); the rest counts the packets delivered (RoundEngine). None by default.
   */
  readonly searchShare?: number;
  /** Some packet travels through an intermediate (Planner.traits.relayed). */
  readonly relayed: boolean;
  /** Its rounds depend on the seed (Planner.traits.randomised). */
  readonly randomised: boolean;
  /** Whether 001's table (`commplan te-table`) reports it by default. */
  readonly inPaperTable?: boolean;
  /** What auto needs of it; absent: not one of auto's candidates (TE_NO_AUTO). */
  readonly auto?: AutoProfile;
  /**
   * Moves every packet to its destination through the engine; returns what happened. `search`: the progress of the work
   * before the rounds (see searchShare).
   */
  run(m: CommMatrix, eng: RoundEngine, rng: Rng, params: Resolved<S>, search: ProgressCallback | null): TeInfo;
  /** A faster round count without moving packets (optional). */
  count?(m: CommMatrix, rng: Rng, params: Resolved<S>): { rounds: number; info: TeInfo };
}

/** A protocol whose `run` and `count` receive its params typed (inferred from `params`). */
export function defineTeProtocol<S extends TeParams>(proto: TeProtocol<S>): TeProtocol<S> {
  return proto;
}

/** The protocol's own parameters out of resolved params (the planner's `ports` left out), in declaration order. */
function protocolParams(proto: TeProtocol, resolved: { readonly [k: string]: unknown }): Resolved<TeParams> {
  const out: { [k: string]: number } = {};
  for (const name of Object.keys(proto.params)) out[name] = resolved[name] as number;
  return out;
}

/** The te-* planners move every element as its own transfer: compare skips them past this many network elements. */
export const MAX_ELEMENT_PLANNER_ELEMENTS = 20_000;

/** Why a protocol without an auto profile is not auto's candidate. */
const TE_NO_AUTO =
  "te-offline, the best of the total-exchange protocols (docs/algorithms/total-exchange.md), stands for the family";

/** The planner of a protocol: one stage per non-empty round, N - 1 shift steps per round (empty steps dropped). */
export function tePlanner(proto: TeProtocol): Planner {
  const params = { ...proto.params, ports: PORTS_PARAM, ...proto.outputs, ...COMMON_OUTPUTS };
  const traits = {
    relayed: proto.relayed,
    randomised: proto.randomised,
    stages: "rounds",
    growth: "superlinear",
    elementLimit: MAX_ELEMENT_PLANNER_ELEMENTS,
    family: { name: "total-exchange", inPaperTable: proto.inPaperTable ?? false },
    claims: "verifier",
  } as const;
  const auto = proto.auto ?? { none: TE_NO_AUTO };
  const info = { name: proto.name, title: proto.title, source: proto.source, params, traits, auto };
  return definePlanner(info, (m, opts) => {
    const ports = opts.params.ports,
      most = Math.max(1, m.p - 1);
    if (ports > most)
      throw fail(
        "planner",
        "BAD_OPTION",
        `${proto.name}: ports must be an integer in 1..${most} (shifts per step), got ${ports}`,
        { field: "params.ports" },
      );
    const params = protocolParams(proto, opts.params);
    checkTeMatrix(proto.name, m, true);
    const { rounds: fewest, bytes } = checkTeRounds(proto.name, m, proto.relayed, opts.payload);
    refuseOverBudget(
      proto.name,
      bytes,
      `at least ${fewest} rounds, one stage each, and every element a unit packet`,
      opts,
    );
    // progress: the search (searchShare of the rest), the rounds, then the schedule's columns copied out (about a
    // tenth)
    const share = Math.round(900 * (proto.searchShare ?? 0));
    const progress = progressPhases(opts.progress, [share, 900 - share, 100]);
    const eng = new RoundEngine(m, planHeader(m, proto.name, opts, true), opts.payload, ports, progress.phase(1));
    // the seed goes into the header only when the protocol drew from it (te-direct never does; te-offline seeds its own
    // stream from the matrix)
    const { rng, used } = trackedRng(opts.seed);
    const info = proto.run(m, eng, rng, params, progress.phase(0));
    const { t, maxPair } = relationLoad(m);
    const s = eng.build({
      ...params,
      ...info,
      ports,
      rounds: eng.rounds,
      idleRounds: eng.idleRounds,
      lowerBound: roundLowerBound(m.p, t),
      maxPairLoad: maxPair,
    });
    progress.end();
    return used() ? s : { ...s, seed: null };
  });
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
export function countTeRounds(
  proto: TeProtocol,
  m: CommMatrix,
  seed: number,
  given: { readonly [k: string]: JsonValue } = {},
): TeCount {
  const params = protocolParams(proto, resolveParams(proto.name, proto.params, given));
  checkTeMatrix(proto.name, m, false);
  const { t, maxPair } = relationLoad(m);
  const base = { algorithm: proto.name, lowerBound: roundLowerBound(m.p, t), maxPairLoad: maxPair };
  const rng = createRng(seed);
  if (proto.count) {
    const { rounds, info } = proto.count(m, rng, params);
    return { ...base, rounds, info };
  }
  const eng = new RoundEngine(m, null, false);
  const info = proto.run(m, eng, rng, params, null);
  return { ...base, rounds: eng.rounds + eng.idleRounds, info };
}
