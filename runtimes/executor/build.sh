#!/usr/bin/env bash
# build.sh: builds commplan-exec with $CC (default mpicc; CC=smpicc for SimGrid's SMPI) into build/<compiler>/ and prints its path.
set -euo pipefail
cd "$(dirname "$0")"
cc=${CC:-mpicc}
out=build/$(basename "${cc%% *}")
mkdir -p "$out"
# shellcheck disable=SC2086 # CC and CFLAGS may hold several words
$cc ${CFLAGS:--O2 -g} -std=c11 -Wall -Wextra -Wpedantic -o "$out/commplan-exec" main.c program.c pattern.c exchange.c -ljansson
echo "$PWD/$out/commplan-exec"
