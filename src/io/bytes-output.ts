/**
 * Bytes output: a new file flushed to disk (the plan store), and binary CLI output written like every output file
 * (writePieces).
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { fail } from "../model/errors.js";
import { writePieces, type OutputOptions } from "./file-output.js";

/**
 * Creates `path` (it must not exist) holding `bytes`, flushed to disk (fsync) before it returns; throws the file
 * system's error.
 */
export function writeNewFileSynced(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, "wx");
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes bytes to `target` as every output file is written (writePieces: a regular file replaced
 * atomically, a symbolic link followed and kept, a device or FIFO written in place, a read-only file
 * refused); "-" is refused: binary output goes to a file. Errors are CommplanErrors of `module`.
 */
export async function writeBytesAtomic(
  bytes: Uint8Array,
  target: string,
  module: string,
  out: OutputOptions = {},
): Promise<void> {
  if (target === "-")
    throw fail(module, "BAD_OPTION", "binary output (Arrow) is not written to stdout: give -o FILE", {
      field: "output",
    });
  await writePieces([bytes], target, module, out);
}
