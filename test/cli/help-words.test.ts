/**
 * --help describes every option in a user's words, by the spelling the user types (issue 36): gen's pattern options by
 * what each pattern says of them, not by the library's internal names.
 */
import { describe, expect, it } from "vitest";
import { PATTERNS } from "../../src/patterns/index.js";
import { patternFlag } from "../../src/cli/pattern-flags.js";
import { run } from "../helpers/cli.js";

describe("gen --help", () => {
  it("describes each pattern option as its patterns do, with the patterns' names, never as 'pattern option x'", async () => {
    const r = await run("gen", "--help");
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/pattern option/);
    const help = r.out.replace(/\s+/g, " ");
    for (const p of PATTERNS)
      for (const [name, o] of Object.entries(p.options as { [k: string]: { description: string } })) {
        if (name === "elementBytes") continue; // gen's own --element-bytes
        const text = o.description.replace(/\s+/g, " ");
        expect(help, `${p.name} --${patternFlag(name)}`).toMatch(
          new RegExp(
            `--${patternFlag(name)} <value> [^]{0,400}?\\b${p.name}\\b[^:]*: ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
          ),
        );
      }
  });
  it("names a camelCase option's other spelling as an alias", async () => {
    const help = (await run("gen", "--help")).out.replace(/\s+/g, " ");
    expect(help).toMatch(/--capacity-factor <value> moe: .*? \(alias --capacityFactor\)/);
    expect(help).toMatch(/--max-factor <value> wang-set2: .*? \(alias --maxFactor\)/);
  });
});
