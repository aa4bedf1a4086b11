/**
 * A topology file's link latency is held to the generators' range, 0..1e12 us, and its bandwidth to at least 1e-12
 * bytes/us: a latency of 1e308 or a bandwidth of 1e-320 overflowed the replay's clock to Infinity and simulate answered
 * with a false deadlock ("are the schedule's steps out of order?").
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileRoutes, graphFromDescription } from "../../src/topology/index.js";
import type { TopologyDescription } from "../../src/model/topology.js";
import { errorOf } from "../helpers/errors.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

/** Four hosts on one switch, host a's link of the given latency (and bandwidth). */
const star = (latency: number, bandwidth = 100): TopologyDescription => ({
  name: "star",
  hosts: ["a", "b", "c", "d"],
  switches: ["s"],
  links: ["a", "b", "c", "d"].map((h) =>
    h === "a" ? { a: h, b: "s", bandwidth, latency } : { a: h, b: "s", bandwidth: 100, latency: 0.5 },
  ),
});

describe("topology link latency range", () => {
  it("accepts 0 and 1e12 us, refuses past 1e12 naming the link", () => {
    for (const ok of [0, 1e12]) expect(compileRoutes(graphFromDescription(star(ok))).maxHops).toBe(2);
    for (const bad of [1e12 * 1.5, 1e308])
      expect(errorOf(() => compileRoutes(graphFromDescription(star(bad)))).message).toBe(
        `topology: star: link a - s has latency ${bad}, not a number in 0..1e12 us`,
      );
  });

  it("refuses a bandwidth below 1e-12 bytes/us (1e-320 made every time Infinity); keeps 1e308 (no upper bound yet)", () => {
    expect(compileRoutes(graphFromDescription(star(0.5, 1e-12))).maxHops).toBe(2);
    expect(compileRoutes(graphFromDescription(star(0.5, 1e308))).maxHops).toBe(2);
    for (const bad of [9e-13, 1e-320])
      expect(errorOf(() => compileRoutes(graphFromDescription(star(0.5, bad)))).message).toBe(
        `topology: star: link a - s has bandwidth ${bad}, below 1e-12 bytes/us`,
      );
  });

  it("simulate refuses a file's latency of 1e308 in one line instead of reporting a deadlock", async () => {
    const d = tempDir("link-ranges");
    expect((await run("gen", "pattern1", "--ranks", "4", "--seed", "1", "-o", join(d, "m.json"))).code).toBe(0);
    expect((await run("plan", join(d, "m.json"), "-a", "shift", "-o", join(d, "s.json"))).code).toBe(0);
    writeFileSync(join(d, "net.json"), JSON.stringify({ format: "commplan.topology/v1", ...star(1e308) }));
    const r = await run("simulate", join(d, "s.json"), "--machine", "ib-hdr-200", "--network", join(d, "net.json"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^[a-z]+: .*link a - s has latency 1e\+308, not a number in 0\.\.1e12 us\n$/);
  });
});
