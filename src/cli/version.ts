/** The version commplan reports: package.json's. */
import { readFileSync } from "node:fs";

/**
 * The version printed by --version: package.json's, read at load time (from src/cli under tsx and from dist/cli alike).
 */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
