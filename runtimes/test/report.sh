#!/usr/bin/env bash
# Renders `commplan compare --html` in headless Chromium (Debian package chromium): the screenshot must not be
# blank and the page must log nothing to the console (it has no script; any console line is a problem).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v chromium >/dev/null; then
  echo "report.sh: chromium is not installed (Debian: apt-get install chromium)" >&2
  exit 1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
node bin/commplan.js gen pattern1 --p 16 --seed 1 -o "$dir/m.json"
node bin/commplan.js compare "$dir/m.json" --machine t3d-004 --sweep 1/4..4 --html "$dir/report.html" >/dev/null
# --no-sandbox: CI runs as root, where Chromium refuses its sandbox
chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --window-size=1300,4000 \
  --screenshot="$dir/report.png" "file://$dir/report.html" 2>"$dir/chromium.log" >/dev/null
if grep -F ":CONSOLE" "$dir/chromium.log"; then
  echo "report.sh: the report logged to the console (above)" >&2
  exit 1
fi
node runtimes/test/png-check.js "$dir/report.png"
# the checker itself: a blank page must fail it
echo '<!DOCTYPE html><html><head><title>blank</title></head><body></body></html>' >"$dir/blank.html"
chromium --headless --no-sandbox --disable-gpu --window-size=400,300 --screenshot="$dir/blank.png" \
  "file://$dir/blank.html" >/dev/null 2>&1
if node runtimes/test/png-check.js "$dir/blank.png" 2>/dev/null; then
  echo "report.sh: png-check passed a blank page" >&2
  exit 1
fi
echo "report.sh: the HTML report renders in Chromium"
