#!/usr/bin/env bash
# runtimes/test/libcommplan.sh: libcommplan on real Open MPI: unmodified programs (an MoE dispatch / combine, a 3D halo
# on a reordered communicator, a sample-sort shuffle, FFTW's MPI transform, an mpi4py script, a 3D halo and a ring by
# MPI_Neighbor_alltoallv on a distributed graph and a Cartesian communicator) run without the
# interposer, under capture, and, after `commplan precompute --from-capture`, under replay (the store's verdicts,
# then COMMPLAN_REPLAY=all so every captured pattern runs its plan); every received byte of every run is compared with
# the run without the interposer. Precompute plans for the machine's runtime model (the default: dataflow programs,
# relaying ones at P = 16), and again on the one-port model (`--runtime none`: nonblocking programs) replayed with
# COMMPLAN_REPLAY=all. MPI_Neighbor_alltoallv on topologies that do not fit (a neighbour repeated, MPI_PROC_NULL) must
# fall back with its reason. Then the fallback prediction across ranks (libcommplan-predict.c) and commplan.h's API program
# (plans of three planners, payload and direct, nonblocking and dataflow).
# Each replayed once more with the key reduced point to point (COMMPLAN_AGREE=p2p, COMMPLAN_LOCAL=0); a store of one
# direct plan checks the calls without a key (one rank's rows changed between calls); a store whose two programs are
# swapped must fall back. At P = 4, an intercommunicator's calls must fall back uncaptured (libcommplan-inter.c), and
# misspelt variables, values not taken and a store without programs/ must be named; then libcommplan-mixed.c: a send
# type that reorders its elements, ranks whose element sizes differ, one matrix through MPI_Alltoall and
# MPI_Alltoallv, types built on MPI_Type_create_f90_* (predefined), a program damaged after precompute, and (P = 8)
# store copies holding different programs for a key.
# Environment: LIBCOMMPLAN_TEST_P (default 4 16 7), LIBCOMMPLAN_TEST_MACHINE (default ib-hdr-200, its runtime model
# ib-hdr-200-mpi), LIBCOMMPLAN_TEST_ONE_PORT_MACHINE (default t3d-004). Exit 1 on any failure, 2 when a tool is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/runtimes/test"
ps=${LIBCOMMPLAN_TEST_P:-4 16 7}
machine=${LIBCOMMPLAN_TEST_MACHINE:-ib-hdr-200}
one_port_machine=${LIBCOMMPLAN_TEST_ONE_PORT_MACHINE:-t3d-004}
dataflow_replays=0 # captured patterns replayed as dataflow programs
extra_env="" # more environment for replay_run (",NAME=VALUE...")
python=/usr/bin/python3 # Debian's, with python3-mpi4py (the python3 on PATH may be another)
script_start=$(date +%s)

for tool in node mpicc mpirun timeout cmp; do
  command -v "$tool" >/dev/null || { echo "libcommplan.sh: '$tool' not found (Debian: apt-get install openmpi-bin libopenmpi-dev libjansson-dev)" >&2; exit 2; }
done
[ -f /usr/include/fftw3-mpi.h ] || { echo "libcommplan.sh: fftw3-mpi.h not found (Debian: apt-get install libfftw3-dev libfftw3-mpi-dev)" >&2; exit 2; }
"$python" -c 'import mpi4py' 2>/dev/null || { echo "libcommplan.sh: $python has no mpi4py (Debian: apt-get install python3-mpi4py)" >&2; exit 2; }
cli() { node "$root/bin/commplan.js" "$@"; }
[ -f "$root/dist/cli/main.js" ] || (cd "$root" && npx tsc -p tsconfig.build.json)
lib=$("$root/runtimes/libcommplan/build.sh")
preload="$lib/libcommplan-mpi.so"

work=$(mktemp -d "${TMPDIR:-/tmp}/commplan-lib.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ompi" "$work/bin"
flags=(-O2 -std=c11 -Wall -Wextra -Werror)
for prog in moe halo sort predict neighbor inter mixed; do mpicc "${flags[@]}" -o "$work/bin/$prog" "$here/libcommplan-$prog.c"; done
mpicc "${flags[@]}" -o "$work/bin/fftw" "$here/libcommplan-fftw.c" -lfftw3_mpi -lfftw3 -lm
mpicc "${flags[@]}" -o "$work/bin/api" "$here/libcommplan-api.c" -L"$lib" -lcommplan -Wl,-rpath,"$lib" -ljansson
mpirun_flags=(--oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader --mca orte_tmpdir_base "$work/ompi")
[ "$(id -u)" = 0 ] && mpirun_flags+=(--allow-run-as-root)

passed=0 failed=0
failures=()
fail() { # label, reason, [output]
  failed=$((failed + 1))
  failures+=("$1")
  printf 'FAIL  %s: %s\n' "$1" "$2"
  [ -z "${3:-}" ] || printf '%s\n' "$3" | tail -n 15 | sed 's/^/      /'
}
ok() { passed=$((passed + 1)); printf 'ok    %s\n' "$1"; }

cleanup_segments() { # listing before the run
  local f
  for f in /dev/shm/vader_segment.*; do
    [ -e "$f" ] || continue
    grep -qxF "$f" <<<"$1" || rm -f "$f"
  done
}

# Runs a program under mpirun into a fresh output directory; its output in $work/out. Returns mpirun's status.
launch() { # np, output dir, env (NAME=VALUE,... or -), program args...
  local np=$1 dir=$2 env=$3 before rc
  shift 3
  local x=()
  if [ "$env" != - ]; then
    local kv
    IFS=, read -ra kv <<<"$env"
    for e in "${kv[@]}"; do x+=(-x "$e"); done
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  before=$(ls -d /dev/shm/vader_segment.* 2>/dev/null || true)
  set +e
  timeout -k 10 120 mpirun "${mpirun_flags[@]}" "${x[@]}" -np "$np" "$@" "$dir" >"$work/out" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 0 ] || cleanup_segments "$before"
  return "$rc"
}

# Whether two runs' dumps are byte-identical (every rank's file).
same_bytes() { # dir a, dir b, np
  local r
  for ((r = 0; r < $3; r++)); do cmp -s "$1/rank-$r.bin" "$2/rank-$r.bin" || return 1; done
}

# Replays the program with the store's plans: MODE store (the store's verdicts) or all (COMMPLAN_REPLAY=all); its bytes compared with the base run, the
# statistics must account for every call (all of them hits under COMMPLAN_REPLAY=all); their total line in $total.
# Returns 1 on a failure.
replay_run() { # label, np, store, mode, calls, what, program and args...
  local label=$1 np=$2 store=$3 mode=$4 calls=$5 what=$6 d="$work/run" want
  shift 6
  local replay="" # the store's verdicts: no COMMPLAN_REPLAY (the interposer names a value it does not take)
  [ "$mode" = all ] && replay=",COMMPLAN_REPLAY=all"
  if ! launch "$np" "$d/replay" "LD_PRELOAD=$preload,COMMPLAN_PLANS=$store,COMMPLAN_STATS=1$replay$extra_env" "$@"; then
    fail "$label P=$np replay ($what$mode)" "mpirun failed" "$(cat "$work/out")"
    return 1
  fi
  same_bytes "$d/base" "$d/replay" "$np" || { fail "$label P=$np replay ($what$mode)" "received bytes differ"; return 1; }
  if grep -q '^commplan: COMMPLAN_' "$work/out"; then # the environment is the documented one: no line about it
    fail "$label P=$np replay ($what$mode)" "a line about the environment" "$(grep '^commplan: COMMPLAN_' "$work/out")"
    return 1
  fi
  total=$(grep '^commplan: rank 0 total:' "$work/out" || true)
  # under COMMPLAN_REPLAY=all every call runs its plan; under the store's verdicts, hits + fallbacks = calls
  want="$calls calls, $calls hits, 0 fallbacks"
  if [ "$mode" = store ]; then
    local h f
    h=$(sed -n 's/.* \([0-9]*\) hits, \([0-9]*\) fallbacks$/\1/p' <<<"$total")
    f=$(sed -n 's/.* \([0-9]*\) hits, \([0-9]*\) fallbacks$/\2/p' <<<"$total")
    want="$calls calls, ${h:-?} hits, ${f:-?} fallbacks"
    [ -n "$h" ] && [ -n "$f" ] && [ $((h + f)) -eq "$calls" ] || want="$calls calls (hits + fallbacks = calls)"
  fi
  if [[ "$total" != *"total: $want" ]]; then
    fail "$label P=$np replay ($what$mode)" "expected '$want', got '$total'" "$(cat "$work/out")"
    return 1
  fi
  return 0
}

# The programs precompute wrote, by plan and variant: "mesh-two-stage dataflow x2, shift dataflow x1" (from its lines).
variants_of() { # precompute output file
  grep -o ': [a-z]*, [a-z0-9-]* (\(dataflow\|nonblocking\|blocking\)), ' "$1" | sed 's/^: [a-z]*, \(.*\) (\(.*\)), $/\1 \2/' |
    sort | uniq -c | awk '{printf "%s%s %s x%s", (NR > 1 ? ", " : ""), $2, $3, $1}'
}

# The capture -> precompute -> replay sequence of one program at one P, every run's bytes compared with the plain run:
# precompute for the machine's runtime model, replayed with the store's verdicts and with every plan; then on the
# one-port model, replayed with every plan.
cycle() { # label, np, program and args...
  local label=$1 np=$2
  shift 2
  local d="$work/run" cap="$work/cap-$label-$np" store="$work/store"
  if ! launch "$np" "$d/base" - "$@"; then fail "$label P=$np" "the run without the interposer failed" "$(cat "$work/out")"; return; fi
  if ! launch "$np" "$d/capture" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$cap,COMMPLAN_STATS=1" "$@"; then
    fail "$label P=$np capture" "mpirun failed" "$(cat "$work/out")"
    return
  fi
  same_bytes "$d/base" "$d/capture" "$np" || { fail "$label P=$np capture" "received bytes differ"; return; }
  local calls
  calls=$(sed -n 's/^commplan: rank 0 total: \([0-9]*\) calls.*/\1/p' "$work/out")
  if [ -z "$calls" ] || [ "$calls" -eq 0 ] || ! ls "$cap"/*.capture.json >/dev/null 2>&1; then
    fail "$label P=$np capture" "no call was captured" "$(cat "$work/out")"
    return
  fi
  if ! cli precompute --from-capture "$cap" --store "$store" --machine "$machine" >"$work/pre" 2>&1; then
    fail "$label P=$np precompute" "precompute --from-capture failed" "$(cat "$work/pre")"
    return
  fi
  local variants mode df total
  variants=$(variants_of "$work/pre")
  df=$(grep -c ' (dataflow), ' "$work/pre" || true)
  for mode in store all; do
    replay_run "$label" "$np" "$store" "$mode" "$calls" "" "$@" || continue
    [ "$mode" = all ] && dataflow_replays=$((dataflow_replays + df))
    ok "$label P=$np: capture, precompute ($variants), replay ($mode): ${total#commplan: rank 0 total: }, every byte as without the interposer"
  done
  # the key reduced point to point (recursive doubling; P = 7 takes its odd path), direct plans waiting for it too
  extra_env=",COMMPLAN_AGREE=p2p,COMMPLAN_LOCAL=0"
  replay_run "$label" "$np" "$store" all "$calls" "key point to point, " "$@" &&
    ok "$label P=$np: replay (all) with the key reduced point to point: ${total#commplan: rank 0 total: }, every byte as without the interposer"
  extra_env=""
  if ! cli precompute --from-capture "$cap" --store "$work/store-one-port" --machine "$one_port_machine" --runtime none >"$work/pre" 2>&1; then
    fail "$label P=$np precompute --runtime none" "precompute --from-capture failed" "$(cat "$work/pre")"
    return
  fi
  variants=$(variants_of "$work/pre")
  replay_run "$label" "$np" "$work/store-one-port" all "$calls" "one-port, " "$@" &&
    ok "$label P=$np: precompute --runtime none ($variants), replay (all): ${total#commplan: rank 0 total: }, every byte as without the interposer"
}

for p in $ps; do
  cycle moe "$p" "$work/bin/moe"
  cycle halo "$p" "$work/bin/halo"
  cycle sort "$p" "$work/bin/sort"
  cycle fftw "$p" "$work/bin/fftw"
  cycle mpi4py "$p" "$python" "$here/libcommplan-mpi4py.py"
  cycle neighbor "$p" "$work/bin/neighbor"
  # MPI_Neighbor_alltoallv where it does not fit: a periodic 3D grid (below P = 27 a dimension of 1 or 2 repeats a
  # neighbour) and a ring that is not periodic (MPI_PROC_NULL): every call the library's own, with its reason
  d="$work/neighbor-fallback"
  want="6 calls, 0 hits, 6 fallbacks"
  [ "$p" -ge 27 ] && want="6 calls, "
  if launch "$p" "$d/base" - "$work/bin/neighbor" fallback &&
    launch "$p" "$d/replay" "LD_PRELOAD=$preload,COMMPLAN_PLANS=$work/store,COMMPLAN_STATS=1,COMMPLAN_REPLAY=all" "$work/bin/neighbor" fallback; then
    if ! same_bytes "$d/base" "$d/replay" "$p"; then
      fail "neighbor fallback P=$p" "received bytes differ"
    elif ! grep -q '3 calls fell back before the lookup: a neighbour repeated or MPI_PROC_NULL' "$work/out" ||
      ! grep -q "^commplan: rank 0 total: $want" "$work/out"; then
      fail "neighbor fallback P=$p" "not the expected fallbacks" "$(cat "$work/out")"
    else
      ok "neighbor fallback P=$p: a repeated neighbour and MPI_PROC_NULL fall back to PMPI_Neighbor_alltoallv, every byte as without the interposer"
    fi
  else
    fail "neighbor fallback P=$p" "a run failed" "$(cat "$work/out")"
  fi
  # the prediction across ranks: B's plan comes from a run of B alone; the mixed run's first B after each A is
  # predicted a fallback by the ranks whose rows did not change, so every rank falls back; the second B runs the plan
  d="$work/predict"
  if launch "$p" "$d/base" - "$work/bin/predict" mixed &&
    launch "$p" "$d/b" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$work/cap-predict-$p" "$work/bin/predict" b-only &&
    cli precompute --from-capture "$work/cap-predict-$p" --store "$work/store" --machine "$machine" >"$work/pre" 2>&1 &&
    launch "$p" "$d/replay" "LD_PRELOAD=$preload,COMMPLAN_PLANS=$work/store,COMMPLAN_STATS=1,COMMPLAN_REPLAY=all,COMMPLAN_LOCAL=0" "$work/bin/predict" mixed; then
    if ! same_bytes "$d/base" "$d/replay" "$p"; then
      fail "predict P=$p" "received bytes differ"
    elif ! grep -q '4 calls, 2 hits of .*, 2 fallbacks (a rank predicted a fallback 2)' "$work/out" ||
      ! grep -q '2 calls, 0 hits, 2 fallbacks (no plan in the store 2)' "$work/out" ||
      ! grep -q '1 calls fell back before the lookup: in place' "$work/out"; then
      fail "predict P=$p" "not the expected hits and fallbacks" "$(cat "$work/out")"
    else
      ok "predict P=$p: a predicted fallback overrides a plan on every rank, MPI_IN_PLACE falls back, every byte as without the interposer"
    fi
  else
    fail "predict P=$p" "a run or the precompute failed" "$(cat "$work/out" "$work/pre" 2>/dev/null)"
  fi
  # a program that is not the key's (the two patterns' program directories swapped, as a store copied by hand could
  # have them): each rank checks its part against the call's counts, so every call falls back, every byte in place
  cap="$work/cap-swap-$p" store_swap="$work/store-swap-$p"
  if launch "$p" "$d/capture" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$cap" "$work/bin/predict" mixed &&
    cli precompute --from-capture "$cap" --store "$store_swap" --machine "$machine" >"$work/pre" 2>&1 &&
    mapfile -t keys < <(ls "$store_swap/programs") && [ "${#keys[@]}" -eq 2 ] &&
    cp -r "$store_swap" "$store_swap-damaged" && rm "$store_swap-damaged/programs/${keys[0]}/rank-1.json" &&
    cp -r "$store_swap" "$store_swap-badplan" && echo '{' >"$store_swap-badplan/programs/${keys[0]}/plan.json" &&
    head -c 100 "$store_swap/programs/${keys[1]}/rank-0.json" >"$store_swap-damaged/programs/${keys[1]}/rank-0.json" &&
    launch "$p" "$d/damaged" "LD_PRELOAD=$preload,COMMPLAN_PLANS=$store_swap-damaged,COMMPLAN_STATS=1,COMMPLAN_REPLAY=all,COMMPLAN_LOCAL=0" "$work/bin/predict" mixed &&
    cp "$work/out" "$work/out-damaged" &&
    mv "$store_swap/programs/${keys[0]}" "$store_swap/programs/x" &&
    mv "$store_swap/programs/${keys[1]}" "$store_swap/programs/${keys[0]}" &&
    mv "$store_swap/programs/x" "$store_swap/programs/${keys[1]}" &&
    launch "$p" "$d/swap" "LD_PRELOAD=$preload,COMMPLAN_PLANS=$store_swap,COMMPLAN_STATS=1,COMMPLAN_REPLAY=all,COMMPLAN_LOCAL=0" "$work/bin/predict" mixed; then
    if ! same_bytes "$d/base" "$d/swap" "$p"; then
      fail "swapped programs P=$p" "received bytes differ"
    elif ! grep -q "program is for another count matrix" "$work/out" ||
      ! grep -q '^commplan: rank 0 total: 7 calls, 0 hits, 7 fallbacks' "$work/out" ||
      [ "$(grep -c ', 0 hits, [0-9]* fallbacks (plan failed to load [0-9]*)' "$work/out")" -ne 2 ]; then
      fail "swapped programs P=$p" "not the expected fallbacks" "$(cat "$work/out")"
    else
      ok "swapped programs P=$p: a program for another count matrix is refused at its lookup (plan failed to load), every byte as without the interposer"
    fi
    # the same store with one program's rank file missing and another's cut short: both fall back, each file named
    if ! same_bytes "$d/base" "$d/damaged" "$p"; then
      fail "damaged programs P=$p" "received bytes differ"
    elif ! grep -q "^commplan: $store_swap-damaged/programs/${keys[0]}/rank-1.json: no such file$" "$work/out-damaged" ||
      ! grep -q "^commplan: $store_swap-damaged/programs/${keys[1]}/rank-0.json:line [0-9]*: " "$work/out-damaged" ||
      [ "$(grep -c ', 0 hits, [0-9]* fallbacks (plan failed to load [0-9]*)' "$work/out-damaged")" -ne 2 ]; then
      fail "damaged programs P=$p" "not the expected fallbacks" "$(cat "$work/out-damaged")"
    else
      ok "damaged programs P=$p: a rank file missing or cut short makes every rank fall back, the file named in one line"
    fi
    # a plan.json that does not read (cut short): its calls fall back as "plan failed to load", not "no plan in the
    # store", the file named with the parser's reason; the other pattern's plan still runs
    if ! launch "$p" "$d/badplan" "LD_PRELOAD=$preload,COMMPLAN_PLANS=$store_swap-badplan,COMMPLAN_STATS=1,COMMPLAN_REPLAY=all,COMMPLAN_LOCAL=0" "$work/bin/predict" mixed; then
      fail "unreadable plan.json P=$p" "the run failed" "$(cat "$work/out")"
    elif ! same_bytes "$d/base" "$d/badplan" "$p"; then
      fail "unreadable plan.json P=$p" "received bytes differ"
    elif ! grep -q "^commplan: $store_swap-badplan/programs/${keys[0]}/plan.json: .*(line [0-9]*)$" "$work/out" ||
      ! grep -q 'fallbacks (plan failed to load [0-9]*)' "$work/out" || grep -q 'no plan in the store' "$work/out" ||
      ! grep -q '^commplan: rank 0 total: 7 calls, [1-9][0-9]* hits' "$work/out"; then
      fail "unreadable plan.json P=$p" "not the expected hits and fallbacks" "$(cat "$work/out")"
    else
      ok "unreadable plan.json P=$p: its calls fall back as a plan that failed to load, the file and the parser's reason named"
    fi
  else
    fail "swapped programs P=$p" "a run or the precompute failed" "$(cat "$work/out" "$work/pre" 2>/dev/null)"
  fi
  # direct plans need no key: a store whose one plan (B's, shift, a nonblocking program written here so that it is
  # direct whatever auto picks) is direct; in the mixed run the ranks whose rows are B's in every call (2 ..) run the
  # plan six times while ranks 0 and 1 (rows changed in A) exchange A's blocks point to point with them
  store_local="$work/store-local-$p"
  key=$(sed -n 's/^ *"key": "\([0-9a-f]*\)",*$/\1/p' "$work/cap-predict-$p"/*.capture.json | head -n 1)
  mfile=$(ls "$work/cap-predict-$p"/*.matrix.json 2>/dev/null | head -n 1)
  if [ -n "$key" ] && [ -n "$mfile" ] && cli plan "$mfile" -a shift -o "$work/local-s.json" >/dev/null 2>"$work/out" &&
    cli export "$work/local-s.json" --matrix "$mfile" --format program --variant nonblocking \
      --split "$store_local/programs/$key" >/dev/null 2>>"$work/out" &&
    printf '{"format": "commplan.libplan/v1", "key": "%s", "p": %d, "call": "MPI_Alltoallv", "replay": true}\n' \
      "$key" "$p" >"$store_local/programs/$key/plan.json" &&
    launch "$p" "$d/local" "LD_PRELOAD=$preload,COMMPLAN_PLANS=$store_local,COMMPLAN_STATS=all" "$work/bin/predict" mixed; then
    if ! same_bytes "$d/base" "$d/local" "$p"; then
      fail "direct P=$p" "received bytes differ"
    elif ! grep -q "^commplan: rank 0 .*$key at .* (direct, no key): 4 calls, 4 hits of shift, 0 fallbacks" "$work/out" ||
      ! grep -q "^commplan: rank 1 .* 2 calls fell back before the lookup: this rank's rows fit no direct plan" "$work/out" ||
      ! grep -q "^commplan: rank 2 .*$key at .* (direct, no key): 6 calls, 6 hits of shift, 0 fallbacks" "$work/out" ||
      ! grep -q "^commplan: rank $((p - 1)) total: 7 calls, 6 hits, 1 fallbacks" "$work/out"; then
      fail "direct P=$p" "not the expected hits and fallbacks" "$(cat "$work/out")"
    else
      ok "direct P=$p: no key; ranks 0 and 1 (rows changed) exchange point to point with ranks running the plan, every byte as without the interposer"
    fi
  else
    fail "direct P=$p" "the store or the run failed" "$(cat "$work/out")"
  fi
  # commplan.h directly: a relaying payload plan (two-stage) and a direct one (coloring), unpacked displacements; and
  # relaying payload plans as dataflow programs (mesh-two-stage, mpi-bruck: local copies between its stages)
  m="$work/api-m$p.json"
  cli gen pattern1 --p "$p" --seed "$p" -o "$m"
  for case in two-stage:nonblocking coloring:nonblocking mesh-two-stage:dataflow mpi-bruck:dataflow; do
    alg=${case%%:*} variant=${case#*:}
    payload=()
    [ "$alg" != coloring ] && payload=(--payload)
    if ! cli plan "$m" -a "$alg" "${payload[@]}" -o "$work/api-s.json" >/dev/null 2>"$work/out" ||
      ! cli export "$work/api-s.json" --matrix "$m" --format program --variant "$variant" \
        --split "$work/api-prog-$alg-$p" >/dev/null 2>>"$work/out"; then
      fail "api P=$p $alg ($variant)" "planning or export failed" "$(cat "$work/out")"
      continue
    fi
    set +e
    out=$(timeout -k 10 120 mpirun "${mpirun_flags[@]}" -np "$p" "$work/bin/api" "$m" "$work/api-prog-$alg-$p" 2>&1)
    rc=$?
    set -e
    if [ "$rc" -ne 0 ] || ! grep -q '^api ok' <<<"$out"; then fail "api P=$p $alg ($variant)" "exit $rc" "$out"; continue; fi
    ok "api P=$p $alg ($variant): commplan_alltoallv, persistent start / wait, fallbacks, errors"
  done
done

# an intercommunicator's calls (counts of the remote group) go to the library, never captured or keyed; the world's
# call beside them is captured, planned and replayed; misspelt variables and a store without programs/ are named
p=4
d="$work/inter"
cap="$work/cap-inter"
if launch "$p" "$d/base" - "$work/bin/inter" &&
  launch "$p" "$d/capture" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$cap,COMMPLAN_STATS=1" "$work/bin/inter" &&
  same_bytes "$d/base" "$d/capture" "$p" && grep -q '6 calls fell back before the lookup: an intercommunicator' "$work/out" &&
  [ "$(ls "$cap" | wc -l)" -eq 2 ] && grep -q '"p": 4,' "$cap"/*.capture.json &&
  cli precompute --from-capture "$cap" --store "$work/store-inter" --machine "$machine" >"$work/pre" 2>&1 &&
  launch "$p" "$d/replay" "LD_PRELOAD=$preload,COMMPLAN_PLANS=$work/store-inter,COMMPLAN_STATS=1,COMMPLAN_REPLAY=all" "$work/bin/inter" &&
  same_bytes "$d/base" "$d/replay" "$p" && grep -q '^commplan: rank 0 total: 7 calls, 1 hits, 6 fallbacks' "$work/out"; then
  ok "intercommunicator P=$p: its calls fall back to the library, never captured; the world's call captured and replayed, every byte as without the interposer"
else
  fail "intercommunicator P=$p" "not as expected" "$(cat "$work/out" "$work/pre" 2>/dev/null; ls "$cap" 2>&1)"
fi
# a second run of the same program into the same capture directory replaces its records (docs/runtimes.md)
if launch "$p" "$d/capture3" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$cap" "$work/bin/inter" &&
  [ "$(ls "$cap" | wc -l)" -eq 2 ] && grep -q '"calls": 1,' "$cap"/*.capture.json; then
  ok "capture P=$p: a second run into the same directory replaces the first's record (calls 1, not two records)"
else
  fail "capture P=$p (second run)" "not one record of one call" "$(ls "$cap"; cat "$cap"/*.capture.json)"
fi
# a matrix file that cannot be written (a directory in its place): its record is not written either, so no record
# names a matrix that is not there
m=$(cd "$cap" 2>/dev/null && ls ./*.matrix.json 2>/dev/null | head -n 1)
m=${m#./}
if [ -n "$m" ] && mkdir -p "$work/cap-inter2/$m" &&
  launch "$p" "$d/capture2" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$work/cap-inter2" "$work/bin/inter" &&
  grep -q "^commplan: cannot write $work/cap-inter2/$m (Is a directory)$" "$work/out" &&
  ! ls "$work/cap-inter2"/*.capture.json >/dev/null 2>&1; then
  ok "capture P=$p: a matrix that cannot be written is named with the reason, and its record is not written"
else
  fail "capture P=$p" "a record without its matrix, or no line" "$(cat "$work/out"; ls -R "$work/cap-inter2" 2>&1)"
fi
if launch "$p" "$d/env" "LD_PRELOAD=$preload,COMMPLAN_PLAN=$work/store-inter,COMMPLAN_STATS=yes,COMMPLAN_AGREE=P2P,COMMPLAN_REPLAY=1" "$work/bin/inter" &&
  same_bytes "$d/base" "$d/env" "$p" &&
  [ "$(grep -c '^commplan: COMMPLAN_PLAN is not a variable of libcommplan, ignored (did you mean COMMPLAN_PLANS?)$' "$work/out")" -eq 1 ] &&
  grep -q '^commplan: COMMPLAN_STATS=yes is not a value it takes (0, 1 or all): taken as 1$' "$work/out" &&
  grep -q '^commplan: COMMPLAN_AGREE=P2P is not a value it takes (p2p or library): ignored$' "$work/out" &&
  grep -q '^commplan: COMMPLAN_REPLAY=1 is not a value it takes (all): ignored$' "$work/out" &&
  launch "$p" "$d/env" "LD_PRELOAD=$preload,COMMPLAN_PLANS=$work/no-store,COMMPLAN_CAPTURE=$work/no-dir/cap" "$work/bin/inter" &&
  same_bytes "$d/base" "$d/env" "$p" &&
  [ "$(grep -c "^commplan: COMMPLAN_PLANS=$work/no-store: no directory $work/no-store/programs " "$work/out")" -eq 1 ] &&
  [ "$(grep -c "^commplan: COMMPLAN_CAPTURE=$work/no-dir/cap: cannot create the directory (No such file or directory): nothing will be captured$" "$work/out")" -eq 1 ] &&
  grep -q "^commplan: cannot write $work/no-dir/cap/.*\.tmp (No such file or directory)$" "$work/out"; then
  ok "environment P=$p: a misspelt variable, a value not taken, a store without programs/ and a capture directory that cannot be made named in one line each (world rank 0)"
else
  fail "environment P=$p" "not the expected lines" "$(cat "$work/out")"
fi
# a store given to world rank 0 only (as a variable set in the shell and not passed with -x reaches the local ranks
# only): the ranks would enter different collectives; the interposer finds out at MPI_Init and stays off everywhere
printf '#!/bin/sh
[ "$OMPI_COMM_WORLD_RANK" = 0 ] && export COMMPLAN_PLANS="%s"
exec "$@"
' "$work/store-inter" >"$work/rank0-env"
chmod +x "$work/rank0-env"
if launch "$p" "$d/rank0" "LD_PRELOAD=$preload,COMMPLAN_STATS=1" "$work/rank0-env" "$work/bin/inter" &&
  same_bytes "$d/base" "$d/rank0" "$p" &&
  [ "$(grep -c "^commplan: the ranks' COMMPLAN_ settings differ .*: libcommplan is off for this run$" "$work/out")" -eq 1 ] &&
  grep -q '^commplan: rank 0 total: 0 calls, 0 hits, 0 fallbacks$' "$work/out"; then
  ok "environment P=$p: COMMPLAN_PLANS on world rank 0 only: named in one line, the interposer off on every rank, no hang"
else
  fail "environment P=$p (one rank's store)" "not the expected line, or a hang" "$(cat "$work/out")"
fi

# What the key does not see (libcommplan-mixed.c, P = 4): a send type that reorders its elements (no holes, so it
# passed as contiguous) must fall back where a plan for the same counts would move the bytes unordered; ranks whose
# element sizes differ (the same type signature) must fall back uncaptured; one count matrix through MPI_Alltoall and
# MPI_Alltoallv must be captured as two records and replay under both
d="$work/mixed"
rl="LD_PRELOAD=$preload,COMMPLAN_STATS=1,COMMPLAN_REPLAY=all,COMMPLAN_LOCAL=0"
if launch "$p" "$d/base" - "$work/bin/mixed" order swap &&
  launch "$p" "$d/capture" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$work/cap-order" "$work/bin/mixed" order pair &&
  cli precompute --from-capture "$work/cap-order" --store "$work/store-order" --machine "$machine" >"$work/pre" 2>&1 &&
  launch "$p" "$d/replay" "$rl,COMMPLAN_PLANS=$work/store-order" "$work/bin/mixed" order swap; then
  if ! same_bytes "$d/base" "$d/replay" "$p"; then
    fail "datatype order P=$p" "received bytes differ (a plan moved a reordering type's bytes unordered)" "$(cat "$work/out")"
  elif ! grep -q '^commplan: rank 0 total: 3 calls, 1 hits, 2 fallbacks$' "$work/out" ||
    ! grep -q '2 calls fell back before the lookup: datatype not contiguous' "$work/out"; then
    fail "datatype order P=$p" "not the expected hits and fallbacks" "$(cat "$work/out")"
  else
    ok "datatype order P=$p: a type that swaps its elements falls back (datatype not contiguous), a vector and a struct in order run the plan, every byte as without the interposer"
  fi
else
  fail "datatype order P=$p" "a run or the precompute failed" "$(cat "$work/out" "$work/pre" 2>/dev/null)"
fi
if launch "$p" "$d/base" - "$work/bin/mixed" sizes &&
  launch "$p" "$d/capture" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$work/cap-sizes,COMMPLAN_STATS=1" "$work/bin/mixed" sizes &&
  cp "$work/out" "$work/out-sizes" && same_bytes "$d/base" "$d/capture" "$p" &&
  cli precompute --from-capture "$work/cap-sizes" --store "$work/store-sizes" --machine "$machine" >"$work/pre" 2>&1; then
  if [ "$(ls "$work/cap-sizes"/*.capture.json | wc -l)" -ne 1 ] || ! grep -q '"elementBytes": 4,' "$work/cap-sizes"/*.capture.json ||
    ! grep -q "1 calls fell back before the lookup: the ranks' element sizes differ" "$work/out-sizes"; then
    fail "element sizes P=$p" "not one record (the ordinary call's) and the reason" "$(cat "$work/out-sizes"; ls "$work/cap-sizes")"
  else
    ok "element sizes P=$p: ranks whose element sizes differ fall back uncaptured (the ranks' element sizes differ); the ordinary call captured and planned"
  fi
else
  fail "element sizes P=$p" "a run or the precompute failed" "$(cat "$work/out" "$work/pre" 2>/dev/null)"
fi
if launch "$p" "$d/base" - "$work/bin/mixed" kinds &&
  launch "$p" "$d/capture" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$work/cap-kinds" "$work/bin/mixed" kinds &&
  cli precompute --from-capture "$work/cap-kinds" --store "$work/store-kinds" --machine "$machine" >"$work/pre" 2>&1 &&
  launch "$p" "$d/replay" "$rl,COMMPLAN_PLANS=$work/store-kinds" "$work/bin/mixed" kinds; then
  if ! same_bytes "$d/base" "$d/replay" "$p"; then
    fail "call kinds P=$p" "received bytes differ"
  elif [ "$(grep -l '"call": "MPI_Alltoall",' "$work/cap-kinds"/*.capture.json | wc -l)" -ne 1 ] ||
    [ "$(grep -l '"call": "MPI_Alltoallv",' "$work/cap-kinds"/*.capture.json | wc -l)" -ne 1 ] ||
    [ "$(grep -c '"calls": 3,' "$work/cap-kinds"/*.capture.json | grep -c ':1$')" -ne 2 ] ||
    ! grep -q ' MPI_Alltoall and MPI_Alltoallv 6 calls at ' "$work/pre" ||
    ! grep -q '^commplan: rank 0 total: 6 calls, 6 hits, 0 fallbacks$' "$work/out"; then
    fail "call kinds P=$p" "not two records and six hits" "$(cat "$work/pre" "$work/out"; cat "$work/cap-kinds"/*.capture.json)"
  else
    ok "call kinds P=$p: one count matrix through MPI_Alltoall and MPI_Alltoallv captured as two records, both replayed, every byte as without the interposer"
  fi
else
  fail "call kinds P=$p" "a run or the precompute failed" "$(cat "$work/out" "$work/pre" 2>/dev/null)"
fi
# types built on MPI_Type_create_f90_real / _complex / _integer (predefined, their combiner MPI_COMBINER_F90_*): the
# datatype walk must not free them (Open MPI: MPI_ERR_TYPE in MPI_Type_free, fatal), and they are dense elements: the
# calls captured (two records, by element size), planned and replayed, every byte as without the interposer (its
# own run directory: the damaged-program check below compares with the kinds runs in $d)
if launch "$p" "$work/f90/base" - "$work/bin/mixed" f90 &&
  launch "$p" "$work/f90/capture" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$work/cap-f90,COMMPLAN_STATS=1" "$work/bin/mixed" f90 &&
  same_bytes "$work/f90/base" "$work/f90/capture" "$p" && grep -q '^commplan: rank 0 total: 15 calls, 0 hits, 15 fallbacks$' "$work/out" &&
  cli precompute --from-capture "$work/cap-f90" --store "$work/store-f90" --machine "$machine" >"$work/pre" 2>&1 &&
  launch "$p" "$work/f90/replay" "$rl,COMMPLAN_PLANS=$work/store-f90" "$work/bin/mixed" f90; then
  if ! same_bytes "$work/f90/base" "$work/f90/replay" "$p"; then
    fail "f90 types P=$p" "received bytes differ"
  elif [ "$(ls "$work/cap-f90"/*.capture.json | wc -l)" -ne 2 ] || ! grep -q '"calls": 9,' "$work/cap-f90"/*.capture.json ||
    ! grep -q '"calls": 6,' "$work/cap-f90"/*.capture.json ||
    ! grep -q '^commplan: rank 0 total: 15 calls, 15 hits, 0 fallbacks$' "$work/out"; then
    fail "f90 types P=$p" "not two records (9 and 6 calls) and 15 hits" "$(cat "$work/out"; ls "$work/cap-f90")"
  else
    ok "f90 types P=$p: types built on MPI_Type_create_f90_* captured (two records), planned and replayed (15 hits), no MPI_Type_free of a predefined type, every byte as without the interposer"
  fi
else
  fail "f90 types P=$p" "a run or the precompute failed" "$(cat "$work/out" "$work/pre" 2>/dev/null)"
fi
# a program directory damaged after precompute (a rank file cut short): precompute plans it again (not "present");
# damaged again, the run names it in one line without COMMPLAN_STATS and with COMMPLAN_STATS=1, none with =0
k=$(ls "$work/store-kinds/programs" | head -n 1)
if [ -n "$k" ] && truncate -s 100 "$work/store-kinds/programs/$k/rank-1.json" &&
  cli precompute --from-capture "$work/cap-kinds" --store "$work/store-kinds" --machine "$machine" >"$work/pre" 2>&1 &&
  grep -q "^$k .*: replaced (was planned for .*, but its program does not read (.*rank-1.json" "$work/pre" &&
  truncate -s 100 "$work/store-kinds/programs/$k/rank-1.json"; then
  lines=""
  for stats in none 0 1; do
    env="LD_PRELOAD=$preload,COMMPLAN_PLANS=$work/store-kinds,COMMPLAN_REPLAY=all,COMMPLAN_LOCAL=0"
    [ "$stats" != none ] && env+=",COMMPLAN_STATS=$stats"
    launch "$p" "$d/replay" "$env" "$work/bin/mixed" kinds && same_bytes "$d/base" "$d/replay" "$p" || lines+="run failed "
    lines+="$(grep -c "^commplan: $work/store-kinds/programs/$k/rank-1.json:line [0-9]*: " "$work/out" || true) "
  done
  if [ "$lines" != "2 0 2 " ]; then # one line per pattern (the MPI_Alltoall and the MPI_Alltoallv one)
    fail "damaged program P=$p" "not one line per pattern without COMMPLAN_STATS and with 1, none with 0: $lines" "$(cat "$work/out")"
  else
    ok "damaged program P=$p: precompute plans a program whose rank file does not read again; at run time its failure named once per pattern (none under COMMPLAN_STATS=0)"
  fi
else
  fail "damaged program P=$p" "precompute did not plan the damaged program again" "$(cat "$work/pre")"
fi
# node-local copies of a store that hold different programs for one key (planned for two targets): ranks 0 .. 3 read
# A, ranks 4 .. 7 B; every rank must fall back (no MPI error from mismatched messages), named in one line
printf '#!/bin/sh
if [ "$OMPI_COMM_WORLD_RANK" -lt 4 ]; then export COMMPLAN_PLANS="%s"; else export COMMPLAN_PLANS="%s"; fi
exec "$@"
' "$work/store-rows-a" "$work/store-rows-b" >"$work/rows-env"
chmod +x "$work/rows-env"
if launch 8 "$d/base" - "$work/bin/mixed" rows &&
  launch 8 "$d/capture" "LD_PRELOAD=$preload,COMMPLAN_CAPTURE=$work/cap-rows" "$work/bin/mixed" rows &&
  cli precompute --from-capture "$work/cap-rows" --store "$work/store-rows-a" --machine "$machine" >"$work/pre" 2>&1 &&
  cli precompute --from-capture "$work/cap-rows" --store "$work/store-rows-b" --machine "$machine" --runtime none >>"$work/pre" 2>&1 &&
  ! cmp -s "$work/store-rows-a/programs/"*/index.json "$work/store-rows-b/programs/"*/index.json &&
  launch 8 "$d/replay" "$rl" "$work/rows-env" "$work/bin/mixed" rows; then
  if ! same_bytes "$d/base" "$d/replay" 8; then
    fail "store copies P=8" "received bytes differ"
  elif [ "$(grep -c '^commplan: .*: the ranks loaded different programs for this key' "$work/out")" -ne 1 ] ||
    ! grep -q 'fallbacks (ranks loaded different programs for this key 3)' "$work/out"; then
    fail "store copies P=8" "not the expected line and fallbacks" "$(cat "$work/out")"
  else
    ok "store copies P=8: ranks that loaded different programs for a key all fall back, named in one line"
  fi
else
  fail "store copies P=8" "a run or the precompute failed (or the two stores' programs are the same)" "$(cat "$work/out" "$work/pre" 2>/dev/null)"
fi

# the default machine's runtime model picks dataflow programs: at least one captured pattern must have run as one
if [ "$dataflow_replays" -eq 0 ]; then
  fail "dataflow replay" "no captured pattern was replayed as a dataflow program (machine $machine)"
else
  ok "dataflow replay: $dataflow_replays captured patterns replayed as dataflow programs (machine $machine)"
fi

echo "libcommplan.sh: $passed passed, $failed failed in $(($(date +%s) - script_start)) s"
if [ "$failed" -ne 0 ]; then
  printf '  failed: %s\n' "${failures[@]}"
  exit 1
fi
