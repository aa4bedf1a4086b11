/** The layout's import rules (docs/architecture.md), over every import of src including `import type`. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const src = join(import.meta.dirname, "..", "src");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** file (relative to src) -> the src files it imports (relative), type-only imports included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(src)) {
    const text = readFileSync(file, "utf8");
    const deps = [...text.matchAll(/\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) =>
      relative(src, resolve(dirname(file), m[1]!)).replace(/\.js$/, ".ts"),
    );
    graph.set(relative(src, file), deps);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan), or a file importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    stack: string[] = [],
    onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const folderOf = (file: string): string => (file.includes("/") ? file.slice(0, file.indexOf("/")) : file);

describe("architecture", () => {
  const graph = importGraph();

  it("finds the imports it checks (the graph is not empty)", () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get("verifier/verify.ts")).toContain("model/schedule.ts");
  });

  it("has no import cycles, type-only imports included", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("detects a cycle when there is one", () => {
    const g = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["a.ts"]],
      ["c.ts", ["a.ts"]],
    ]);
    expect(cycles(g)).toEqual([["a.ts", "b.ts"]]);
  });

  const allowed: Record<string, readonly string[]> = {
    model: [],
    io: ["model"],
    patterns: ["model"],
    planner: ["model"],
    lower: ["model"],
    verifier: ["model"],
    machines: ["model"],
    export: ["model", "io", "lower"],
    topology: ["model"],
    bounds: ["model"],
    experiments: ["model", "patterns", "planner"],
    auto: ["model", "planner", "machines", "bounds"],
    compare: ["model", "patterns", "planner", "machines", "topology", "bounds", "lower", "export", "auto"],
    store: ["model", "io", "planner", "auto"],
    testing: ["model", "io", "patterns", "planner", "lower", "verifier", "machines", "bounds"],
  };

  it("folders import only what the layout allows (model nothing, the verifier only model)", () => {
    const bad: string[] = [];
    for (const [file, deps] of graph) {
      const from = folderOf(file);
      const ok = allowed[from];
      if (!ok) continue; // cli and index.ts may import everything
      for (const d of deps) {
        const to = folderOf(d);
        if (to !== from && !ok.includes(to)) bad.push(`${file} -> ${d}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("outside src/auto, auto is imported only through its API, src/auto/index.ts", () => {
    const bad: string[] = [];
    for (const [file, deps] of graph)
      if (folderOf(file) !== "auto")
        for (const d of deps) if (folderOf(d) === "auto" && d !== "auto/index.ts") bad.push(`${file} -> ${d}`);
    expect(bad).toEqual([]);
  });

  it("only src/io, src/store and src/cli touch the file system or ajv", () => {
    const bad = [...graph.keys()].filter((file) => {
      const folder = folderOf(file);
      if (folder === "io" || folder === "store" || folder === "cli") return false;
      return /from\s*["'](node:)?fs(\/promises)?["']|from\s*["']ajv/.test(readFileSync(join(src, file), "utf8"));
    });
    expect(bad).toEqual([]);
  });
});
