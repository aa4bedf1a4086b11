// Build step (npm run build, after tsc): dist/cli/store-get-main.js and what it imports as one ES module,
// dist/bundle/store-get.js, which bin/commplan.js runs for `store get` (loading one file instead of 44); or into the
// file named by the first argument (a test's own copy: its folder's ../io/ must be dist/io/, as for dist/bundle/).
// Packages stay imports; so does the Arrow reader, which store get loads only for an entry of another layout and
// which finds apache-arrow from its own folder. A path the bundle keeps resolves from dist/bundle/ as from the
// module that wrote it, since every such module sits one folder below dist/ too.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const dist = join(dirname(fileURLToPath(import.meta.url)), "../dist");
const outfile = process.argv[2] ?? join(dist, "bundle/store-get.js");
await build({
  entryPoints: [join(dist, "cli/store-get-main.js")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  external: ["../io/schedule-arrow.js"],
  logLevel: "warning",
});
