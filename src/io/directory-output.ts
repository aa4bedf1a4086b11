/** Directory output: files written into a directory (created if missing), each atomically, never over an input. */
import { existsSync, realpathSync } from "node:fs";
import { rm } from "node:fs/promises";
import { makeDirectory } from "./make-directory.js";
import { join, resolve } from "node:path";
import { fail } from "../model/errors.js";
import type { ProgressCallback } from "../model/progress.js";
import { fsError, writePieces } from "./file-output.js";

/** One file of a directory: its name inside the directory and its contents, in pieces. */
export interface DirectoryFile {
  readonly name: string;
  pieces(): Iterable<string | Uint8Array>;
}

/**
 * Writes files into `dir` (created if missing), each atomically; refuses a file that would replace one of `inputs`;
 * `progress`: files written; errors are CommplanErrors of `module`.
 */
export async function writeDirectoryFiles(
  files: readonly DirectoryFile[],
  dir: string,
  inputs: readonly string[],
  progress: ProgressCallback | null,
  module: string,
): Promise<void> {
  const real = (f: string): string => (existsSync(f) ? realpathSync(f) : resolve(f));
  const guarded = new Set(inputs.filter((f) => f !== "-").map(real));
  for (const f of files) {
    const target = join(dir, f.name);
    if (guarded.has(real(target)))
      throw fail(
        module,
        "BAD_OPTION",
        `refusing to overwrite an input with the ${module}'s ${f.name}: choose another directory (dir)`,
        { file: target },
      );
  }
  let created: string | undefined;
  try {
    created = makeDirectory(dir);
  } catch (e) {
    throw fsError(e, module, dir, true);
  }
  const added: string[] = [];
  try {
    for (const [k, f] of files.entries()) {
      progress?.(k, files.length);
      const target = join(dir, f.name);
      const isNew = created === undefined && !existsSync(target);
      await writePieces(f.pieces(), target, module);
      if (isNew) added.push(target);
    }
  } catch (e) {
    // a file refused half-way (a value its format cannot hold): take back what this call made, so that nothing
    // is left half-written; files it replaced stay replaced, each whole
    if (created !== undefined) await rm(created, { recursive: true, force: true });
    else for (const f of added) await rm(f, { force: true });
    throw e;
  }
  progress?.(files.length, files.length);
}
