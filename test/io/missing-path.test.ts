/**
 * A write that fails with ENOENT says what on the path is missing, naming it: a directory, a symbolic link to nothing
 * (the output itself or a directory on its path, links to links followed), the removed current directory.
 */
import { describe, expect, it, vi } from "vitest";
import { mkdirSync, readdirSync, rmdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { missingOnPath, writePieces } from "../../src/io/file-output.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

/** The error `writePieces` throws writing "x" to `target`, as its one-line message. */
async function writeError(target: string): Promise<string> {
  const e = await writePieces(["x"], target, "test").then(
    () => null,
    (err: unknown) => err as Error,
  );
  expect(e).not.toBeNull();
  return e!.message;
}

describe("ENOENT while writing: the true reason, with the path named", () => {
  it("a missing directory is named, the first one missing on the path", async () => {
    const d = tempDir("missing-path");
    expect(await writeError(join(d, "no", "deeper", "m.json"))).toBe(
      `test: ${join(d, "no", "deeper", "m.json")}: cannot write: the directory ${join(d, "no")} does not exist`,
    );
    expect(readdirSync(d)).toEqual([]);
  });

  it("an output that is a symbolic link to a file in a missing directory says so, links to links too", async () => {
    const d = tempDir("missing-path");
    const nowhere = join(d, "gone", "x.json");
    symlinkSync(nowhere, join(d, "out.json"));
    symlinkSync("out.json", join(d, "chain.json"));
    expect(await writeError(join(d, "out.json"))).toBe(
      `test: ${join(d, "out.json")}: cannot write: it is a symbolic link to '${nowhere}', and the directory ` +
        `${join(d, "gone")} does not exist`,
    );
    expect(await writeError(join(d, "chain.json"))).toBe(
      `test: ${join(d, "chain.json")}: cannot write: it is a symbolic link to 'out.json', and ${join(d, "out.json")} ` +
        `is a symbolic link to '${nowhere}', and the directory ${join(d, "gone")} does not exist`,
    );
    expect(readdirSync(d).sort()).toEqual(["chain.json", "out.json"]);
  });

  it("a directory on the path that is a symbolic link to nothing is named with its target", async () => {
    const d = tempDir("missing-path");
    mkdirSync(join(d, "removed"));
    symlinkSync(join(d, "removed"), join(d, "link"));
    rmdirSync(join(d, "removed")); // the link now leads nowhere
    const target = join(d, "link", "m.json");
    const r = await run("gen", "uniform", "--p", "4", "-o", target);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `gen: ${target}: cannot write: ${join(d, "link")} is a symbolic link to '${join(d, "removed")}', and ` +
        `${join(d, "removed")} does not exist\n`,
    );
    expect(readdirSync(d)).toEqual(["link"]);
  });

  it("a relative output in a removed current directory says the current directory is gone", () => {
    const cwd = vi.spyOn(process, "cwd").mockImplementation(() => {
      throw Object.assign(new Error("uv_cwd"), { code: "ENOENT" });
    });
    try {
      expect(missingOnPath("m.json")).toBe(
        "the current directory does not exist any more (it was removed): cd to a directory that exists",
      );
    } finally {
      cwd.mockRestore();
    }
  });
});
