/** Library texts name options, never the command line's flags: a scan of every string literal outside the CLI. */
import { SMPI_MODEL_CFG } from "../src/machines/runtime/runtime-model.js";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { SMPI_FLAGS } from "../src/export/simgrid-platform.js";

const src = join(import.meta.dirname, "..", "src");

/** Folders whose texts are the command line's own (relative to src). */
const CLI_FOLDERS = ["cli/", "entries/"];

/** A CLI flag at the start of a text or after a space, a parenthesis or a quote. */
const FLAG = /(^|[\s(`'"])--[a-z]/;

/** Texts that hold a flag and are not messages, each with its reason (file relative to src, the literal's text). */
const ALLOWED: readonly { readonly file: string; readonly text: string; readonly why: string }[] = [
  ...SMPI_FLAGS.map((text) => ({
    file: "export/simgrid-platform.ts",
    text,
    why: "SimGrid's smpirun flags (SMPI_FLAGS), written for smpirun's command line, not commplan's",
  })),
  ...[...SMPI_MODEL_CFG, "--cfg=smpi/send-is-detached-thresh:", "--cfg=smpi/"].map((text) => ({
    file: "machines/runtime/runtime-model.ts",
    text,
    why: "the smpirun flags that reproduce a runtime model (smpiConfigOf), for smpirun's command line, not commplan's",
  })),
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Every string literal and template literal piece of a TypeScript text that matches FLAG: its line and text. */
function flagTexts(text: string, file = "x.ts"): { line: number; text: string }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      if (FLAG.test(node.text))
        found.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every flag text of src outside the CLI, as file (relative to src), line and text. */
function libraryFlagTexts(): { file: string; line: number; text: string }[] {
  return tsFiles(src)
    .map((f) => relative(src, f).split("\\").join("/"))
    .filter((file) => !CLI_FOLDERS.some((d) => file.startsWith(d)))
    .flatMap((file) => flagTexts(readFileSync(join(src, file), "utf8"), file).map((t) => ({ file, ...t })));
}

describe("library texts name options, not flags", () => {
  it("no string literal outside src/cli and src/entries names a CLI flag (the allowed aside, each with its reason)", () => {
    const found = libraryFlagTexts()
      .filter((t) => !ALLOWED.some((a) => a.file === t.file && a.text === t.text))
      .map((t) => `src/${t.file}:${t.line}: ${JSON.stringify(t.text)}`);
    expect(found).toEqual([]);
  });

  it("the scan finds a flag in strings and template pieces, and none in comments or a decrement", () => {
    const text = [
      "// give --payload",
      "/** plan with --payload */",
      'const a = "plan with --payload";',
      "const b = `(no --trace / --svg)`;",
      "const c = `${a} --row must be ${b}`;",
      "const d = `at ${a}, then --stage ${b}`;",
      "let k = 2; const e = --k;",
      'const f = "a-b--c, x --, 2--3";',
    ].join("\n");
    expect(flagTexts(text).map((t) => t.line)).toEqual([3, 4, 5, 6]);
  });

  it("every allowed entry is still there (a stale entry would hide a new one)", () => {
    const all = libraryFlagTexts();
    for (const a of ALLOWED)
      expect(
        all.some((t) => t.file === a.file && t.text === a.text),
        a.text,
      ).toBe(true);
  });
});
