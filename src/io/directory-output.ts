/** Directory output: files written into a directory (created if missing), all or none, never over an input. */
import { existsSync, realpathSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fail } from "../model/errors.js";
import type { ProgressCallback } from "../model/progress.js";
import { fsError, makeDirectories, refuseIrregularEntries, writeOutputs } from "./file-output.js";

/** One file of a directory: its name inside the directory and its contents, in pieces. */
export interface DirectoryFile {
  readonly name: string;
  pieces(): Iterable<string | Uint8Array>;
}

/**
 * Writes files into `dir` (created if missing), all or none (writeOutputs: an error while any is made leaves none of
 * them, and the files they would replace unchanged); refuses a file that would replace one of `inputs`, and, before
 * anything is written, an entry at one of the files' names that is not a regular file (refuseIrregularEntries);
 * `progress`: files written; errors are CommplanErrors of `module`.
 */
export async function writeDirectoryFiles(
  files: readonly DirectoryFile[],
  dir: string,
  inputs: readonly string[],
  progress: ProgressCallback | null,
  module: string,
): Promise<void> {
  await refuseIrregularEntries(
    module,
    dir,
    files.map((f) => f.name),
  );
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
    created = makeDirectories(dir);
  } catch (e) {
    throw fsError(e, module, dir, true);
  }
  try {
    // all or none (writeOutputs): each file is filled as a temporary file, then all are renamed into place
    // noFollow: an entry made at a file's name since the check above is replaced or refused, never written through
    await writeOutputs(
      module,
      files.map((f, k) => ({
        target: join(dir, f.name),
        pieces: (function* () {
          progress?.(k, files.length);
          yield* f.pieces();
        })(),
      })),
      { noFollow: true },
    );
  } catch (e) {
    // a file refused half-way (a value its format cannot hold): the directory this call made goes too
    if (created !== undefined) await rm(created, { recursive: true, force: true });
    throw e;
  }
  progress?.(files.length, files.length);
}
