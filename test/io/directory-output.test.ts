/**
 * writeDirectoryFiles: a file refused half-way leaves nothing of this call behind (all files or none); an entry at one
 * of its names that is not a regular file is refused before anything is written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { writeDirectoryFiles, type DirectoryFile } from "../../src/io/directory-output.js";
import { writeOutputs } from "../../src/io/file-output.js";
import { fail } from "../../src/model/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

let root = "";
beforeEach(() => {
  root = tempDir("dirout");
});

const good = (name: string, text: string): DirectoryFile => ({ name, pieces: () => [text] });
/** A file whose writer refuses after its first piece, as an export refuses a value its format cannot hold. */
const refused: DirectoryFile = {
  name: "rank-1.txt",
  *pieces() {
    yield "0 init\n";
    throw fail("export", "BAD_INPUT", "export: a byte count past 2^53 cannot be written exactly");
  },
};

describe("writeDirectoryFiles", () => {
  it("writes every file into a new directory", async () => {
    const dir = join(root, "a", "b");
    await writeDirectoryFiles([good("x.txt", "1"), good("y.txt", "2")], dir, [], null, "export");
    expect(readdirSync(dir).sort()).toEqual(["x.txt", "y.txt"]);
  });

  it("removes the directories it created when a file is refused half-way", async () => {
    const dir = join(root, "new", "out");
    await expect(writeDirectoryFiles([good("index.txt", "i"), refused], dir, [], null, "export")).rejects.toThrow(
      /2\^53/,
    );
    expect(existsSync(join(root, "new"))).toBe(false);
    expect(readdirSync(root)).toEqual([]);
  });

  it("in a directory that existed, adds no file and replaces none when one is refused", async () => {
    const dir = join(root, "old");
    mkdirSync(dir);
    writeFileSync(join(dir, "keep.txt"), "mine");
    writeFileSync(join(dir, "index.txt"), "before");
    const files = [good("index.txt", "after"), good("hosts", "h0\n"), refused];
    await expect(writeDirectoryFiles(files, dir, [], null, "export")).rejects.toThrow(/2\^53/);
    expect(readdirSync(dir).sort()).toEqual(["index.txt", "keep.txt"]);
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("mine");
    // all or none: the file it would have replaced is unchanged, not replaced by the new whole file
    expect(readFileSync(join(dir, "index.txt"), "utf8")).toBe("before");
  });

  it("refuses a link or a FIFO at one of its names before writing anything; the file the link names is unchanged", async () => {
    const victim = join(root, "victim.txt");
    writeFileSync(victim, "precious");
    const dir = join(root, "out");
    mkdirSync(dir);
    symlinkSync(victim, join(dir, "hosts"));
    symlinkSync(victim, join(dir, "index.txt"));
    const files = [good("index.txt", "i"), good("hosts", "h0\n"), good("x.txt", "x")];
    await expect(writeDirectoryFiles(files, dir, [], null, "export")).rejects.toThrow(
      /^export: .*out\/hosts: is a symbolic link, not a regular file: .*choose another directory$/,
    );
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(readdirSync(dir).sort()).toEqual(["hosts", "index.txt"]);
    const fifo = join(root, "fifo");
    mkdirSync(fifo);
    execFileSync("mkfifo", [join(fifo, "x.txt")]);
    await expect(writeDirectoryFiles(files, fifo, [], null, "export")).rejects.toThrow(
      /x\.txt: is a FIFO, not a regular file: /,
    );
    expect(readdirSync(fifo)).toEqual(["x.txt"]);
  });

  it("writes each file under its own name (noFollow): a link there is refused, one made later is replaced, not followed", async () => {
    const victim = join(root, "victim.txt");
    writeFileSync(victim, "precious");
    const dir = join(root, "race");
    mkdirSync(dir);
    // the writer's own check, as writeDirectoryFiles runs it after refuseIrregularEntries
    symlinkSync(victim, join(dir, "a.txt"));
    await expect(
      writeOutputs("export", [{ target: join(dir, "a.txt"), pieces: ["a"] }], { noFollow: true }),
    ).rejects.toThrow(/a\.txt: is a symbolic link, not a regular file: /);
    expect(readFileSync(victim, "utf8")).toBe("precious");
    // a link made at b.txt's name while a.txt is being filled: b.txt replaces the link, the victim is unchanged
    const made = join(dir, "made");
    mkdirSync(made);
    const racing: DirectoryFile = {
      name: "a.txt",
      *pieces() {
        symlinkSync(victim, join(made, "b.txt"));
        yield "a";
      },
    };
    await writeDirectoryFiles([racing, good("b.txt", "b")], made, [], null, "export");
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(readFileSync(join(made, "b.txt"), "utf8")).toBe("b");
  });
});
