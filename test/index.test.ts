/** The public API (src/index.ts): pinned by name and kind, documented, and the only way in. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const pinFile = join(root, "test", "fixtures", "public-api.txt");

interface PublicExport {
  readonly name: string;
  readonly kind: "value" | "type";
  readonly doc: string;
}

/** Every export of src/index.ts with its kind and the TSDoc of its declaration (TypeScript's checker). */
function publicExports(): PublicExport[] {
  const program = ts.createProgram([join(root, "src", "index.ts")], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(join(root, "src", "index.ts"))!;
  const moduleSymbol = checker.getSymbolAtLocation(sf)!;
  return checker.getExportsOfModule(moduleSymbol).map((sym) => {
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
    const kind = target.flags & ts.SymbolFlags.Value ? "value" : "type";
    const doc = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
    return { name: sym.getName(), kind, doc };
  });
}

describe("public API", () => {
  const exports = publicExports();

  it("src/index.ts names every export (no export *)", () => {
    expect(readFileSync(join(root, "src", "index.ts"), "utf8")).not.toMatch(/^\s*export \*/m);
  });

  it("matches test/fixtures/public-api.txt (a change to the API is a visible diff: UPDATE_API=1 npx vitest run test/index.test.ts rewrites it)", () => {
    const text =
      exports
        .map((e) => `${e.kind} ${e.name}`)
        .sort()
        .join("\n") + "\n";
    if (process.env["UPDATE_API"] === "1") writeFileSync(pinFile, text);
    expect(text).toBe(readFileSync(pinFile, "utf8"));
  });

  it("every public export has a TSDoc line", () => {
    expect(exports.filter((e) => e.doc === "").map((e) => e.name)).toEqual([]);
  });

  it("internals are not importable from the package (dist, as a user imports it)", () => {
    const script = `
      const api = await import("commplan");
      const leaked = ["EventHeap", "Growable", "growF64", "RoundEngine", "NOISE_Z", "PAPER_TE_TABLE", "fail", "JsonTokenizer"].filter((n) => n in api);
      let deep = "importable";
      try { await import("commplan/dist/internal/growable.js"); } catch (e) { deep = e.code; }
      console.log(JSON.stringify({ leaked, deep, plan: typeof api.plan }));`;
    const out = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }),
    ) as { leaked: string[]; deep: string; plan: string };
    expect(out).toEqual({ leaked: [], deep: "ERR_PACKAGE_PATH_NOT_EXPORTED", plan: "function" });
  });
});
