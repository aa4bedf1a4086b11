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
