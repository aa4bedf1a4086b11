#!/usr/bin/env bash
# The testing-kit example project (examples/testing-kit): installs it from the npm registry with
# commplan by path ("file:../..", so the kit comes from this checkout's dist/) and runs its suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build
cd examples/testing-kit
npm install --no-audit --no-fund
npm test
