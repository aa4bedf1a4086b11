/**
 * entrySize (the size store get, verify, gc and precompute check against the memory budget before reading an entry)
 * follows no link, as the store's readers follow none: a link as the entry, as its prefix directory or as the entries
 * directory is not the entry, and the size of what it points at outside the store is never reported.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { entrySize } from "../../src/cli/commands/store-get.js";

/** A store of one entry in a temp directory, and a 3 GiB sparse file outside it. */
async function storeAndBigFile(): Promise<{ d: string; s: string; id: string; file: string; big: string }> {
  const d = tempDir("entry-size-links");
  expect((await run("gen", "uniform", "--p", "4", "-o", join(d, "m.json"))).code).toBe(0);
  const add = await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "shift");
  expect(add.code, add.err).toBe(0);
  const id = add.out.trim();
  const big = join(d, "big");
  writeFileSync(big, "");
  truncateSync(big, 3 * 2 ** 30);
  return { d, s: join(d, "s"), id, file: join(d, "s", "entries", id.slice(0, 2), `${id}.arrow`), big };
}

describe("entrySize follows no link", () => {
  it("a sound entry: its own size", async () => {
    const { file } = await storeAndBigFile();
    expect(entrySize(file)).toBeGreaterThan(0);
  });

  it("an entry that is a link to a file outside the store: 0; store get refuses it as damaged, not by its size", async () => {
    const { s, id, file, big } = await storeAndBigFile();
    rmSync(file);
    symlinkSync(big, file);
    expect(entrySize(file)).toBe(0);
    const get = await run("store", "get", s, "--id", id, "--max-memory", "1G");
    expect(get.code).toBe(2);
    expect(get.err).toBe(
      `store get: ${file}: entry ${id} is damaged (a symbolic link, not a file): refused; 'commplan store gc' removes it and the next add rewrites it\n`,
    );
  });

  it("a prefix directory or entries directory that is a link: 0, whatever the file through it is", async () => {
    const { d, s, id, file, big } = await storeAndBigFile();
    const outside = join(d, "outside");
    mkdirSync(outside);
    renameSync(big, join(outside, `${id}.arrow`));
    const prefix = dirname(file);
    rmSync(prefix, { recursive: true });
    symlinkSync(outside, prefix);
    expect(entrySize(file)).toBe(0);
    const get = await run("store", "get", s, "--id", id, "--max-memory", "1G");
    expect(get.code).toBe(2);
    expect(get.err).toContain(`store get: ${prefix}: a symbolic link where the store keeps a directory of entries`);
    // the entries directory itself a link to a tree holding the prefix directory and the big file
    rmSync(prefix);
    const tree = join(d, "tree");
    mkdirSync(join(tree, id.slice(0, 2)), { recursive: true });
    renameSync(join(outside, `${id}.arrow`), join(tree, id.slice(0, 2), `${id}.arrow`));
    rmSync(join(s, "entries"), { recursive: true });
    symlinkSync(tree, join(s, "entries"));
    expect(entrySize(file)).toBe(0);
  });
});
