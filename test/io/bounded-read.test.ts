/**
 * Readers that hold a whole document (program, topology, sparse Matrix Market through readBounded) stop at their limit
 * on a FIFO or a device, whose stat says 0 bytes: they were read to their end (/dev/zero until memory ran out).
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { readBounded } from "../../src/io/bounded-read.js";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { readTopologyJson } from "../../src/io/topology-json-read.js";
import { errorOf } from "../helpers/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

const MiB = 1 << 20;

/** A FIFO at `path` that a child process fills with `bytes` zero bytes (ended when the test does). */
function fifoOfZeros(path: string, bytes: number): ChildProcess {
  execFileSync("mkfifo", [path]);
  const child = spawn("sh", ["-c", `head -c ${bytes} /dev/zero > "$0"`, path], { stdio: "ignore" });
  onTestFinished(() => {
    if (child.exitCode === null && child.pid !== undefined) child.kill();
  });
  return child;
}

describe("readBounded", () => {
  it("reads a FIFO up to its limit and calls past() with the bytes before the piece that passed it", () => {
    const d = tempDir("bounded-read");
    fifoOfZeros(join(d, "f"), 5 * MiB);
    let before = -1;
    expect(() =>
      readBounded(join(d, "f"), 3 * MiB, (n) => {
        before = n;
        throw new Error("past");
      }),
    ).toThrow("past");
    // pipes deliver in pieces of 64 KiB or so: the bytes before the piece that passed the limit are at most the limit
    expect(before).toBeGreaterThan(2 * MiB);
    expect(before).toBeLessThanOrEqual(3 * MiB);
  });

  it("reads a regular file and a FIFO under the limit whole", () => {
    const d = tempDir("bounded-read");
    const text = "x".repeat(3 * MiB + 5);
    writeFileSync(join(d, "r"), text);
    const never = (): never => {
      throw new Error("under the limit");
    };
    expect(readBounded(join(d, "r"), 4 * MiB, never).toString()).toBe(text);
    fifoOfZeros(join(d, "f"), 2 * MiB + 3);
    expect(readBounded(join(d, "f"), 4 * MiB, never).length).toBe(2 * MiB + 3);
  });
});

describe("whole-document readers on a FIFO or device", () => {
  it("a program from a FIFO is refused at the budget, not read to its end", () => {
    const d = tempDir("bounded-read");
    fifoOfZeros(join(d, "p.json"), 64 * MiB);
    const err = errorOf(() => readProgramJson(join(d, "p.json"), { maxMemory: 8 * MiB }));
    expect(err.message).toMatch(/^program: .*p\.json: reading more than \d+ bytes of program needs about .*8 MiB/);
  });

  it("a program from /dev/zero is refused at the reader's limit (it was read until memory ran out)", () => {
    const err = errorOf(() => readProgramJson("/dev/zero", { maxMemory: 16 * MiB }));
    expect(err.message).toMatch(/^program: \/dev\/zero: reading more than \d+ bytes of program/);
  });

  it("a topology from a FIFO is refused past its 64 MiB limit, in one line", () => {
    const d = tempDir("bounded-read");
    fifoOfZeros(join(d, "net.json"), 65 * MiB);
    const err = errorOf(() => readTopologyJson(join(d, "net.json")));
    expect(err.message).toMatch(/^topology: .*net\.json: more than the reader's limit of 67108864 bytes$/);
  });
});
