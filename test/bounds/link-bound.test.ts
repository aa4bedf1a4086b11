import { describe, expect, it } from "vitest";
import { busiestLinkBound } from "../../src/bounds/index.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import type { NetworkRoutes } from "../../src/model/network.js";

/**
 * Four hosts under two leaves (hosts 0, 1 on leaf 0; 2, 3 on leaf 1) and one spine. Links:
 * 2h host h up, 2h + 1 host h down (bandwidth `host`), 8 + 2f leaf f up, 9 + 2f leaf f down (`leaf`).
 */
function twoLeaves(host: number, leaf: number): NetworkRoutes {
  const labels = ["h0->l0", "l0->h0", "h1->l0", "l0->h1", "h2->l1", "l1->h2", "h3->l1", "l1->h3"];
  labels.push("l0->s", "s->l0", "l1->s", "s->l1");
  const bandwidth = Float64Array.from(labels, (_, k) => (k < 8 ? host : leaf));
  return {
    name: "two-leaves",
    hosts: 4,
    links: labels.length,
    bandwidth,
    latency: new Float64Array(labels.length),
    maxHops: 4,
    linkLabel: (id) => labels[id]!,
    route: (a, b, out) => {
      const la = a >> 1,
        lb = b >> 1;
      out[0] = 2 * a;
      if (la === lb) {
        out[1] = 2 * b + 1;
        return 2;
      }
      out[1] = 8 + 2 * la;
      out[2] = 9 + 2 * lb;
      out[3] = 2 * b + 1;
      return 4;
    },
  };
}

describe("busiestLinkBound", () => {
  const cross = matrixFromRows(
    [
      [0, 0, 100, 0],
      [0, 0, 0, 100],
      [100, 0, 0, 0],
      [0, 100, 0, 0],
    ],
    { elementBytes: 1 },
  );
  it("finds the oversubscribed leaf uplink: 200 bytes over 5 bytes/us", () => {
    const b = busiestLinkBound(cross, twoLeaves(10, 5), 3);
    expect(b.value).toBe(3 + 200 / 5);
    expect(b.linkLabel).toBe("l0->s");
    expect(b.bytes).toBe(200);
  });
  it("on a fat enough core the host links decide: max(R_i, C_i) / bandwidth", () => {
    const b = busiestLinkBound(cross, twoLeaves(10, 1000));
    expect(b.value).toBe(100 / 10);
    expect(b.linkLabel).toBe("h0->l0");
  });
  it("is 0 without traffic, and refuses a network with fewer hosts or a link without bandwidth", () => {
    const z = matrixFromRows([
      [1, 0],
      [0, 0],
    ]);
    expect(busiestLinkBound(z, twoLeaves(1, 1), 5).value).toBe(0);
    const big = matrixFromRows(Array.from({ length: 5 }, () => [0, 0, 0, 0, 0]));
    expect(() => busiestLinkBound(big, twoLeaves(1, 1))).toThrow(/^bounds: the network 'two-leaves' has 4 hosts/);
    expect(() => busiestLinkBound(cross, twoLeaves(0, 1))).toThrow(/bandwidth 0/);
  });
});
