#!/usr/bin/env node
// commplan command line: plan, verify, cost and export communication schedules.
import { statSync } from "node:fs";

const argv = process.argv.slice(2);

/** Modification time of a file under dist/, or -1 when it is missing. */
const mtime = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -1;

// `store get` runs from dist/bundle/store-get.js, one file to load (scripts/build-bundle.mjs), while that bundle is
// at least as new as the rest of dist/ (a tsc-only build after `npm run build` leaves it older, and then unused)
let code = null;
if (argv[0] === "store" && argv[1] === "get" && mtime("../dist/bundle/store-get.js") >= mtime("../dist/cli/main.js"))
  code = await (await import("../dist/bundle/store-get.js")).storeGetMain(argv);
process.exitCode = code ?? (await (await import("../dist/cli/main.js")).main(argv));
