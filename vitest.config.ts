import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/helpers/setup.ts"],
    // a safety net against hangs, not a speed assertion: speed is measured in bench/
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
