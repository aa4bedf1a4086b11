/**
 * The Quick start's `npm ci` runs every dependency's install script that the lock file records, and npm 11.16 and
 * later warn about each one package.json's `allowScripts` does not name (npm 12 skips them): every such dependency is
 * reviewed and named there, and nothing else is.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(root, file), "utf8"));

/** The names of the locked packages that have an install script (preinstall, install or postinstall). */
function lockedWithInstallScripts(): string[] {
  const lock = readJson("package-lock.json") as { packages: Record<string, { hasInstallScript?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== "" && entry.hasInstallScript === true)
    .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length))
    .sort();
}

describe("package.json allowScripts", () => {
  it("names every locked dependency with an install script, and no other", () => {
    const pkg = readJson("package.json") as { allowScripts?: Record<string, boolean> };
    const allowed = Object.keys(pkg.allowScripts ?? {}).map((k) => k.replace(/(?<=.)@[^@]*$/, ""));
    const needed = [...new Set(lockedWithInstallScripts())];
    expect(needed.length).toBeGreaterThan(0);
    expect(allowed.sort()).toEqual(needed);
    for (const v of Object.values(pkg.allowScripts ?? {})) expect(v).toBe(true);
  });
});
