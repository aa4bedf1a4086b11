/**
 * Structure checks: direct delivery at message level, pairwise exchange steps (003 sec 3.2), shift steps (004 sec
 * 3.1.1).
 */
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import { auditPairs, type PairAudit } from "./pair-audit.js";
import { check, type Check } from "./report.js";

/**
 * A direct schedule sends each message straight to its destination: per ordered pair (i, j),
 * i != j, the transfers i -> j add up to M[i][j]; local copies stay within M[i][i]; with
 * payloads every chunk's origin and destination are the transfer's ends.
 */
export function checkDirect(m: CommMatrix, s: Schedule, audit?: PairAudit): Check {
  const pairs = audit ?? auditPairs(m, s);
  let witness = pairs.directWitness;
  let bad = pairs.directBad;
  const c = s.chunks;
  if (c) {
    for (let x = 0; x < s.transferCount && bad === 0; x++) {
      for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
        if (c.origin[k] !== s.src[x] || c.dest[k] !== s.dst[x]) {
          bad++;
          witness ??= `transfer ${x} (${s.src[x]} -> ${s.dst[x]}) carries elements of message ${c.origin[k]} -> ${c.dest[k]}`;
          break;
        }
      }
    }
  }
  return check(
    "direct",
    "direct delivery: transfers i -> j add up to M[i][j]",
    "000 sec 4, 004 sec 3.1.1 (one-stage algorithms)",
    bad === 0,
    bad,
    0,
    witness,
  );
}

/** Every step is a pairwise exchange: if u sends to v or receives from v, v is u's only partner in the step. */
export function checkPairwise(s: Schedule): Check {
  const partner = new Int32Array(s.p);
  const stamp = new Int32Array(s.p).fill(-1);
  let witness: string | null = null;
  const meet = (u: number, v: number, st: number): boolean => {
    if (stamp[u] !== st) {
      stamp[u] = st;
      partner[u] = v;
      return true;
    }
    return partner[u] === v;
  };
  let bad = 0;
  const { src, dst, stepStart } = s; // locals for the loop over every transfer
  for (let st = 0; st < s.stepCount && bad === 0; st++) {
    for (let x = stepStart[st]!; x < stepStart[st + 1]!; x++) {
      const a = src[x]!,
        b = dst[x]!;
      if (a === b) continue;
      if (!meet(a, b, st) || !meet(b, a, st)) {
        bad++;
        witness = `step ${st}: transfer ${a} -> ${b} but node ${partner[a] !== b ? a : b} already exchanges with node ${partner[a] !== b ? partner[a] : partner[b]}`;
        break;
      }
    }
  }
  return check(
    "pairwise-exchange",
    "every step is a pairwise exchange (each node talks to at most one partner, both ways)",
    "003 sec 3.2, fig. 3 (partner i XOR k; any matching for P not a power of two)",
    bad === 0,
    bad,
    0,
    witness,
  );
}

/** Every step is a shift: all its network transfers have the same (dst - src) mod P. */
export function checkShiftSteps(s: Schedule, ports = 1): Check {
  let witness: string | null = null;
  const seen: number[] = [];
  for (let st = 0; st < s.stepCount && witness === null; st++) {
    seen.length = 0;
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const a = s.src[x]!,
        b = s.dst[x]!;
      if (a === b) continue;
      const d = (b - a + s.p) % s.p;
      if (seen.includes(d)) continue;
      if (seen.length === ports) {
        witness = `step ${st}: transfer ${a} -> ${b} has shift ${d}, the step already has ${seen.join(", ")}`;
        break;
      }
      seen.push(d);
    }
  }
  const title =
    ports === 1
      ? "every step is a shift i -> (i + k) mod P"
      : `every step is a union of at most ${ports} shifts (one per port)`;
  return check("shift-steps", title, "004 sec 3.1.1 (A1)", witness === null, null, null, witness);
}
