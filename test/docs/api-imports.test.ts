/** Every `import { ... } from "commplan..."` in the README and docs/ names an export of that entry (test/fixtures/public-api.txt). */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const pinned = new Set(
  readFileSync(join(root, "test", "fixtures", "public-api.txt"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [entry, , name] = line.split(" ");
      return `${entry} ${name}`;
    }),
);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

describe("the docs import only what the package exports", () => {
  const files = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];
  const imports = files.flatMap((file) =>
    [
      ...readFileSync(file, "utf8").matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"(commplan(?:\/[a-z]+)?)"/g),
    ].flatMap((m) =>
      m[1]!
        .split(",")
        .map((n) => n.trim().replace(/^type\s+/, ""))
        .filter(Boolean)
        .map((name) => ({ file: file.slice(root.length + 1), entry: m[2]!, name })),
    ),
  );

  // prose names imports too: "`sendDisplOf` / `recvDisplOf` (or `slotOf`) from `commplan/model`" (the scan above reads
  // import statements only, so a sentence sending readers to the wrong entry went unnoticed)
  const proseImports = files.flatMap((file) =>
    [
      ...readFileSync(file, "utf8")
        .replace(/\s+/g, " ")
        .matchAll(/((?:`[A-Za-z_$][\w$]*`(?: ?(?:\/|,|\(?or|and|\)) ?)*)+)from `(commplan(?:\/[a-z]+)?)`/g),
    ].flatMap((m) =>
      [...m[1]!.matchAll(/`([\w$]+)`/g)].map((n) => ({ file: file.slice(root.length + 1), entry: m[2]!, name: n[1]! })),
    ),
  );

  it("finds the names the prose says to import (the scan works)", () => {
    expect(proseImports.map((i) => `${i.entry} ${i.name}`)).toEqual(
      expect.arrayContaining(["commplan/model sendDisplOf", "commplan/model recvDisplOf", "commplan/model slotOf"]),
    );
  });

  it("every name the prose says to import from an entry is an export of that entry", () => {
    const missing = proseImports
      .filter((i) => !pinned.has(`${i.entry} ${i.name}`))
      .map((i) => `${i.file}: ${i.entry} ${i.name}`);
    expect(missing).toEqual([]);
  });

  it("finds the docs' imports (the scan works)", () => {
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.some((i) => i.entry === "commplan/patterns")).toBe(true);
  });

  it("every imported name is an export of its entry", () => {
    const missing = imports
      .filter((i) => !pinned.has(`${i.entry} ${i.name}`))
      .map((i) => `${i.file}: ${i.entry} ${i.name}`);
    expect(missing).toEqual([]);
  });
});
