/**
 * Every pointer into the docs resolves: a `docs/X.md, "Section"` or `docs/X.md#anchor` in src (help text, messages,
 * comments), README, docs, schemas, runtimes, bench and scripts names a file that exists and a section it has (a
 * heading, or a bold or italic lead such as `**Numbering.**`), and every relative markdown link names a file and
 * anchor that exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;

function walk(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((n) => {
    const p = join(dir, n);
    if (n === "node_modules" || n.startsWith(".")) return [];
    return statSync(join(root, p)).isDirectory() ? walk(p) : [p];
  });
}

const FILES = ["README.md", ...["src", "docs", "schemas", "runtimes", "bench", "scripts"].flatMap(walk)].filter((f) =>
  /\.(ts|mjs|md|json|c|h|py)$/.test(f),
);

/** A section name compared loosely: no markup, quotes, line breaks of a wrapped comment, or closing punctuation. */
const norm = (t: string): string =>
  t
    .replace(/\n\s*(\/\/|\*(?!\*)|#)?/g, " ")
    .replace(/[`*"]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.:,]+$/, "")
    .toLowerCase();

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as '-', a repeat numbered. */
function anchors(text: string): string[] {
  const seen = new Map<string, number>();
  return [...text.matchAll(/^#+ (.*)$/gm)].map((m) => {
    const a = m[1]!
      .toLowerCase()
      .replace(/[^\w\- ]/g, "")
      .replace(/ /g, "-");
    const k = seen.get(a) ?? 0;
    seen.set(a, k + 1);
    return k === 0 ? a : `${a}-${k}`;
  });
}

/** The sections of a markdown text: its headings and its bold or italic leads. */
const sections = (text: string): string[] =>
  [
    ...[...text.matchAll(/^#+ (.*)$/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\*\*([^*]+)\*\*|(?<![*\w])\*([^*\n]+)\*(?![*\w])/g)].map((m) => m[1] ?? m[2]!),
  ].map(norm);

/** The references of `text` into docs/ that do not resolve, each as `file: reference`. */
function unresolved(file: string, text: string): string[] {
  const bad: string[] = [];
  for (const [doc] of text.matchAll(/(?<![\w/.-])docs\/[\w/.-]+\.md/g))
    if (!existsSync(join(root, doc))) bad.push(`${file}: ${doc}`);
  const ref = /(docs\/[\w/.-]+\.md)(?:,\s*(?:\n\s*(?:\/\/|\*)?\s*)?"([^"]+)"|#([\w-]+))/g;
  for (const [whole, doc, section, anchor] of text.matchAll(ref)) {
    const path = join(root, doc!);
    if (!existsSync(path)) continue; // told above
    const target = readFileSync(path, "utf8");
    const ok =
      section !== undefined
        ? sections(target).some((s) => s.includes(norm(section)))
        : anchors(target).includes(anchor!);
    if (!ok) bad.push(`${file}: ${whole.replace(/\s+/g, " ")}`);
  }
  if (file.endsWith(".md"))
    for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?|mailto):/.test(link!)) continue;
      const [p, a] = link!.split("#");
      const path = p === "" ? join(root, file) : resolve(join(root, dirname(file)), p!);
      if (!existsSync(path)) bad.push(`${file}: link ${link}`);
      else if (a !== undefined && path.endsWith(".md") && !anchors(readFileSync(path, "utf8")).includes(a))
        bad.push(`${file}: link ${link}`);
    }
  return bad;
}

describe("references into the docs", () => {
  it("the scan finds what it looks for", () => {
    expect(
      unresolved("x.ts", `(docs/arrow.md, "Start-up of store get") docs/runtimes.md#against-mpi_alltoallv`),
    ).toEqual([]);
    expect(unresolved("x.ts", `(docs/verifier.md, "Numbering") docs/simulator.md, "Program\n * replay"`)).toEqual([]);
    expect(unresolved("x.ts", `docs/arrow.md, "Reading a plan store" docs/nope.md docs/auto.md#nope`)).toHaveLength(3);
    expect(unresolved("docs/x.md", "[a](arrow.md#the-plan-store) [b](nope.md) [c](auto.md#nope)")).toHaveLength(2);
  });

  it('every docs/X.md, "Section" and docs/X.md#anchor, and every relative markdown link, resolves', () => {
    expect(FILES.length).toBeGreaterThan(300);
    const bad = FILES.flatMap((f) => unresolved(relative(root, join(root, f)), readFileSync(join(root, f), "utf8")));
    expect(bad).toEqual([]);
  });
});
