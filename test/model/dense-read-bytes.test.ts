/**
 * The dense readers' estimate: the matrix and a working set that grows with it to DENSE_READ_WORK_CAP; a dense JSON or
 * CSV matrix is refused under a budget below it and read at it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readMatrixFile } from "../../src/io/matrix-read.js";
import { DENSE_READ_WORK_CAP, denseMatrixBytes, denseReadBytes } from "../../src/model/memory-budget.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("denseReadBytes", () => {
  it("is the matrix and half as much again for a small one, the matrix and the cap for a large one", () => {
    expect(denseReadBytes(2)).toBe(1.5 * denseMatrixBytes(2));
    expect(denseReadBytes(512)).toBe(3 * 2 ** 20);
    expect(denseReadBytes(1024)).toBe(12 * 2 ** 20);
    expect(denseReadBytes(4096)).toBe(denseMatrixBytes(4096) + DENSE_READ_WORK_CAP);
    for (let p = 1; p < 5000; p += 37) {
      expect(denseReadBytes(p + 1)).toBeGreaterThan(denseReadBytes(p));
      expect(denseReadBytes(p) - denseMatrixBytes(p)).toBeLessThanOrEqual(DENSE_READ_WORK_CAP);
    }
  });

  it("a dense JSON or CSV matrix is refused under its estimate and read at it", () => {
    const dir = tempDir("dense-read");
    const p = 600;
    const row = Array.from({ length: p }, (_, j) => j % 3).join(",");
    writeFileSync(join(dir, "m.csv"), Array.from({ length: p }, () => row).join("\n") + "\n");
    writeFileSync(
      join(dir, "m.json"),
      `{"format":"commplan.matrix/v1","p":${p},"rows":[${Array.from({ length: p }, () => `[${row}]`).join(",")}]}`,
    );
    for (const name of ["m.csv", "m.json"]) {
      const file = join(dir, name);
      expect(() => readMatrixFile(file, { maxMemory: denseReadBytes(p) - 1 })).toThrow(
        new RegExp(`a dense ${p} x ${p} matrix needs about 4\\.12 MiB, past the memory budget`),
      );
      expect(readMatrixFile(file, { maxMemory: denseReadBytes(p) }).p).toBe(p);
    }
  });
});
