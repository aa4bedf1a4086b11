import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/helpers/setup.ts"],
    // the run's temporary directory: anything a test (or a process it spawns) leaves there fails the run
    globalSetup: ["test/helpers/temp-root.ts"],
    // vitest 4 runs availableParallelism() - 1 workers: one on a 2-core machine; the suite is CPU-bound
    // and many tests wait on child processes, so two workers use both cores
    maxWorkers: 2,
    // each worker runs its files in one module graph instead of reloading it per file. Tests that
    // change shared state (the memory budget, fillTuning, process.chdir, spies on stderr) restore it
    // in finally blocks
    isolate: false,
    // a safety net against hangs, not a speed assertion: speed is measured in bench/
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
