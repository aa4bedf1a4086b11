/** Bytes output: writes a binary file atomically (temporary file in its directory, fsync, rename), with one-line errors. */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { fail } from "../model/errors.js";
import { fsError } from "./file-output.js";

/** Creates `path` (it must not exist) holding `bytes`, flushed to disk (fsync) before it returns; throws the file system's error. */
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

/** Writes bytes to `target` atomically (a regular file; "-" is refused: binary output goes to a file); errors are CommplanErrors of `module`. */
export function writeBytesAtomic(bytes: Uint8Array, target: string, module: string): void {
  if (target === "-")
    throw fail(module, "BAD_OPTION", "binary output (Arrow) is not written to stdout: give -o FILE", {
      field: "output",
    });
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    writeNewFileSynced(tmp, bytes);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw fsError(e, module, target, true);
  }
}
