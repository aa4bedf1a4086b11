/**
 * The public API: the root entry (src/index.ts) and the subpath entries (src/entries/*.ts, commplan/testing), pinned
 * by name and kind, documented, small at the root, and the only way in.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const pinFile = join(root, "test", "fixtures", "public-api.txt");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: { [k: string]: string | { types: string; import: string } };
};

/** The package's entries: the specifier a user imports and the source file behind it. */
const ENTRIES: readonly (readonly [string, string])[] = Object.entries(pkg.exports).flatMap(([key, target]) =>
  typeof target === "string"
    ? []
    : [
        [
          key === "." ? "commplan" : `commplan${key.slice(1)}`,
          target.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"),
        ] as const,
      ],
);

interface PublicExport {
  readonly entry: string;
  readonly name: string;
  readonly kind: "value" | "type";
  readonly doc: string;
}

/** Every export of every entry with its kind and the TSDoc of its declaration (TypeScript's checker). */
function publicExports(): PublicExport[] {
  const program = ts.createProgram(
    ENTRIES.map(([, file]) => join(root, file)),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  return ENTRIES.flatMap(([entry, file]) => {
    const sf = program.getSourceFile(join(root, file))!;
    return checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!).map((sym) => {
      const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
      const kind = target.flags & ts.SymbolFlags.Value ? "value" : "type";
      const doc = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
      return { entry, name: sym.getName(), kind, doc } as const;
    });
  });
}

describe("public API", () => {
  const exports = publicExports();

  it("the package has the root, the subpath entries and the testing kit", () => {
    expect(ENTRIES.map(([e]) => e)).toEqual([
      "commplan",
      "commplan/model",
      "commplan/io",
      "commplan/planner",
      "commplan/patterns",
      "commplan/sim",
      "commplan/export",
      "commplan/compare",
      "commplan/store",
      "commplan/testing",
    ]);
  });

  it("every entry names every export (no export *)", () => {
    for (const [, file] of ENTRIES) expect(readFileSync(join(root, file), "utf8")).not.toMatch(/^\s*export \*/m);
  });

  it("matches test/fixtures/public-api.txt (a change to the API is a visible diff: UPDATE_API=1 npx vitest run test/index.test.ts rewrites it)", () => {
    const text =
      exports
        .map((e) => `${e.entry} ${e.kind} ${e.name}`)
        .sort()
        .join("\n") + "\n";
    if (process.env["UPDATE_API"] === "1") writeFileSync(pinFile, text);
    expect(text).toBe(readFileSync(pinFile, "utf8"));
  });

  it("the root entry stays small: at most 60 names", () => {
    expect(exports.filter((e) => e.entry === "commplan").length).toBeLessThanOrEqual(60);
  });

  it("every public export has a TSDoc line", () => {
    // fc is fast-check itself, re-exported so the kit's users share its instance; fast-check documents it
    const undocumented = exports.filter((e) => e.doc === "" && !(e.entry === "commplan/testing" && e.name === "fc"));
    expect(undocumented.map((e) => `${e.entry} ${e.name}`)).toEqual([]);
  });

  it("tuning constants and auto's internals are not exported from any entry", () => {
    const internal = [
      "RS_NH_MAX_MESSAGES",
      "TE_MAX_ELEMENTS",
      "AUTO_VARIANTS",
      "screenVariants",
      "planVariant",
      "TIME_TICK_US",
      "DEFAULT_FILL_TUNING",
      "storeKeyId",
      "resolveStoreRequest",
    ];
    expect(exports.filter((e) => internal.includes(e.name)).map((e) => `${e.entry} ${e.name}`)).toEqual([]);
  });

  it("internals are not importable from the package (dist, as a user imports it)", () => {
    const script = `
      const api = await import("commplan");
      const sim = await import("commplan/sim");
      const leaked = ["EventHeap", "Growable", "growF64", "RoundEngine", "NOISE_Z", "PAPER_TE_TABLE", "fail", "JsonTokenizer"].filter((n) => n in api || n in sim);
      let deep = "importable";
      try { await import("commplan/dist/internal/growable.js"); } catch (e) { deep = e.code; }
      console.log(JSON.stringify({ leaked, deep, plan: typeof api.plan, simulate: typeof sim.simulateSchedule }));`;
    const out = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }),
    ) as { leaked: string[]; deep: string; plan: string; simulate: string };
    expect(out).toEqual({ leaked: [], deep: "ERR_PACKAGE_PATH_NOT_EXPORTED", plan: "function", simulate: "function" });
  });
});
