#!/usr/bin/env bash
# runtimes/test/mpi.sh: every registered planner's lowered program executed under Open MPI (mpirun), every byte checked.
#
# For P in $MPI_TEST_P (default 4 16 61 64) and every planner of `commplan algorithms`: plan a seeded
# matrix (message level; again with --payload when the lowering says the plan relays), export the
# program (--split, nonblocking; blocking too for P in $MPI_TEST_BLOCKING_P, default 16 64; dataflow too for
# the planners in $MPI_TEST_DATAFLOW_ALGORITHMS at the same P), run it
# with runtimes/executor's commplan-exec under mpirun, once per P beside MPI_Alltoallv (--baseline). First, bad
# programs (P = 4) the executor must refuse in one line, exit 2, without hanging.
# A planner that refuses the P (exit 2) is skipped with its
# reason. When smpicc and smpirun are installed, the executor is also built with smpicc and runs two
# programs under SimGrid's smpirun. One line per run, a summary; exit 1 on any failure, 2 when a
# tool is missing. Environment: MPI_TEST_P, MPI_TEST_BLOCKING_P, MPI_TEST_DATAFLOW_ALGORITHMS, MPI_TEST_ALGORITHMS (names,
# default all), MPI_TEST_P61_ALGORITHMS (the planners run at P = 61), MPI_TEST_ITERATIONS (default
# 2), MPI_TEST_SMPI=0 to skip SimGrid.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ps=${MPI_TEST_P:-4 16 61 64}
blocking_ps=${MPI_TEST_BLOCKING_P:-16 64}
# dataflow programs (no round barriers): relays (two-stage, four-stage, te-valiant) and direct plans (shift, coloring)
dataflow_algorithms=${MPI_TEST_DATAFLOW_ALGORITHMS:-two-stage four-stage te-valiant shift coloring}
iterations=${MPI_TEST_ITERATIONS:-2}
# At P = 61 only these run (MPI_TEST_P61_ALGORITHMS): linear permutation's circle method, shift and
# coloring at odd P, two-stage and four-stage on a P that is no square, hierarchical with a partial
# node, te-offline's odd rounds; the other planners' P = 61 programs take the paths P = 16 and 64 take.
odd_p_algorithms=${MPI_TEST_P61_ALGORITHMS:-linear-permutation shift coloring two-stage mesh-two-stage hierarchical four-stage te-offline}
script_start=$(date +%s)

for tool in node mpicc mpirun timeout; do
  command -v "$tool" >/dev/null || { echo "mpi.sh: '$tool' not found (Debian: apt-get install openmpi-bin libopenmpi-dev libjansson-dev)" >&2; exit 2; }
done
cli() { node "$root/bin/commplan.js" "$@"; }
[ -f "$root/dist/cli/main.js" ] || (cd "$root" && npx tsc -p tsconfig.build.json)
exe=$(CC=mpicc "$root/runtimes/executor/build.sh")

work=$(mktemp -d "${TMPDIR:-/tmp}/commplan-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ompi"
mpirun_flags=(--oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader --mca orte_tmpdir_base "$work/ompi")
[ "$(id -u)" = 0 ] && mpirun_flags+=(--allow-run-as-root)
if [ -n "${MPI_TEST_ALGORITHMS:-}" ]; then
  algorithms=$MPI_TEST_ALGORITHMS
else
  algorithms=$(cli algorithms --json | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).map((a) => a.name).join(" ")))')
fi

passed=0 failed=0 skipped=0
failures=()

fail() { # label, reason, [output]
  failed=$((failed + 1))
  failures+=("$1")
  printf 'FAIL  %s: %s\n' "$1" "$2"
  [ -z "${3:-}" ] || printf '%s\n' "$3" | tail -n 15 | sed 's/^/      /'
}

skip() { # label, reason
  skipped=$((skipped + 1))
  printf 'skip  %s: %s\n' "$1" "$2"
}

# Removes the shared-memory segments a killed run left behind (those that were not there before it).
cleanup_segments() { # listing before the run
  local f
  for f in /dev/shm/vader_segment.*; do
    [ -e "$f" ] || continue
    grep -qxF "$f" <<<"$1" || rm -f "$f"
  done
}

# Runs one program under a launcher; passes when it exits 0 and every measured line says 'every byte ok'.
run() { # label, launcher (mpirun|smpirun), np, time limit (s), program dir, executor args...
  local label=$1 launcher=$2 np=$3 limit=$4 dir=$5
  shift 5
  local before out rc start secs want got
  before=$(ls -d /dev/shm/vader_segment.* 2>/dev/null || true)
  start=$(date +%s.%N)
  set +e
  if [ "$launcher" = mpirun ]; then
    out=$(timeout -k 10 "$limit" mpirun "${mpirun_flags[@]}" -np "$np" "$exe" "$dir" --iterations "$iterations" "$@" 2>&1)
  else
    out=$(timeout -k 10 "$limit" smpirun -np "$np" -platform "$work/smpi/platform.xml" -hostfile "$work/smpi/hosts" \
      --cfg=smpi/simulate-computation:no --cfg=smpi/test:0 --log=root.thres:warning "$smpi_exe" "$dir" --iterations "$iterations" "$@" 2>&1)
  fi
  rc=$?
  set -e
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  want=1
  [[ " $* " == *" --baseline "* ]] && want=2
  got=$(grep -c 'every byte ok' <<<"$out" || true)
  if [ "$rc" -ne 0 ] || [ "$got" -ne "$want" ]; then
    [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && out="(killed after ${limit} s)"$'\n'"$out"
    cleanup_segments "$before"
    fail "$label" "exit $rc, ${secs} s" "$out"
    return 0
  fi
  passed=$((passed + 1))
  local medians
  medians=$(sed -n 's/^\([a-z]*\).* median \([^ ]*\) s,.*/\1 \2 s/p' <<<"$out" | paste -sd ';' | sed 's/;/; /')
  printf 'ok    %s: %s s (median per exchange: %s)\n' "$label" "$secs" "$medians"
}

# Plans with algorithm $1 for matrix $2 and exports variant $4 into directory $3 (payload plan when it relays).
# Prints nothing and returns 0 on success; 2 when the planner refuses (reason in $work/reason); 1 on failure.
export_program() { # algorithm, matrix, directory, variant
  local alg=$1 m=$2 dir=$3 variant=$4 sched="$3.schedule.json" payload="$3.payload.json"
  if [ ! -f "$sched" ]; then
    local rc=0
    cli plan "$m" -a "$alg" -o "$sched" >/dev/null 2>"$work/reason" || rc=$?
    [ "$rc" -eq 0 ] || { rm -f "$sched"; return $((rc == 2 ? 2 : 1)); }
  fi
  if cli export "$sched" --matrix "$m" --format program --split "$dir" --variant "$variant" >/dev/null 2>"$work/reason"; then
    return 0
  fi
  grep -q 'plan with --payload' "$work/reason" || return 1
  if [ ! -f "$payload" ]; then
    cli plan "$m" -a "$alg" --payload -o "$payload" >/dev/null 2>"$work/reason" || return 1
  fi
  cli export "$payload" --matrix "$m" --format program --split "$dir" --variant "$variant" >/dev/null 2>"$work/reason" || return 1
}

# Runs the executor on a bad program; passes when it exits 2 within the limit (no hang) with exactly one 'executor:' line,
# the one given.
refused() { # label, program, expected line
  local label=$1 prog=$2 want=$3 before out rc lines
  before=$(ls -d /dev/shm/vader_segment.* 2>/dev/null || true)
  set +e
  out=$(timeout -k 10 60 mpirun "${mpirun_flags[@]}" -np 4 "$exe" "$prog" 2>&1)
  rc=$?
  set -e
  lines=$(grep '^executor:' <<<"$out" || true)
  if [ "$rc" -ne 2 ] || [ "$lines" != "$want" ]; then
    [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && out="(killed after 60 s)"$'\n'"$out"
    cleanup_segments "$before"
    fail "$label" "exit $rc, not 2 with the line '$want'" "$out"
    return 0
  fi
  passed=$((passed + 1))
  printf 'ok    %s: exit 2: %s\n' "$label" "$lines"
}

# Bad programs (P = 4) the executor refuses while reading them, one line and exit 2, before any message: a message to
# the rank itself (it would hang), a receive or copy into the send buffer (never written), a split index's file
# outside its directory ('..', absolute, a symbolic link leading out).
bad="$work/bad"
mkdir -p "$bad"
cli gen random --p 4 --seed 4 -o "$bad/m.json" >/dev/null 2>&1
cli plan "$bad/m.json" -a two-stage --payload -o "$bad/s.json" >/dev/null 2>&1
cli export "$bad/s.json" --matrix "$bad/m.json" --format program -o "$bad/p.json" >/dev/null 2>&1
cli export "$bad/s.json" --matrix "$bad/m.json" --format program --split "$bad/sp" >/dev/null 2>&1
# edit BAD.json: node -e 'CODE' BAD.json, CODE changing d (the program document)
edit() { node -e 'const fs = require("fs"), d = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); '"$1"'; fs.writeFileSync(process.argv[2], JSON.stringify(d))' "$bad/p.json" "$bad/$2"; }
edit 'const ops = d.ranks[1].ops, i = ops.findIndex((o) => o[1] === "send"); ops[i][2] = 1; console.log(i)' self.json >"$bad/at"
refused "refused: a send to the rank itself" "$bad/self.json" \
  "executor: rank 1: $bad/self.json: ops[$(cat "$bad/at")]: send peer 1 is the rank itself (use copy)"
edit 'const ops = d.ranks[1].ops, i = ops.findIndex((o) => o[1] === "recv"); ops[i][5][0][0] = "send"; console.log(i, JSON.stringify(ops[i][5][0]).replace(/"/g, "").replace(/,/g, ", "))' recv-send.json >"$bad/at"
read -r at piece <"$bad/at"
refused "refused: a receive into the send buffer" "$bad/recv-send.json" \
  "executor: rank 1: $bad/recv-send.json: ops[$at]: piece 0 $piece is in the send buffer, which is never written"
edit 'd.ranks[1].ops.unshift([0, "copy", 1, [["send", 0, 1]], [["send", 1, 1]]])' copy-send.json
refused "refused: a copy into the send buffer" "$bad/copy-send.json" \
  "executor: rank 1: $bad/copy-send.json: ops[0]: piece 0 [send, 1, 1] is in the send buffer, which is never written"
mkdir -p "$bad/out/sp"
cp "$bad/sp/"*.json "$bad/out/sp/"
sed -i 's|"rank-0.json"|"../sp/rank-0.json"|' "$bad/out/sp/index.json"
refused "refused: a split index's file with a '..' component" "$bad/out/sp" \
  "executor: rank 0: $bad/out/sp/index.json: /files/0 \"../sp/rank-0.json\" is not inside the index's directory (give a path relative to it, without '..')"
sed -i "s|\"../sp/rank-0.json\"|\"$bad/sp/rank-0.json\"|" "$bad/out/sp/index.json"
refused "refused: a split index's file at an absolute path" "$bad/out/sp" \
  "executor: rank 0: $bad/out/sp/index.json: /files/0 \"$bad/sp/rank-0.json\" is not inside the index's directory (give a path relative to it, without '..')"
sed -i "s|\"$bad/sp/rank-0.json\"|\"rank-0.json\"|" "$bad/out/sp/index.json"
ln -sf "$bad/sp/rank-2.json" "$bad/out/sp/rank-2.json"
refused "refused: a split index's file that is a symbolic link leading out" "$bad/out/sp" \
  "executor: rank 2: $bad/out/sp/index.json: /files/2 \"rank-2.json\" leads out of the index's directory (a symbolic link)"
rm -rf "$bad"

for p in $ps; do
  m="$work/m$p.json"
  if [ "$p" -le 4 ]; then
    cli gen pattern1 --p "$p" --seed "$p" -o "$m"  # 22-byte elements, one 1024-element spike per row
  else
    cli gen random --p "$p" --seed "$p" --max 24 --element-bytes 12 -o "$m"
  fi
  limit=$((p >= 32 ? 240 : 90))
  baseline=--baseline
  for alg in $algorithms; do
    # P = 61 (odd, prime, not a square) for the planners whose code takes another path there
    if [ "$p" = 61 ] && [[ " $odd_p_algorithms " != *" $alg "* ]]; then continue; fi
    variants=nonblocking
    [[ " $blocking_ps " == *" $p "* ]] && variants="nonblocking blocking"
    [[ " $blocking_ps " == *" $p "* ]] && [[ " $dataflow_algorithms " == *" $alg "* ]] && variants="$variants dataflow"
    for variant in $variants; do
      label="P=$p $alg $variant"
      dir="$work/p$p-$alg"
      rc=0
      export_program "$alg" "$m" "$dir-$variant" "$variant" || rc=$?
      if [ "$rc" -eq 2 ]; then
        skip "P=$p $alg" "$(head -n 1 "$work/reason")"
        break
      elif [ "$rc" -ne 0 ]; then
        fail "$label" "planning or export failed" "$(cat "$work/reason")"
        continue
      fi
      [ -f "$dir-$variant.payload.json" ] && label="$label (payload plan)"
      if [ -n "$baseline" ]; then label="$label + MPI_Alltoallv"; fi
      run "$label" mpirun "$p" "$limit" "$dir-$variant" $baseline
      baseline=
      rm -rf "$dir-$variant"
    done
  done
done

# The peer form of the layout (what a sparse matrix gets, as MPI_Neighbor_alltoallv takes it): a
# 26-neighbour 3D halo exchange read from Matrix Market, each rank's file listing only its peers.
if [[ " $ps " == *" 64 "* ]]; then
  hm="$work/halo64.mtx"
  cli gen halo --p 64 --dims 3 --neighbours 26 --nx 4 --ny 4 --nz 4 -o "$hm" 2>/dev/null
  # one run per planner (the variants share the executor's peer-form reading): a direct plan
  # nonblocking, a direct plan blocking, a relay (payload) plan
  for run_spec in shift:nonblocking coloring:blocking two-stage:nonblocking; do
    alg=${run_spec%%:*} variant=${run_spec#*:}
    label="P=64 halo $alg $variant (peer form)"
    dir="$work/halo-$alg-$variant"
    rc=0
    export_program "$alg" "$hm" "$dir" "$variant" || rc=$?
    if [ "$rc" -ne 0 ]; then
      fail "$label" "planning or export failed" "$(cat "$work/reason")"
      continue
    fi
    if ! grep -q '"sendPeers"' "$dir/rank-0.json"; then
      fail "$label" "the program does not have the peer form"
      continue
    fi
    [ -f "$dir.payload.json" ] && label="$label (payload plan)"
    run "$label + MPI_Alltoallv" mpirun 64 240 "$dir" --baseline
    rm -rf "$dir"
  done
fi

if [ "${MPI_TEST_SMPI:-1}" != 0 ] && command -v smpicc >/dev/null && command -v smpirun >/dev/null; then
  smpi_exe=$(CC=smpicc "$root/runtimes/executor/build.sh")
  mkdir -p "$work/smpi"
  {
    echo "<?xml version='1.0'?>"
    echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
    echo '<platform version="4.1">'
    echo '  <cluster id="c" prefix="h" suffix="" radical="0-15" speed="1Gf" bw="12.5GBps" lat="0.5us" sharing_policy="SPLITDUPLEX" bb_bw="1TBps" bb_lat="0s" bb_sharing_policy="FATPIPE"/>'
    echo '</platform>'
  } >"$work/smpi/platform.xml"
  seq 0 15 | sed 's/^/h/' >"$work/smpi/hosts"
  m="$work/smpi/m16.json"
  cli gen pattern1 --p 16 --seed 16 -o "$m"
  for run_spec in two-stage:nonblocking two-stage:blocking two-stage:dataflow four-stage:dataflow shift:dataflow; do
    alg=${run_spec%%:*} variant=${run_spec#*:}
    rc=0
    export_program "$alg" "$m" "$work/smpi/$alg-$variant" "$variant" || rc=$?
    if [ "$rc" -ne 0 ]; then
      fail "SimGrid P=16 $alg $variant" "planning or export failed" "$(cat "$work/reason")"
      continue
    fi
    run "SimGrid smpirun P=16 $alg $variant + MPI_Alltoallv (simulated times)" smpirun 16 300 "$work/smpi/$alg-$variant" --baseline
  done
else
  echo "note: SimGrid's smpicc / smpirun not found or MPI_TEST_SMPI=0: the executor was not run under smpirun"
fi

echo "mpi.sh: $passed passed, $failed failed, $skipped skipped in $(($(date +%s) - script_start)) s"
if [ "$failed" -ne 0 ]; then
  printf '  failed: %s\n' "${failures[@]}"
  exit 1
fi
