/** The total-exchange protocols by name, and the round-counting entry point. */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import type { JsonValue } from "../../model/schedule.js";
import { countTeRounds, type TeCount, type TeProtocol } from "./protocol.js";
import { teBalanced } from "./te-balanced.js";
import { teDirect } from "./te-direct.js";
import { teFast } from "./te-fast.js";
import { teOffline } from "./te-offline.js";
import { teSimple } from "./te-simple.js";
import { teValiant } from "./te-valiant.js";

/** The protocols, by name. */
export const TE_PROTOCOLS: readonly TeProtocol[] = [teDirect, teValiant, teSimple, teFast, teBalanced, teOffline];

/** Round-counting mode: the rounds protocol `algorithm` needs on m, without building a schedule. */
export function teRounds(
  algorithm: string,
  m: CommMatrix,
  seed: number,
  params: { readonly [k: string]: JsonValue } = {},
): TeCount {
  const proto = TE_PROTOCOLS.find((x) => x.name === algorithm);
  if (!proto)
    throw fail(
      "planner",
      "BAD_OPTION",
      `unknown total-exchange protocol '${algorithm}'; known: ${TE_PROTOCOLS.map((x) => x.name).join(", ")}`,
      { field: "algorithm" },
    );
  return countTeRounds(proto, m, seed, params);
}
