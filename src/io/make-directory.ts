/**
 * makeDirectory: `mkdir -p` one component at a time. Node's `mkdir(dir, { recursive: true })` loops forever where
 * a directory refuses new entries with ENOENT although it exists (/proc, /sys: `mkdir /proc/x` hangs Node 20); here
 * each missing component gets one plain mkdir, so such a refusal is an error at once.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Makes `dir` and its missing parents; returns the first directory it made (undefined: it existed), as Node's does. */
export function makeDirectory(dir: string): string | undefined {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      if (statSync(d).isDirectory()) break;
      // a file in the way: mkdir reports it (EEXIST or ENOTDIR)
      missing.push(d);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" || dirname(d) === d) throw e;
      missing.push(d);
    }
  }
  let first: string | undefined;
  for (let k = missing.length - 1; k >= 0; k--) {
    try {
      mkdirSync(missing[k]!);
      first ??= missing[k];
    } catch (e) {
      // another process made it meanwhile
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(missing[k]!).isDirectory()) throw e;
    }
  }
  return first;
}
