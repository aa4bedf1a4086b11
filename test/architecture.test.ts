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
    internal: [],
    model: [],
    host: ["model"],
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
    auto: ["model", "planner", "machines", "bounds", "lower"],
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
        // src/host (the machine's memory) serves every folder but the model
        if (to === "host" && from !== "model") continue;
        // src/internal (dependency-free helpers) serves every folder and imports none
        if (to === "internal" && from !== "internal") continue;
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

  it("src/model uses no Node module (the host's memory comes from src/host)", () => {
    const bad = [...graph.keys()].filter(
      (file) => folderOf(file) === "model" && /from\s*["']node:/.test(readFileSync(join(src, file), "utf8")),
    );
    expect(bad).toEqual([]);
  });
});

/**
 * Module-level state outside src/cli that the scan allows, by file and what it is: memos of pure
 * results (the same answer for the same input), and the process-wide list of cleanups that signal
 * handlers run (signals are process-wide). Anything else travels in options or a context object.
 */
const ALLOWED_STATE: Readonly<Record<string, string>> = {
  "io/json-schema.ts new validators": "the validators of the package's fixed schema files, each loaded on first use",
  "io/schedule-arrow.ts prototype __vector_len":
    "the flatbuffers vector-length check, installed for one synchronous decode call and restored in a finally",
  "io/interrupt-cleanup.ts new cleanups": "the cleanups the process's signal and exit handlers run",
  "io/file-output.ts new liveTemps": "the temporary files being written now, removed by the signal handlers",
  "model/matrix.ts new rowsCache": "memo: the compressed rows of a matrix, a pure function of its storage",
  "model/matrix.ts new colsCache": "memo: the compressed columns of a matrix, a pure function of its storage",
  "model/matrix-digest.ts new cache": "memo: the digest of a matrix's storage",
  "planner/total-exchange/te-offline.ts new offlinePlans":
    "memo: te-offline's plan of a matrix's storage and params, a pure function of them (its stream is seeded by the matrix)",
  "internal/ascii-writer.ts let tables":
    "memo: the digit tables of 0 .. 9999, the same for every run, made on first use",
  "model/param-spec.ts new resolvedBy": "the declaration that made each resolved object (a brand, set once per object)",
};

/** The module-level state of a file: top-level let / var and Map / Set / WeakMap instances, prototype assignments. */
function moduleState(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^(?:export\s+)?(let|var)\s+([A-Za-z_$][\w$]*)/gm))
    found.push(`${file} ${m[1]} ${m[2]}`);
  for (const m of text.matchAll(/^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)[^=\n]*=\s*new\s+(?:Weak)?(?:Map|Set)\b/gm))
    found.push(`${file} new ${m[1]}`);
  for (const m of text.matchAll(/\.prototype\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)) found.push(`${file} prototype ${m[1]}`);
  return found;
}

describe("no hidden state", () => {
  const files = tsFiles(src)
    .map((f) => relative(src, f))
    .filter((f) => folderOf(f) !== "cli");

  it("src outside the CLI keeps no module-level mutable state and patches no prototype (but the allowed, each with its reason)", () => {
    const found = files.flatMap((f) => moduleState(f, readFileSync(join(src, f), "utf8")));
    const CONSTANT_SETS = /^io\/schedule-json-read\.ts new (STEP_KEYS|TRANSFER_KEYS|KEY_NAME)$/;
    // fixed lookup tables (filled once where they are declared, never written after): not state
    const unlisted = found.filter((x) => !(x in ALLOWED_STATE) && !CONSTANT_SETS.test(x));
    expect(unlisted).toEqual([]);
  });

  it("the scan finds what it looks for", () => {
    const text = "let a = 1;\nexport var b;\nconst c = new WeakMap();\nFoo.prototype.bar = f;\nconst d = 1;\n";
    expect(moduleState("x.ts", text)).toEqual(["x.ts let a", "x.ts var b", "x.ts new c", "x.ts prototype bar"]);
  });

  it("every allowed entry is still there (a stale entry would hide a new one of the same name)", () => {
    const found = new Set(files.flatMap((f) => moduleState(f, readFileSync(join(src, f), "utf8"))));
    expect(Object.keys(ALLOWED_STATE).filter((k) => !found.has(k))).toEqual([]);
  });
});

describe("comments", () => {
  const files = tsFiles(src).map((f) => relative(src, f));

  it("no comment line is wider than the formatter's 120 columns (prettier wraps code, not comments)", () => {
    const wide = files.flatMap((f) =>
      readFileSync(join(src, f), "utf8")
        .split("\n")
        .flatMap((line, k) =>
          line.length > 120 && /^\s*(\/\/|\*|\/\*\*)/.test(line) ? [`${f}:${k + 1} (${line.length})`] : [],
        ),
    );
    expect(wide).toEqual([]);
  });

  it("no comment cites DESIGN.md (not in the repository) or an issue by number or title", () => {
    const cites = files.flatMap((f) =>
      readFileSync(join(src, f), "utf8")
        .split("\n")
        .flatMap((line, k) =>
          /^\s*(\/\/|\*|\/\*\*)/.test(line) && /DESIGN\.md|\bissues? (#?\d+|")|\(issue\b/i.test(line)
            ? [`${f}:${k + 1}`]
            : [],
        ),
    );
    expect(cites).toEqual([]);
  });
});

describe('docs/architecture.md, "Where to add"', () => {
  const doc = readFileSync(join(src, "..", "docs", "architecture.md"), "utf8");
  const section = doc.slice(
    doc.indexOf("## Where to add\n"),
    doc.indexOf("\n## ", doc.indexOf("## Where to add\n") + 1),
  );
  const rows = section
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| to add") && !l.startsWith("|---"))
    .map((l) => l.split("|").map((c) => c.trim()));
  const allSrc = tsFiles(src).map((f) => [relative(src, f), readFileSync(f, "utf8")] as const);

  it("lists the registries users extend", () => {
    expect(rows.map((r) => r[1])).toEqual([
      "a planner",
      "an export format",
      "a network generator",
      "a workload or pattern",
      "a machine preset",
      "a command",
    ]);
  });

  it.each(rows.map((r) => [r[1]!, r[2]!, r[3]!] as const))(
    "%s: the registry is declared where the row says, read, and its folder holds modules",
    (_what, write, register) => {
      const m = /^`([A-Z_]+)` in `src\/([^`]+)`$/.exec(register);
      expect(m, register).not.toBeNull();
      const [, name, file] = m!;
      const text = readFileSync(join(src, file!), "utf8");
      expect(text).toMatch(new RegExp(`^(export )?const ${name}\\b`, "m"));
      const uses = allSrc.reduce(
        (n, [f, t]) => n + [...t.matchAll(new RegExp(`\\b${name}\\b`, "g"))].length - (f === file ? 1 : 0),
        0,
      );
      expect(uses, `${name} is read somewhere`).toBeGreaterThan(0);
      const folder = /`src\/([^`]+)\/`/.exec(write)?.[1] ?? dirname(file!);
      expect(readdirSync(join(src, folder)).filter((f) => f.endsWith(".ts")).length).toBeGreaterThan(0);
    },
  );
});
