/** Every citation a user can see resolves from the package: no `../shared/...` paths, no issue numbers, no DESIGN.md in src strings, docs, README or schemas. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;

function walk(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const p = join(dir, name);
    if (statSync(join(root, p)).isDirectory()) out.push(...walk(p, ext));
    else if (name.endsWith(ext)) out.push(p);
  }
  return out;
}

/** The string literals and template pieces of a TypeScript file (comments are not user-visible). */
function stringLiterals(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isStringLiteral(n) ||
      ts.isNoSubstitutionTemplateLiteral(n) ||
      ts.isTemplateHead(n) ||
      ts.isTemplateMiddle(n) ||
      ts.isTemplateTail(n)
    )
      out.push(n.text);
    n.forEachChild(visit);
  };
  visit(sf);
  return out;
}

/** What a user cannot look up from the package: a path into ../shared, an issue number, the design notes outside it. */
const UNRESOLVABLE: readonly RegExp[] = [/\.\.\/shared/, /\bissue[\s-]*#?\d/i, /\bDESIGN\.md\b/];

function offending(where: string, texts: readonly string[]): string[] {
  return texts.flatMap((t) =>
    UNRESOLVABLE.filter((re) => re.test(t)).map((re) => `${where}: ${re} in ${JSON.stringify(t.slice(0, 120))}`),
  );
}

describe("user-visible citations resolve from the package", () => {
  it("the scan finds what it looks for", () => {
    expect(
      offending("x", ["see ../shared/papers/", "(issue 4)", "the issue-6 review", "DESIGN.md, the IR"]),
    ).toHaveLength(4);
    expect(offending("x", ["https://github.com/NVIDIA/nccl/issues/1264", "cannot be issued", "tryIssue"])).toHaveLength(
      0,
    );
  });

  it("no string literal in src cites ../shared, an issue number or DESIGN.md", () => {
    const files = walk("src", ".ts");
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((f) => offending(f, stringLiterals(f)))).toEqual([]);
  });

  it("neither README.md, docs/, bench/results/SUMMARY.md nor schemas/ do", () => {
    const files = ["README.md", "bench/results/SUMMARY.md", ...walk("docs", ".md"), ...walk("schemas", ".json")];
    expect(files.flatMap((f) => offending(f, readFileSync(join(root, f), "utf8").split("\n")))).toEqual([]);
  });

  it("docs/references.md cites each of the five papers and is linked from the README", () => {
    const refs = readFileSync(join(root, "docs/references.md"), "utf8");
    for (const n of ["000", "001", "002", "003", "004"])
      expect(refs).toMatch(new RegExp(`^\\| ${n} \\| [A-Z][^|]+\\*[^|]+\\.\\*`, "m"));
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain("(docs/references.md)");
    expect(relative(root, join(root, "docs/references.md"))).toBe("docs/references.md");
  });
});
