/** Store file reads: readRegularInPieces reads what readRegular reads, hands each piece over in order, refuses alike. */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRegular, readRegularInPieces } from "../../src/store/store-fs.js";
import { tempDir } from "../helpers/temp-dir.js";

const MiB = 1 << 20;

/** Bytes that differ from piece to piece (a misplaced piece shows). */
function bytesOf(n: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  for (let k = 0; k < n; k++) b[k] = (k * 2654435761) >>> 24;
  return b;
}

describe("readRegularInPieces", () => {
  it("reads every size as readRegular does: the tail first, then the start in order, each piece in place when handed over", async () => {
    const d = tempDir("store-fs");
    const tail = 64 * 1024;
    for (const n of [0, 5, tail, tail + 1, MiB, MiB + tail + 3, 3 * MiB + 17]) {
      const file = join(d, `f${n}`);
      const want = bytesOf(n);
      writeFileSync(file, want);
      const seen: number[] = [];
      const got = await readRegularInPieces(file, tail, (bytes, upTo, tailFrom) => {
        expect(tailFrom).toBe(Math.max(0, n - tail));
        const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
        expect(b.subarray(0, upTo).equals(want.subarray(0, upTo)), `${n}: start up to ${upTo}`).toBe(true);
        expect(b.subarray(tailFrom).equals(want.subarray(tailFrom)), `${n}: tail`).toBe(true);
        seen.push(upTo);
      });
      expect(got!.problem).toBeNull();
      expect(Buffer.from(got!.bytes!).equals(want), `${n} bytes`).toBe(true);
      expect(Buffer.from(got!.bytes!).equals(Buffer.from(readRegular(file)!.bytes!))).toBe(true);
      // increasing, the last one the whole start; one call for a file that is all tail
      expect(seen.at(-1)).toBe(Math.max(0, n - tail));
      expect(seen.every((u, k) => k === 0 || u > seen[k - 1]!)).toBe(true);
      expect(seen.length).toBe(Math.max(1, Math.ceil(Math.max(0, n - tail) / MiB)));
    }
  });

  it("refuses a link, a FIFO and a directory as readRegular does; a missing file is null", async () => {
    const d = tempDir("store-fs");
    writeFileSync(join(d, "real"), "x");
    symlinkSync(join(d, "real"), join(d, "link"));
    execFileSync("mkfifo", [join(d, "fifo")]);
    mkdirSync(join(d, "dir"));
    const none = (): void => {
      throw new Error("no piece of a refused file is handed over");
    };
    for (const name of ["link", "fifo", "dir"]) {
      const got = await readRegularInPieces(join(d, name), 16, none);
      expect(got).toEqual(readRegular(join(d, name)));
      expect(got!.problem, name).toMatch(/not a file/);
    }
    expect(await readRegularInPieces(join(d, "missing"), 16, none)).toBeNull();
    expect((await readRegularInPieces(join(d, "real"), 16, () => undefined, 0))!.problem).toMatch(/larger than any/);
  });

  it("an error thrown by the consumer is the read's, once the read under way has finished", async () => {
    const d = tempDir("store-fs");
    writeFileSync(join(d, "big"), bytesOf(3 * MiB));
    await expect(
      readRegularInPieces(join(d, "big"), 16, () => {
        throw new Error("consumer failed");
      }),
    ).rejects.toThrow("consumer failed");
  });
});
