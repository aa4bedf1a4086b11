#!/usr/bin/env bash
# runtimes/test/executor-shared.sh: the executor's --shared-buffers (SMPI_SHARED_MALLOC) under SimGrid's smpirun.
#
# P = 16 on a 16-host cluster: each program (and MPI_Alltoallv beside it, under one SMPI algorithm) run without and
# with --shared-buffers must print the same simulated times (every min, median and max), the unshared run with every
# byte ok and the shared one saying that the data is not checked; on uniform 1 MiB messages (a relaying two-stage
# program: send, receive, scratch and staging buffers) the shared run's peak memory (the simulator's Pss, sampled:
# SimGrid maps one file over every shared block, so the resident set counts the same pages once per mapping and
# /usr/bin/time's maximum RSS does not drop) must be MIN_FACTOR times smaller. The executor built with mpicc must
# refuse the flag in one line. Exit 1 on a failure, 2 when a tool is missing. About 30 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# measured: Pss 1,183,026 KiB unshared, 19,969 KiB shared (59 x) on the uniform case below
min_factor=20
for tool in node mpicc mpirun smpicc smpirun timeout; do
  command -v "$tool" >/dev/null || { echo "executor-shared.sh: '$tool' not found (Debian: libsimgrid-dev openmpi-bin)" >&2; exit 2; }
done
cli() { node "$root/bin/commplan.js" "$@"; }
[ -f "$root/dist/cli/main.js" ] || (cd "$root" && npx tsc -p tsconfig.build.json)
exe=$(CC=mpicc "$root/runtimes/executor/build.sh")
smpi_exe=$(CC=smpicc "$root/runtimes/executor/build.sh")
work=$(mktemp -d "${TMPDIR:-/tmp}/commplan-shared.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$1"; }

# The mpicc build: refused before anything is read, in one line, exit 2.
mkdir -p "$work/ompi"
mpirun_flags=(--oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader --mca orte_tmpdir_base "$work/ompi")
[ "$(id -u)" = 0 ] && mpirun_flags+=(--allow-run-as-root)
set +e
timeout -k 10 120 mpirun "${mpirun_flags[@]}" -np 2 "$exe" "$work/none" --shared-buffers >"$work/ompi.out" 2>&1
rc=$?
set -e
lines=$(grep -c '^executor:' "$work/ompi.out" || true)
if [ "$rc" -eq 0 ] || [ "$lines" -ne 1 ] || ! grep -q '^executor: --shared-buffers needs the executor built with smpicc' \
  "$work/ompi.out" || grep -q 'usage:' "$work/ompi.out"; then
  fail "mpicc build: --shared-buffers not refused in one line (exit $rc)"
  sed 's/^/      /' "$work/ompi.out" | tail -n 5
else
  printf 'ok    mpicc build refuses --shared-buffers: %s\n' "$(grep '^executor:' "$work/ompi.out")"
fi

{
  echo "<?xml version='1.0'?>"
  echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
  echo '<platform version="4.1">'
  echo '  <cluster id="c" prefix="h" suffix="" radical="0-15" speed="1Gf" bw="12.5GBps" lat="0.5us" sharing_policy="SPLITDUPLEX" bb_bw="1TBps" bb_lat="0s" bb_sharing_policy="FATPIPE"/>'
  echo '</platform>'
} >"$work/platform.xml"
seq 0 15 | sed 's/^/h/' >"$work/hosts"

# Runs the smpicc executor under smpirun (sampling its peak Pss into $work/pss); output in $work/out.
smpi() { # alltoallv algorithm, program dir, executor flags...
  local alg=$1 dir=$2
  shift 2
  timeout -k 10 300 smpirun -np 16 -platform "$work/platform.xml" -hostfile "$work/hosts" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/test:0 "--cfg=smpi/alltoallv:$alg" --log=root.thres:warning \
    "$smpi_exe" "$dir" --iterations 2 --sync-start --baseline "$@" >"$work/out" 2>&1 &
  local pid=$! peak=0 p v rc=0
  while kill -0 "$pid" 2>/dev/null; do
    for p in $(descendants "$pid"); do
      v=$(awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup" 2>/dev/null || true)
      [ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v
    done
    sleep 0.02
  done
  wait "$pid" || rc=$?
  echo "$peak" >"$work/pss"
  return "$rc"
}
descendants() { local c; for c in $(pgrep -P "$1" || true); do echo "$c"; descendants "$c"; done; }

# The time lines' label and numbers (min, median, max), one line per measured exchange kind.
times() { sed -n 's/^\([a-z]*\) .* min \([^ ]*\) s, median \([^ ]*\) s, max \([^ ]*\) s;.*/\1 \2 \3 \4/p' "$1"; }

# Checks one program without and with --shared-buffers; sets $pss_plain and $pss_shared (KiB).
check() { # label, alltoallv algorithm, matrix, algorithm, variant
  local label=$1 alg=$2 m=$3 planner=$4 variant=$5 dir="$work/$4-$5" rc
  if ! cli plan "$m" -a "$planner" --payload -o "$dir.json" >/dev/null 2>"$work/reason" ||
    ! cli export "$dir.json" --matrix "$m" --format program --split "$dir" --variant "$variant" >/dev/null \
      2>"$work/reason"; then
    fail "$label: planning or export failed: $(head -n 1 "$work/reason")"
    return 0
  fi
  rc=0
  smpi "$alg" "$dir" || rc=$?
  pss_plain=$(cat "$work/pss")
  cp "$work/out" "$work/plain.out"
  if [ "$rc" -ne 0 ] || [ "$(grep -c 'every byte ok' "$work/plain.out")" -ne 2 ]; then
    fail "$label: unshared run (exit $rc)"
    tail -n 5 "$work/plain.out" | sed 's/^/      /'
    return 0
  fi
  rc=0
  smpi "$alg" "$dir" --shared-buffers || rc=$?
  pss_shared=$(cat "$work/pss")
  cp "$work/out" "$work/shared.out"
  if [ "$rc" -ne 0 ] || [ "$(grep -c 'data NOT checked (--shared-buffers' "$work/shared.out")" -ne 2 ] ||
    [ "$(grep -c '^executor: --shared-buffers: ' "$work/shared.out")" -ne 1 ] ||
    grep -q 'every byte ok' "$work/shared.out"; then
    fail "$label: shared run (exit $rc)"
    tail -n 5 "$work/shared.out" | sed 's/^/      /'
    return 0
  fi
  local a b
  a=$(times "$work/plain.out")
  b=$(times "$work/shared.out")
  if [ "$(wc -l <<<"$a")" -ne 2 ] || [ "$a" != "$b" ]; then
    fail "$label: the simulated times differ: unshared [$(paste -sd ';' <<<"$a")], shared [$(paste -sd ';' <<<"$b")]"
    return 0
  fi
  printf 'ok    %s: the same simulated times (%s); peak Pss %s KiB unshared, %s KiB shared\n' "$label" \
    "$(paste -sd ';' <<<"$a" | sed 's/;/; /')" "$pss_plain" "$pss_shared"
}

# Uniform 1 MiB messages (16 elements of 64 KiB): every message above SMPI's eager limit.
cli gen uniform --p 16 --size 16 --element-bytes 65536 -o "$work/uniform.json" 2>/dev/null
pss_plain=0 pss_shared=0
check "P=16 uniform 1 MiB two-stage nonblocking + MPI_Alltoallv default" default "$work/uniform.json" two-stage nonblocking
if [ "$pss_shared" -le 0 ] || [ $((pss_shared * min_factor)) -gt "$pss_plain" ]; then
  fail "peak Pss: $pss_plain KiB unshared, $pss_shared KiB shared: not $min_factor times smaller"
else
  printf 'ok    peak Pss %s KiB unshared, %s KiB shared: %s x smaller (at least %s)\n' "$pss_plain" "$pss_shared" \
    "$((pss_plain / pss_shared))" "$min_factor"
fi
check "P=16 uniform 1 MiB two-stage dataflow + MPI_Alltoallv bruck" bruck "$work/uniform.json" two-stage dataflow
# Small messages (22-byte elements, one 1024-element spike per row): eager sends, copied by SMPI.
cli gen pattern1 --p 16 --seed 16 -o "$work/pattern1.json" 2>/dev/null
check "P=16 pattern1 shift blocking + MPI_Alltoallv pair" pair "$work/pattern1.json" shift blocking

if [ "$failed" -ne 0 ]; then
  echo "executor-shared.sh: $failed failed"
  exit 1
fi
echo "executor-shared.sh: ok"
