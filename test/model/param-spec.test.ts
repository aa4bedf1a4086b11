/** model/param-spec: the one parameter spec (kinds, defaults, derived, messages) and the one seed check, as the simulator's options use them. */
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../src/model/errors.js";
import {
  checkSeed,
  choice,
  integer,
  MAX_SEED,
  namedSpecs,
  number,
  output,
  resolveSpecs,
} from "../../src/model/param-spec.js";
import { resolveSimOptions } from "../../src/machines/sim/flat-request.js";
import { findMachine } from "../../src/machines/presets.js";

/** The message of the CommplanError f throws. */
function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(isCommplanError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error("no error");
}

const SPECS = {
  n: integer({ description: "n", min: 0, max: 3, default: 1 }),
  x: number({ description: "x", derived: "from the input" }),
  k: choice(["a", "b"], { description: "k", default: "a" }),
  out: output("reported"),
};
const ctx = {
  module: "m",
  label: (n: string) => `opt ${n}`,
  unknown: (n: string, known: string) => `no ${n}; known: ${known}`,
  field: (n: string) => `f.${n}`,
};

describe("resolveSpecs", () => {
  it("fills defaults in declaration order, leaves a derived input absent, drops output keys", () => {
    const r = resolveSpecs(SPECS, { k: "b", out: 7 }, ctx);
    expect(Object.keys(r)).toEqual(["n", "k"]);
    expect(r).toEqual({ n: 1, k: "b" });
    const typed: { n: number; x?: number; k: "a" | "b" } = r;
    expect(typed.x).toBeUndefined();
    expect(namedSpecs(SPECS).map((d) => d.name)).toEqual(["n", "x", "k", "out"]);
  });

  it("names the parameter and what it takes in one line", () => {
    expect(message(() => resolveSpecs(SPECS, { n: 4 }, ctx))).toBe("m: opt n must be an integer in 0..3, got 4");
    expect(message(() => resolveSpecs(SPECS, { x: Number.POSITIVE_INFINITY }, ctx))).toBe(
      "m: opt x must be a finite number, got Infinity",
    );
    expect(message(() => resolveSpecs(SPECS, { k: "c" }, ctx))).toBe('m: opt k must be "a" or "b", got "c"');
    expect(message(() => resolveSpecs(SPECS, { q: 1 }, ctx))).toBe("m: no q; known: n, x, k");
  });

  it("a mistyped word of a parameter that takes words gets a did you mean (rs-nh's cutoff=medain)", () => {
    const words = { c: integer({ description: "c", values: ["auto", "median"], min: 1, default: "auto" }) };
    expect(message(() => resolveSpecs(words, { c: "medain" }, ctx))).toBe(
      'm: opt c must be "auto", "median" or a positive integer, got "medain" (did you mean median?)',
    );
    expect(message(() => resolveSpecs(SPECS, { k: "bb" }, ctx))).toBe('m: opt k must be "a" or "b", got "bb"');
    expect(message(() => resolveSpecs(words, { c: 0 }, ctx))).toBe(
      'm: opt c must be "auto", "median" or a positive integer, got 0',
    );
  });
});

describe("checkSeed: the one seed check (patterns, planners, simulator)", () => {
  it("takes 0..2^32 - 1 and refuses the rest", () => {
    expect(checkSeed("m", 0)).toBe(0);
    expect(checkSeed("m", MAX_SEED)).toBe(MAX_SEED);
    for (const bad of [-1, 1.5, MAX_SEED + 1, Number.NaN])
      expect(message(() => checkSeed("m", bad))).toBe(`m: seed must be an integer in 0..4294967295, got ${bad}`);
  });
});

describe("resolveSimOptions through the spec", () => {
  const machine = findMachine("t3d-004");
  it("fills the defaults (ports from the machine, send waits from the mode)", () => {
    const o = resolveSimOptions({}, machine);
    expect([o.mode, o.ports, o.sendBuffers, o.sendWaits, o.seed]).toEqual(["blocking", machine.ports, 2, "steps", 1]);
    expect(resolveSimOptions({ mode: "nonblocking" }, machine).sendWaits).toBe("data");
  });
  it("refuses bad values with one line naming the option", () => {
    expect(message(() => resolveSimOptions({ ports: 0 }, machine))).toBe(
      "simulate: ports must be an integer in 1..1024, got 0",
    );
    expect(message(() => resolveSimOptions({ mode: "fast" as "blocking" }, machine))).toBe(
      'simulate: mode must be "blocking" or "nonblocking", got "fast"',
    );
    expect(message(() => resolveSimOptions({ mode: "nonblocking", sendBuffers: 2.5 }, machine))).toBe(
      "simulate: sendBuffers must be an integer in 1..1024, got 2.5",
    );
    expect(message(() => resolveSimOptions({ seed: -1 }, machine))).toBe(
      "simulate: seed must be an integer in 0..4294967295, got -1",
    );
  });
});
