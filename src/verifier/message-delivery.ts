/**
 * Delivery of a message-level plan (no payloads): decided where no relay is possible or every transfer goes origin ->
 * destination, else unproven.
 */
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import { auditPairs, type PairAudit } from "./pair-audit.js";
import { check, type Check, type Unproven } from "./report.js";

const SOURCE = "docs/verifier.md, message-level delivery";
const TITLE =
  "every element ends at its destination, delivered once (message level: per ordered pair, transfers i -> j carry M[i][j])";

/** What checkMessageDelivery decides: a `delivery` row, or why it could not be decided. */
export type MessageDelivery =
  { readonly check: Check; readonly unproven: null } | { readonly check: null; readonly unproven: Unproven };

/**
 * Decides delivery of a plan without payloads where the message level allows it.
 * - Transfers i -> j add up to M[i][j] for every pair i != j: delivery holds (let every transfer
 *   carry its own message's elements; the flow check covers the rest).
 * - Otherwise, if no node sends in a step after one in which it receives, no element can be
 *   relayed (it would be forwarded in or before the step it arrives), so every element must go
 *   straight to its destination: delivery fails. A schedule with at most one step, or none, is such
 *   a case (so is a schedule with no transfers at all for a matrix with traffic).
 * - Otherwise, if the transfers carry fewer elements than the messages off the diagonal hold, some
 *   element never moves: delivery fails.
 * - Otherwise relays may deliver what the pairs do not show: unproven (plan with payloads).
 * O(P^2 + T) time (one pass over the matrix), O(P + T) memory: no P x P array. `audit`: the pairs, when
 * the caller has them already.
 */
export function checkMessageDelivery(m: CommMatrix, s: Schedule, audit?: PairAudit): MessageDelivery {
  const sums = audit ?? auditPairs(m, s);
  if (sums.mismatches === 0) return { check: check("delivery", TITLE, SOURCE, true, 0, 0, null), unproven: null };
  const relay = relayWitness(s);
  if (relay === null) {
    const w = `no node sends after a step in which it receives, so no element is relayed; ${sums.witness}`;
    return { check: check("delivery", TITLE, SOURCE, false, sums.mismatches, 0, w), unproven: null };
  }
  if (sums.carried < sums.needed) {
    const w = `the transfers carry ${sums.carried} elements in all, the messages off the diagonal hold ${sums.needed} (each must move at least once)`;
    return { check: check("delivery", TITLE, SOURCE, false, sums.mismatches, 0, w), unproven: null };
  }
  return {
    check: null,
    unproven: {
      id: "delivery",
      title: "every element ends at its destination, delivered once",
      reason: "at message level",
      detail: `elements may be relayed (${relay}) and ${sums.mismatches} pair(s) i -> j do not carry M[i][j] directly`,
      howToProve: "plan with the option payload to prove it",
    },
  };
}

/**
 * The first node that sends in a step after one in which it receives (a possible relay), or null when there is none.
 */
function relayWitness(s: Schedule): string | null {
  const firstRecv = new Int32Array(s.p).fill(-1);
  for (let st = 0; st < s.stepCount; st++) {
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const a = s.src[x]!,
        b = s.dst[x]!;
      if (a === b) continue;
      if (firstRecv[a] !== -1 && firstRecv[a]! < st)
        return `node ${a} receives in step ${firstRecv[a]} and sends in step ${st}`;
      if (firstRecv[b] === -1) firstRecv[b] = st;
    }
  }
  return null;
}
