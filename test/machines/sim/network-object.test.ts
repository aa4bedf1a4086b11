/** A NetworkRoutes a library caller implements is checked: its shape when the run starts, each route it returns when a message begins; progress callbacks are functions. */
import { describe, expect, it } from "vitest";
import { planAuto } from "../../../src/auto/index.js";
import { runCandidates } from "../../../src/compare/candidates.js";
import { findMachine } from "../../../src/machines/presets.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import type { CommMatrix } from "../../../src/model/matrix.js";
import type { NetworkRoutes } from "../../../src/model/network.js";
import { busiestLinkBound, hostLinkBound } from "../../../src/bounds/index.js";
import { plan } from "../../../src/planner/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { errorOf } from "../../helpers/errors.js";
import { star } from "./hand-networks.js";

const m: CommMatrix = {
  p: 4,
  elementBytes: 8,
  data: Float64Array.from({ length: 16 }, (_, k) => (k % 5 === 0 ? 0 : 2)),
};
const s = plan(m, "shift", {});
const machine = findMachine("t3d-004");

/** The message of the CommplanError f throws. */
const refusal = (f: () => unknown): string => errorOf(f).message;

const run = (network: unknown) => refusal(() => simulateSchedule(s, machine, { network: network as NetworkRoutes }));

/** A sound star of 4 hosts, and two broken copies: a route naming link 99, a route of 3 links (maxHops 2). */
function brokenStars(): { net: NetworkRoutes; wrongLink: NetworkRoutes; tooLong: NetworkRoutes } {
  const net = star(4, 1);
  const wrongLink = {
    ...net,
    linkLabel: net.linkLabel,
    route: (_a: number, _b: number, out: Int32Array) => ((out[0] = 99), 1),
  };
  return { net, wrongLink, tooLong: { ...net, linkLabel: net.linkLabel, route: () => 3 } };
}

describe("a network object built by hand", () => {
  it("a sound one runs", () => {
    expect(() => simulateSchedule(s, machine, { network: star(4, 1) })).not.toThrow();
  });

  it("refuses a value that is not a NetworkRoutes, and one whose tables do not match its link count", () => {
    expect(run("fat-tree")).toBe("simulate: network is not a NetworkRoutes object");
    expect(run({ ...star(4, 1), route: undefined })).toBe("simulate: network has no route and linkLabel functions");
    const net = star(4, 1);
    expect(run({ ...net, linkLabel: net.linkLabel, route: net.route, links: 9 })).toBe(
      "simulate: network.bandwidth is not a Float64Array of its 9 links",
    );
    expect(run({ ...net, linkLabel: net.linkLabel, route: net.route, maxHops: 1.5 })).toBe(
      "simulate: network.maxHops = 1.5 is not a non-negative integer",
    );
  });

  it("refuses a route naming a link it does not have, or longer than maxHops (before: a TypeError or a silent wrong time)", () => {
    const { wrongLink, tooLong } = brokenStars();
    expect(run(wrongLink)).toMatch(/^simulate: network star:4: route \d -> \d names link 99, not in 0\.\.7$/);
    expect(run(tooLong)).toMatch(/^simulate: network star:4: route \d -> \d has 3 links, not 0\.\.2 \(maxHops\)$/);
  });

  it("the verifier's link check and the link bounds refuse the same broken networks in one line", () => {
    const { net, wrongLink, tooLong } = brokenStars();
    const entries: [string, (n: NetworkRoutes) => unknown][] = [
      ["verify", (n) => verifySchedule(m, s, { network: n })],
      ["bounds", (n) => busiestLinkBound(m, n)],
      ["bounds", (n) => hostLinkBound(m, n)],
    ];
    for (const [module, f] of entries) {
      expect(() => f(net), module).not.toThrow();
      expect(refusal(() => f("fat-tree" as unknown as NetworkRoutes))).toBe(
        `${module}: network is not a NetworkRoutes object`,
      );
      expect(refusal(() => f(wrongLink))).toMatch(
        new RegExp(`^${module}: network star:4: route \\d -> \\d names link 99, not in 0\\.\\.7$`),
      );
      // every entry sizes its route array max(2, maxHops) = 2 links here
      expect(refusal(() => f(tooLong))).toMatch(
        new RegExp(`^${module}: network star:4: route \\d -> \\d has 3 links, not 0\\.\\.2$`),
      );
    }
  });

  it("progress options must be functions", () => {
    const bad = "yes" as unknown as () => void;
    expect(refusal(() => simulateSchedule(s, machine, { progress: bad }))).toBe(
      "simulate: progress must be a function (done, total), got string",
    );
    expect(refusal(() => planAuto(m, machine, { progress: bad }))).toBe(
      "auto: progress must be a function (done, total), got string",
    );
    expect(refusal(() => runCandidates(m, { machine, progress: bad }))).toBe(
      "compare: progress must be a function (done, total), got string",
    );
  });
});
