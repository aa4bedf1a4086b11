#!/usr/bin/env bash
# build.sh: builds libcommplan.so (the library, commplan.h) and libcommplan-mpi.so (the library and the PMPI
# interposer) with $CC (default mpicc) into build/<compiler>/, plus libcommplan-mpi.a (the same objects, to link into a
# program: SimGrid's smpicc programs take it this way). Prints the build directory.
set -euo pipefail
cd "$(dirname "$0")"
cc=${CC:-mpicc}
out=build/$(basename "${cc%% *}")
mkdir -p "$out"
flags=(${CFLAGS:--O2 -g} -std=c11 -Wall -Wextra -Wpedantic -fPIC)
# SMPI's MPI_Iallreduce sends every rank's data to every rank (P^2 messages): the key is reduced with MPI_Allreduce
[ "$(basename "${cc%% *}")" = smpicc ] && flags+=(-DCOMMPLAN_NONBLOCKING_KEY=0)
objs=()
for src in plan.c key.c ../executor/program.c interpose.c; do
  obj="$out/$(basename "${src%.c}").o"
  # shellcheck disable=SC2086 # CC may hold several words
  $cc "${flags[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
# shellcheck disable=SC2086
$cc -shared -o "$out/libcommplan.so" "${objs[@]:0:3}" -ljansson
# shellcheck disable=SC2086
$cc -shared -o "$out/libcommplan-mpi.so" "${objs[@]}" -ljansson -ldl
rm -f "$out/libcommplan-mpi.a"
ar rcs "$out/libcommplan-mpi.a" "${objs[@]}"
echo "$PWD/$out"
