/**
 * Checks of a hierarchical plan (nodes of g ranks): stages 1 and 3 inside a node, stage 2 on the rails with one message
 * per node pair, and the start-up and step bounds.
 */
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import { atMost, check, type Check } from "./report.js";

const SRC = "docs/algorithms/hierarchical.md";

/** g from the header's `gpus` when it divides P, else null. */
function gpusOf(s: Schedule): number | null {
  const g = s.params["gpus"];
  return typeof g === "number" && Number.isInteger(g) && g >= 1 && s.p % g === 0 ? g : null;
}

/**
 * The checks (N = P / g nodes, rank u on node floor(u / g), GPU u mod g):
 *  - three stages; stages 1 and 3 stay inside a node; stage 2 goes between nodes on one rail (GPU i
 *    to GPU i), at most one message per ordered node pair;
 *  - messages a rank sends <= 2 (g - 1) + ceil(N / g) (stage 2: the node pairs of one rail);
 *  - steps <= 2 (g - 1) + 2 ceil(N / g) - 1 (first-fit packing of a graph of degree ceil(N / g)).
 */
export function checkHierarchical(_m: CommMatrix, s: Schedule): Check[] {
  const g = gpusOf(s);
  if (g === null)
    return [
      check(
        "hierarchical-gpus",
        "the header's gpus divides P",
        SRC,
        false,
        null,
        null,
        `gpus = ${String(s.params["gpus"])}, P = ${s.p}`,
      ),
    ];
  if (s.stages.length !== 3)
    return [
      check(
        "hierarchical-stages",
        "a hierarchical plan has 3 stages",
        SRC,
        false,
        s.stages.length,
        3,
        `${s.stages.length} stages`,
      ),
    ];
  const { p } = s;
  const nodes = p / g;
  const sent = new Uint32Array(p);
  const pairSeen = new Set<number>();
  let witness: string | null = null;
  for (const [k, st] of s.stages.entries()) {
    for (let step = st.firstStep; step < st.firstStep + st.stepCount; step++)
      for (let x = s.stepStart[step]!; x < s.stepStart[step + 1]!; x++) {
        const a = s.src[x]!,
          b = s.dst[x]!;
        if (a === b) continue;
        sent[a] = sent[a]! + 1;
        const na = Math.floor(a / g),
          nb = Math.floor(b / g);
        if (k !== 1 && na !== nb) witness ??= `stage ${k + 1}: ${a} -> ${b} leaves node ${na}`;
        if (k === 1) {
          if (na === nb) witness ??= `stage 2: ${a} -> ${b} stays in node ${na}`;
          else if (a % g !== b % g) witness ??= `stage 2: ${a} -> ${b} changes rail (${a % g} to ${b % g})`;
          else if (pairSeen.has(na * nodes + nb)) witness ??= `stage 2: node ${na} sends node ${nb} twice`;
          pairSeen.add(na * nodes + nb);
        }
      }
  }
  let worst = 0,
    at = 0;
  for (let u = 0; u < p; u++)
    if (sent[u]! > worst) {
      worst = sent[u]!;
      at = u;
    }
  const perRail = Math.ceil(nodes / g);
  return [
    check(
      "hierarchical-links",
      "stages 1 and 3 inside a node; stage 2 between nodes on one rail, one message per node pair",
      SRC,
      witness === null,
      null,
      null,
      witness,
    ),
    atMost(
      "hierarchical-start-ups",
      `messages a rank sends <= 2 (g - 1) + ceil(N / g) = ${2 * (g - 1) + perRail}`,
      SRC,
      worst,
      2 * (g - 1) + perRail,
      `rank ${at} sends ${worst} messages`,
    ),
    atMost(
      "hierarchical-steps",
      `steps <= 2 (g - 1) + 2 ceil(N / g) - 1 = ${2 * (g - 1) + Math.max(0, 2 * perRail - 1)}`,
      SRC,
      s.stepCount,
      2 * (g - 1) + Math.max(0, 2 * perRail - 1),
      `${s.stepCount} steps`,
    ),
  ];
}
