/**
 * Test setup, run before each test file: in CI fast-check runs with a fixed seed so a run is reproducible (locally it
 * explores new seeds); the temporary directories the file made outside its tests are removed when it ends.
 */
import fc from "fast-check";
import { afterAll } from "vitest";
import { removeFileTempDirs } from "./temp-dir.js";

if (process.env["CI"]) fc.configureGlobal({ seed: 20261122 });
afterAll(removeFileTempDirs);
