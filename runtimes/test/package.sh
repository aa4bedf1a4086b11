#!/usr/bin/env bash
# The package as a user installs it: `npm pack`, then a CommonJS project (`npm init -y`) and an ES module project
# (`"type": "module"`) each `npm install` the tarball and TypeScript from the npm registry, compile the README's library
# example with the README's tsconfig.json under --strict, with no @types package in scope, and run it.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
npm run build
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$work/$(npm pack --ignore-scripts --pack-destination "$work" | tail -n 1)
for kind in commonjs module; do
  dir=$work/$kind
  mkdir "$dir"
  cd "$dir"
  npm init -y >/dev/null
  if [ "$kind" = module ]; then npm pkg set type=module; fi
  npm install --no-audit --no-fund "$tarball" typescript
  # index.ts and tsconfig.json from the README (types: [] keeps @types/node, which apache-arrow brings, out of scope)
  node - "$root/README.md" "$kind" <<'EOF'
const fs = require("node:fs");
const [readme, kind] = process.argv.slice(2);
const blocks = (lang) =>
  [...fs.readFileSync(readme, "utf8").matchAll(new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```$", "gm"))].map((m) => m[1]);
const code = blocks("ts").filter((b) => b.includes(kind === "module" ? 'from "commplan"' : 'await import("commplan")'));
const config = blocks("json").filter((b) => b.includes('"compilerOptions"'));
if (code.length !== 1 || config.length !== 1) throw new Error(`README: ${code.length} ${kind} examples, ${config.length} tsconfigs`);
const tsconfig = JSON.parse(config[0]);
tsconfig.compilerOptions.types = [];
fs.writeFileSync("index.ts", code[0]);
fs.writeFileSync("tsconfig.json", JSON.stringify(tsconfig));
EOF
  npx tsc -p .
  out=$(node index.js)
  echo "$kind: $out"
  [[ $out =~ ^true\ [0-9.]+$ ]]
done
echo "package: both projects compiled and ran the README example"
