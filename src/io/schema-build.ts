/** The build step that writes ajv's standalone validator of every v1 schema into a folder (dist/io/validators/). */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { standaloneValidatorModules } from "./schema-compile.js";

/**
 * Writes `<name>.cjs` for every schema into `dir` (created when missing), each through a temporary file renamed into
 * place, so a run loading a validator meanwhile reads a whole file; returns the names written.
 */
export function writeStandaloneValidators(dir: string): readonly string[] {
  mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  for (const [name, code] of standaloneValidatorModules()) {
    const file = join(dir, `${name}.cjs`);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${code}\n`);
    renameSync(temp, file);
    names.push(name);
  }
  return names;
}
