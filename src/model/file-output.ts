/** File output: streams text pieces to a file atomically (temporary file, then rename) or to stdout, with one-line errors. */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { Writable } from "node:stream";
import { fail, isCommplanError } from "./errors.js";
import type { CommplanError } from "./errors.js";

/** Bytes the file stream buffers before it asks the writer to wait. */
const HIGH_WATER = 4 << 20;

/** What a file-system error means to a user, without the raw errno (`writing` picks the wording of ENOENT). */
export function fsErrorText(e: unknown, writing: boolean): string {
  const code = (e as { code?: unknown }).code;
  switch (code) {
    case "ENOENT":
      return writing ? "cannot write: the directory does not exist" : "no such file";
    case "ENOTDIR":
      return writing ? "cannot write: a part of the path is not a directory" : "no such file (a part of the path is not a directory)";
    case "EISDIR":
      return "is a directory";
    case "EACCES":
    case "EPERM":
      return writing ? "cannot write: permission denied" : "permission denied";
    case "ENOSPC":
      return "cannot write: no space left on the device";
    case "EPIPE":
      return "the reader closed the pipe";
    default:
      return `cannot ${writing ? "write" : "read"}: ${(e as Error)?.message ?? String(e)}`;
  }
}

/** A CommplanError (code IO) for a file-system error; a CommplanError passes through. */
export function fsError(e: unknown, module: string, file: string, writing: boolean): CommplanError {
  if (isCommplanError(e)) return e;
  return fail(module, "IO", fsErrorText(e, writing), { file });
}

async function drainInto(pieces: Iterable<string>, out: Writable): Promise<void> {
  for (const piece of pieces) {
    if (!out.write(piece)) await once(out, "drain");
  }
}

/**
 * Writes the pieces to a path, or to stdout for "-", honouring backpressure. A path is written to
 * a temporary file in the same directory and renamed into place, so a failure (also an error
 * thrown by the pieces' generator) never leaves a half-written file. Errors are CommplanErrors of
 * `module` naming the target.
 */
export async function writePieces(pieces: Iterable<string>, target: string, module: string): Promise<void> {
  if (target === "-") {
    try {
      await drainInto(pieces, process.stdout);
    } catch (e) {
      throw fsError(e, module, "<stdout>", true);
    }
    return;
  }
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const ws = createWriteStream(tmp, { flags: "wx", highWaterMark: HIGH_WATER });
  try {
    await once(ws, "open");
    await drainInto(pieces, ws);
    ws.end();
    await once(ws, "finish");
    if (!ws.closed) await once(ws, "close");
    await rename(tmp, target);
  } catch (e) {
    ws.on("error", () => undefined); // a write still in flight reports the destroyed stream; the first error wins
    if (!ws.closed) {
      const closed = once(ws, "close").catch(() => undefined);
      ws.destroy();
      await closed;
    }
    await rm(tmp, { force: true }).catch(() => undefined);
    throw fsError(e, module, target, true);
  }
}
