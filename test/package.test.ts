/**
 * The package as a dependency: what `npm pack` puts in the tarball, and the README's library examples compiled with
 * `tsc --strict` (no Node type definitions) and run in a CommonJS project (`npm init -y`) and an ES module project,
 * with the tarball unpacked as node_modules/commplan (its dependencies linked from this checkout, so no network).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers/temp-dir.js";

const root = join(import.meta.dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

/** The fenced blocks of one language in README.md. */
const readmeBlocks = (lang: string): string[] =>
  [
    ...readFileSync(join(root, "README.md"), "utf8").matchAll(
      new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"),
    ),
  ].map((m) => m[1]!);

/** The README's library example for one kind of project, and the tsconfig.json it gives. */
function readmeExample(kind: "commonjs" | "module"): { code: string; tsconfig: { compilerOptions: object } } {
  const code = readmeBlocks("ts").filter((b) =>
    kind === "module" ? b.includes('from "commplan"') : b.includes('await import("commplan")'),
  );
  expect(code, `the README's ${kind} example`).toHaveLength(1);
  const configs = readmeBlocks("json").filter((b) => b.includes('"compilerOptions"'));
  expect(configs, "the README's tsconfig.json").toHaveLength(1);
  return { code: code[0]!, tsconfig: JSON.parse(configs[0]!) as { compilerOptions: object } };
}

let work = "";
let tarball = "";

beforeAll(() => {
  if (!existsSync(join(root, "dist", "index.js")))
    throw new Error("dist/ is missing: run `npx tsc -p tsconfig.build.json` first");
  work = tempDir("package");
  const out = execFileSync(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
    cwd: root,
    encoding: "utf8",
  });
  tarball = join(work, (JSON.parse(out) as { filename: string }[])[0]!.filename);
});

describe("the npm package", () => {
  it("ships the build, the licence, the schemas, the reference executor's and libcommplan's sources; no tests or benches", () => {
    const out = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
    const files = new Set((JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      exports: Record<string, string | { types: string; import: string }>;
    };
    for (const target of Object.values(pkg.exports)) {
      if (typeof target === "string") continue;
      expect(files, target.import).toContain(target.import.replace(/^\.\//, ""));
      expect(files, target.types).toContain(target.types.replace(/^\.\//, ""));
    }
    expect(files).toContain("dist/index.js");
    expect([...files].filter((f) => /^dist\/entries\/[\w-]+\.js$/.test(f)).length).toBeGreaterThanOrEqual(8);
    for (const f of [
      "LICENSE",
      "README.md",
      "CHANGELOG.md",
      "package.json",
      "bin/commplan.js",
      "schemas/schedule.v1.schema.json",
    ])
      expect(files).toContain(f);
    for (const f of ["build.sh", "main.c", "program.c", "program.h", "exchange.c", "exchange.h", "pattern.c"])
      expect(files).toContain(`runtimes/executor/${f}`);
    // libcommplan, whose captures precompute --from-capture reads (its build.sh compiles ../executor/program.c too)
    for (const f of ["build.sh", "interpose.c", "plan.c", "key.c", "commplan.h", "internal.h"])
      expect(files).toContain(`runtimes/libcommplan/${f}`);
    const unwanted = /^(test|bench|src|runtimes\/test|runtimes\/executor\/build|runtimes\/libcommplan\/build)\//;
    expect([...files].filter((f) => unwanted.test(f))).toEqual([]);
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} commplan contributors\n/,
    );
  });

  for (const kind of ["commonjs", "module"] as const) {
    it(`the README's library example compiles (tsc --strict, no @types/node) and runs (${kind} project)`, () => {
      const dir = join(work, kind);
      mkdirSync(dir);
      execFileSync(npm, ["init", "-y"], { cwd: dir, stdio: "ignore" });
      if (kind === "module") execFileSync(npm, ["pkg", "set", "type=module"], { cwd: dir, stdio: "ignore" });
      const pkgDir = join(dir, "node_modules", "commplan");
      mkdirSync(pkgDir, { recursive: true });
      execFileSync("tar", ["-xzf", tarball, "-C", pkgDir, "--strip-components=1"]);
      symlinkSync(join(root, "node_modules"), join(pkgDir, "node_modules"), "dir");
      const { code, tsconfig } = readmeExample(kind);
      writeFileSync(join(dir, "index.ts"), code);
      // types: [] sees no @types package whatever TypeScript's default, as a project without @types/node
      const config = { compilerOptions: { ...tsconfig.compilerOptions, types: [] } };
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
      const built = spawnSync(process.execPath, [tsc, "-p", dir], { cwd: dir, encoding: "utf8" });
      expect(built.stdout + built.stderr).toBe("");
      expect(built.status).toBe(0);
      const js = readFileSync(join(dir, "index.js"), "utf8");
      if (kind === "commonjs") expect(js).toMatch(/"use strict"[\s\S]*await import\("commplan"\)/);
      const ran = spawnSync(process.execPath, ["index.js"], { cwd: dir, encoding: "utf8" });
      expect(ran.stderr).toBe("");
      expect(ran.status).toBe(0);
      expect(ran.stdout).toMatch(/^true \d+(\.\d+)?\n$/);
      if (kind === "commonjs") {
        // no CommonJS entry, as the README says
        const r = spawnSync(process.execPath, ["-e", 'require("commplan")'], { cwd: dir, encoding: "utf8" });
        expect(r.status).not.toBe(0);
        expect(r.stderr).toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");
      }
    });
  }
});

/** Every fenced block of `lang` in docs/*.md that imports the package (a signature sketch imports nothing): [doc, code]. */
function docsLibraryBlocks(lang: string): [string, string][] {
  const dir = join(root, "docs");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .flatMap((f) =>
      [...readFileSync(join(dir, f), "utf8").matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))]
        .map((m) => m[1]!)
        .filter((b) => /from "commplan(\/[\w-]+)?"/.test(b))
        .map((b): [string, string] => [`docs/${f}`, b]),
    );
}

/** The .d.ts files the package's entries reach through their relative imports. */
function publicDeclarations(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    exports: Record<string, string | { types: string }>;
  };
  const todo = Object.values(pkg.exports).flatMap((t) => (typeof t === "string" ? [] : [join(root, t.types)]));
  const seen = new Set<string>();
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(/from "(\.{1,2}\/[^"]+)\.js"/g))
      todo.push(join(dirname(file), `${m[1]!}.d.ts`));
  }
  return [...seen].sort();
}

describe("the package's types and the docs' library examples", () => {
  it("no public declaration says any (a bare Generator<T> returns any) or Buffer", () => {
    const files = publicDeclarations();
    expect(files.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const file of files) {
      // the code only: comments may say "any" in prose
      const code = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      // (a property called any, `readonly any: ...`, is not the type)
      for (const m of code.matchAll(/(?<![.\w])any\b(?!\??:)|\bBuffer\b|\bGenerator<[^,<>]+>/g))
        found.push(`${file.slice(root.length + 1)}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });

  it("every docs/*.md ```ts example importing the package compiles (tsc --strict) and runs, every ```js one runs", () => {
    const ts = docsLibraryBlocks("ts");
    const js = docsLibraryBlocks("js");
    expect(ts.map(([doc]) => doc)).toEqual(expect.arrayContaining(["docs/patterns.md", "docs/testing-kit.md"]));
    expect(js.length).toBeGreaterThanOrEqual(2);
    const dir = join(work, "docs-examples");
    mkdirSync(dir);
    execFileSync(npm, ["init", "-y"], { cwd: dir, stdio: "ignore" });
    execFileSync(npm, ["pkg", "set", "type=module"], { cwd: dir, stdio: "ignore" });
    const pkgDir = join(dir, "node_modules", "commplan");
    mkdirSync(pkgDir, { recursive: true });
    execFileSync("tar", ["-xzf", tarball, "-C", pkgDir, "--strip-components=1"]);
    symlinkSync(join(root, "node_modules"), join(pkgDir, "node_modules"), "dir");
    // the examples use node:assert: the project has @types/node, as a user running them would install it
    symlinkSync(join(root, "node_modules", "@types"), join(dir, "node_modules", "@types"), "dir");
    ts.forEach(([, code], k) => writeFileSync(join(dir, `example${k}.ts`), code));
    js.forEach(([, code], k) => writeFileSync(join(dir, `example${k}.mjs`), code));
    const config = { compilerOptions: { strict: true, module: "nodenext", target: "es2022", types: ["node"] } };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
    const built = spawnSync(process.execPath, [tsc, "-p", dir], { cwd: dir, encoding: "utf8" });
    expect(built.stdout + built.stderr).toBe("");
    expect(built.status).toBe(0);
    const runs = [...ts.map((b, k) => [b[0], `example${k}.js`]), ...js.map((b, k) => [b[0], `example${k}.mjs`])];
    for (const [doc, file] of runs) {
      const ran = spawnSync(process.execPath, [file!], { cwd: dir, encoding: "utf8" });
      expect({ doc, file, stderr: ran.stderr, status: ran.status }).toEqual({ doc, file, stderr: "", status: 0 });
    }
  });
});
