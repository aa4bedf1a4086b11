/**
 * `--ports`: one rule for every command that takes it. A count, or `unlimited` (Infinity) where the command's library
 * function takes unlimited ports (the verifier: verify, check-planner); where it does not (the simulator: simulate,
 * compare), `unlimited` is refused with the reason in one line.
 */
import { CommplanError, fail, isCommplanError } from "../model/errors.js";
import { quoted } from "../internal/quoted.js";
import { didYouMean } from "../internal/did-you-mean.js";
import { intOption } from "./io.js";
import { MAX_SIM_PORTS } from "../machines/sim/request.js";

/** What a command's `--ports` accepts. */
export interface PortsRule {
  /** The command, for the error. */
  readonly command: string;
  /** The most ports it takes as a count. */
  readonly max: number;
  /** Why `unlimited` is refused; null when it is taken (Infinity). */
  readonly noUnlimited: string | null;
}

/** The verifier's rule (verify, check-planner): up to 2^20 ports, or unlimited. */
export const VERIFIER_PORTS = { max: 1 << 20, noUnlimited: null } as const;

/**
 * The simulator's rule (simulate, compare): up to 1,024 ports (its request's range), never unlimited: it replays each
 * node's ports one by one, and its JSON reports the count.
 */
export const SIMULATOR_PORTS = {
  max: MAX_SIM_PORTS,
  noUnlimited:
    "the simulator replays a finite number of ports per node, and its JSON reports the count: give one up to 1024 " +
    "(as many as the messages a node posts at once)",
} as const;

/** `--ports` parsed by `rule`: a count in 1..rule.max, or Infinity for `unlimited` where the rule takes it. */
export function portsOption(value: string, rule: PortsRule): number {
  if (value === "unlimited") {
    if (rule.noUnlimited === null) return Infinity;
    throw fail(rule.command, "BAD_OPTION", `--ports unlimited is not supported: ${rule.noUnlimited}`, {
      field: "ports",
    });
  }
  // a word that is no number (a typo of unlimited): named with the suggestion; a number out of range: intOption's words
  if (!/\d/.test(value))
    throw fail(
      rule.command,
      "BAD_OPTION",
      `--ports takes a count${rule.noUnlimited === null ? " or 'unlimited'" : ""}, got ${quoted(value)}${rule.noUnlimited === null ? didYouMean(value, ["unlimited"]) : ""}`,
      { field: "ports" },
    );
  try {
    return intOption("ports", value, 1, rule.max);
  } catch (e) {
    // a count out of range where unlimited is taken: the error names that choice too
    if (rule.noUnlimited !== null || !isCommplanError(e)) throw e;
    throw new CommplanError(e.code, e.message.replace(", got ", " or 'unlimited', got "), e.place, e.module);
  }
}
