/**
 * Tables on a terminal: wider than stdout's columns, they are fitted to them (blocks of columns, each with the row's
 * name); piped (no width), every row stays one line, as scripts parse it.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

/** Runs `commplan ...argv` in process as if stdout were a terminal `columns` wide. */
async function onTerminal(columns: number, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "",
    err = "";
  const io: CliIo = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    interactive: false,
    stdoutIsTerminal: true,
    stdoutColumns: columns,
  };
  return { code: await main(argv, io), out, err };
}

/** The lines that start with one of `names` (a table's rows). */
const rowsOf = (text: string, names: readonly string[]): string[] =>
  text.split("\n").filter((l) => names.some((n) => l.startsWith(n + " ")));

const dir = tempDir("terminal-width");
const m = join(dir, "m.json");

describe("tables fitted to the terminal", () => {
  it("compare: every table line fits 80 columns, each block names its rows; piped output is unchanged", async () => {
    expect((await run("gen", "pattern1", "--ranks", "16", "--seed", "1", "-o", m)).code).toBe(0);
    const args = ["compare", m, "--machine", "t3d-004", "--algorithms", "shift,coloring,four-stage"];
    const piped = await run(...args);
    const wide = await onTerminal(500, ...args);
    const narrow = await onTerminal(80, ...args);
    expect(narrow.code).toBe(0);
    // piped, and on a terminal wide enough, the table is as before: one line per planner, all columns
    expect(wide.out).toBe(piped.out);
    const one = rowsOf(piped.out, ["shift"]);
    expect(one).toHaveLength(1);
    expect(one[0]!.length).toBeGreaterThan(80);
    // on 80 columns: each table line (the header's prose line apart) fits, and shift's row is cut into blocks
    const table = narrow.out.split("\n").filter((l) => /^(algorithm|shift|coloring|four-stage) /.test(l));
    for (const l of table) expect(l.length).toBeLessThanOrEqual(80);
    const blocks = rowsOf(narrow.out, ["shift"]);
    expect(blocks.length).toBeGreaterThan(1);
    expect(rowsOf(narrow.out, ["algorithm"])).toHaveLength(blocks.length);
    // every cell of the piped row is still there, in order
    const cells = (ls: string[]): string[] => ls.flatMap((l) => l.split(/\s{2,}/).slice(1));
    expect(cells(blocks)).toEqual(cells(one));
    expect(narrow.out).toMatch(/\* fastest on the simulated machine: /);
  });

  it("show: a grid of 64 senders is cut into blocks of senders that fit; piped it is one line per step", async () => {
    const m64 = join(dir, "m64.json"),
      s = join(dir, "s64.json");
    expect((await run("gen", "pattern1", "--ranks", "64", "--seed", "1", "-o", m64)).code).toBe(0);
    expect((await run("plan", m64, "--algorithm", "shift", "-o", s)).code).toBe(0);
    const piped = await run("show", s);
    expect(piped.out.split("\n").filter((l) => l.startsWith("step"))).toHaveLength(1);
    const narrow = await onTerminal(80, "show", s);
    expect(narrow.code).toBe(0);
    const lines = narrow.out.trim().split("\n").slice(1); // the title is prose
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    const headers = lines.filter((l) => l.startsWith("step"));
    expect(headers.length).toBeGreaterThan(1);
    // every sender heads one column, in order; step 1 of the shift sends u to u + 1
    expect(headers.flatMap((h) => h.trim().split(/\s+/).slice(1))).toEqual(
      Array.from({ length: 64 }, (_, u) => `${u}`),
    );
    const firstSteps = lines.filter((l) => /^\s*1 /.test(l));
    expect(firstSteps.flatMap((l) => l.trim().split(/\s+/).slice(1))).toEqual(
      Array.from({ length: 64 }, (_, u) => `${(u + 1) % 64}`),
    );
  });

  it("a one-column block too wide for the terminal wraps its cells under the column (machines' sources)", async () => {
    const narrow = await onTerminal(60, "machines");
    expect(narrow.code).toBe(0);
    // every line fits, but for a word longer than the width (a URL), kept whole on a line of its own
    for (const l of narrow.out.trim().split("\n")) if (l.length > 60) expect(l.trim()).toMatch(/^\S+$/);
    expect(narrow.out).toContain("https://github.com/NVIDIA/nccl/issues/1264");
    const piped = await run("machines");
    const words = (t: string): string[] => t.split(/\s+/).filter((w) => w !== "");
    // nothing lost: every word of the piped table is on the terminal too
    for (const w of words(piped.out)) expect(narrow.out).toContain(w);
    expect(words(narrow.out).length).toBeGreaterThan(words(piped.out).length); // names and headers repeated
  });

  it("a first column wider than half the terminal (store list's ids): each id on a line, its cells under it", async () => {
    const s = join(dir, "store");
    expect((await run("gen", "pattern1", "--ranks", "16", "--seed", "1", "-o", m)).code).toBe(0);
    const ids: string[] = [];
    for (const a of ["shift", "coloring"]) ids.push((await run("store", "add", s, m, "-a", a)).out.trim());
    const narrow = await onTerminal(80, "store", "list", s);
    expect(narrow.code).toBe(0);
    const lines = narrow.out.trimEnd().split("\n");
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    // the header's name, then per entry its id alone and its cells on the indented lines under it
    expect(lines[0]).toBe("id");
    const per = lines.findIndex((l, k) => k > 0 && !l.startsWith("  "));
    expect(per).toBeGreaterThan(1);
    for (const [k, id] of ids.sort().entries()) {
      expect(lines[per * (k + 1)]).toBe(id);
      expect(lines[per * (k + 1) + 1]).toMatch(/^ {2}(shift|coloring) +16 +1 +no /);
    }
    expect(lines).toHaveLength(per * 3);
    expect(lines.slice(1, per).join(" ").trim().split(/\s+/)).toEqual([
      "algorithm",
      "P",
      "seed",
      "payload",
      "machine",
      "bytes",
      "created",
      "origin",
      "params",
      "element",
      "bytes",
    ]);
  });

  it("verify: each block names a check by its verdict and id (the leading columns), the titles wrapped", async () => {
    const m16 = join(dir, "m16v.json"),
      s = join(dir, "s16v.json");
    expect((await run("gen", "pattern1", "--ranks", "16", "--seed", "1", "-o", m16)).code).toBe(0);
    expect((await run("plan", m16, "-a", "shift", "--payload", "-o", s)).code).toBe(0);
    const narrow = await onTerminal(80, "verify", s, "-m", m16);
    expect(narrow.code).toBe(0);
    const lines = narrow.out.trimEnd().split("\n");
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    // the delivery check's title in a later block, after its verdict and id
    const delivery = lines.filter((l) => /^ok {2}delivery /.test(l));
    expect(delivery).toHaveLength(2);
    expect(delivery[1]).toMatch(/^ok {2}delivery +every element ends at its destination/);
    const piped = await run("verify", s, "-m", m16);
    expect(piped.out.split("\n").filter((l) => /^ok {2}delivery /.test(l))).toHaveLength(1);
  });
});
