/** Test helper: temporary directories that are removed when the test that made them ends (or the file, outside a test). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/** The directories made while no test ran (a file's top level, a describe block, a beforeAll): removed with the file. */
const fileDirs: string[] = [];

const remove = (dir: string): void => rmSync(dir, { recursive: true, force: true });

/**
 * A fresh directory `<os.tmpdir()>/commplan-<prefix>-XXXXXX`, removed with what it holds when the running test
 * finishes (made in a test or a beforeEach); made while no test runs, when the file's tests are done.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `commplan-${prefix}-`));
  try {
    onTestFinished(() => remove(dir));
  } catch {
    // no test is running; an afterAll registered from a beforeAll would never run, so setup.ts's afterAll removes it
    fileDirs.push(dir);
  }
  return dir;
}

/** Removes the directories tempDir made outside a test (setup.ts runs this after each test file). */
export function removeFileTempDirs(): void {
  for (const dir of fileDirs.splice(0)) remove(dir);
}
