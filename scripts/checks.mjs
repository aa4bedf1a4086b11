// The test line's static checks (npm test, after the build): the type-check, ESLint and Prettier, run at once (each
// is one process on one core, so two of them share the 2-core test machine instead of waiting in turn).
// Each one's output is printed whole when it ends, in a fixed order; the exit code is non-zero when any failed.
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
/** A package's command as a script Node runs (so no shell or .cmd wrapper is needed on any system). */
function bin(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`);
  const b = JSON.parse(readFileSync(manifest, "utf8")).bin;
  return join(dirname(manifest), typeof b === "string" ? b : b[name]);
}
const CHECKS = [
  ["tsc --noEmit -p .", bin("typescript", "tsc"), ["--noEmit", "-p", "."]],
  ["eslint .", bin("eslint", "eslint"), ["."]],
  ["prettier --check .", bin("prettier", "prettier"), ["--check", ".", "--log-level", "warn"]],
];

/** Runs one check; resolves to its name, exit status and output (stdout and stderr as they came). */
function run([name, command, args]) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [command, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => out.push(b));
    child.on("error", (e) => done({ name, status: 1, text: `${e.message}\n` }));
    child.on("close", (code, signal) =>
      done({ name, status: code ?? 1, text: Buffer.concat(out).toString() + (signal ? `killed by ${signal}\n` : "") }),
    );
  });
}

let failed = 0;
for (const r of await Promise.all(CHECKS.map(run))) {
  process.stdout.write(r.text);
  if (r.status !== 0) {
    failed++;
    process.stderr.write(`checks: ${r.name} failed (exit ${r.status})\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
