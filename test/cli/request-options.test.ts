/** planRequestOptions: plan and store add / get declare what to plan with one builder, each with its own wording. */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { planRequestOptions } from "../../src/cli/commands/lists.js";
import { run } from "../helpers/cli.js";

const FLAGS = ["--machine <name>", "--payload", "--seed <s>", "--param <key=value>", "--element-bytes <n>"];

describe("planRequestOptions", () => {
  it("adds --machine, --payload, --seed (default 1), --param (repeatable) and --element-bytes, in order", () => {
    const c = planRequestOptions(new Command("x").exitOverride(), { machine: "M", payload: "P", seed: "S" });
    expect(c.options.map((o) => o.flags)).toEqual(FLAGS);
    expect(c.options.slice(0, 3).map((o) => o.description)).toEqual(["M", "P", "S"]);
    c.parse(["--param", "a=1", "--param", "b=2", "--payload"], { from: "user" });
    expect(c.opts()).toEqual({ seed: "1", param: ["a=1", "b=2"], payload: true });
  });

  it("plan, store add and store get list them in the same order, each with its own help", async () => {
    const helps = await Promise.all([
      run("plan", "--help"),
      run("store", "add", "--help"),
      run("store", "get", "--help"),
    ]);
    for (const h of helps) {
      const at = FLAGS.map((f) => h.out.indexOf(`  ${f}`));
      expect(at.every((k) => k >= 0) && at.every((k, i) => i === 0 || k > at[i - 1]!), h.out).toBe(true);
    }
    const words = helps.map((h) => h.out.replace(/\s+/g, " ")); // the help's lines wrapped to the width
    expect(words[0]).toContain("--payload element-level plan: every transfer lists the chunks it carries");
    expect(words[1]).toContain('--payload element-level plan --seed <s> random seed (default: "1")');
  });
});
