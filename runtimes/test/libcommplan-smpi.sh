#!/usr/bin/env bash
# runtimes/test/libcommplan-smpi.sh: the MoE and halo test programs under SimGrid's SMPI, time per iteration without
# the interposer, with it when every call falls back (its own overhead: an empty store, where no call needs the key,
# and the other program's store, whose plans make every call agree on its key first), and with the plans of
# `commplan precompute --from-capture --runtime none` for the platform's machine (the one-port model; the store's
# verdicts, then COMMPLAN_REPLAY=all).
# Platforms: flat clusters of the t3d-004 and ib-hdr-200 presets (lat = T_s / 2, bw = 1 / (t_c + t_d), as
# `export --format simgrid` writes them; no backbone: it never binds there, and SimGrid solves much faster without
# it), the CM02 flags of docs/runtimes.md; or the networks of LIBCOMMPLAN_SMPI_NETWORKS. Writes
# bench/results/libcommplan.md.
# Arguments: the P values (default 64 256). Environment: LIBCOMMPLAN_SMPI_LIMIT (seconds per smpirun, default 900);
# LIBCOMMPLAN_SMPI_RUNTIME=NAME: a runtime model of `commplan machines --json` instead: its SMPI flags (and
# smpi/test:0, so MPI_Waitsome is not charged per pending request), SMPI's default MPI_Alltoallv for every program,
# plans by `precompute --runtime NAME --free-copies` (SMPI charges no copies here), only the presets it goes with;
# LIBCOMMPLAN_SMPI_PROGRAMS (default "moe halo"), LIBCOMMPLAN_SMPI_PRESETS (default "t3d-004 ib-hdr-200"),
# LIBCOMMPLAN_SMPI_ITERATIONS (default 20), LIBCOMMPLAN_SMPI_OUT (the table's file, default
# bench/results/libcommplan.md), LIBCOMMPLAN_SMPI_NETWORKS (default "flat"): the platforms, each "flat" (the preset's
# flat cluster above) or a network spec of `commplan platform --network` (e.g. "fat-tree:k=8,oversub=4 dragonfly",
# as the vs-MPI bench's), written with the preset as its machine; a network with fewer than P hosts is skipped with
# a message. precompute --from-capture takes no network: the plans are made for the preset's machine on every
# platform.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/runtimes/test"
ps=${*:-64 256}
limit=${LIBCOMMPLAN_SMPI_LIMIT:-900}
runtime=${LIBCOMMPLAN_SMPI_RUNTIME:-}
programs=${LIBCOMMPLAN_SMPI_PROGRAMS:-moe halo}
iterations=${LIBCOMMPLAN_SMPI_ITERATIONS:-20}
out="${LIBCOMMPLAN_SMPI_OUT:-$root/bench/results/libcommplan.md}"
for tool in smpicc smpirun node timeout; do
  command -v "$tool" >/dev/null || { echo "libcommplan-smpi.sh: '$tool' not found (Debian: libsimgrid-dev)" >&2; exit 2; }
done
cli() { node "$root/bin/commplan.js" "$@"; }
[ -f "$root/dist/cli/main.js" ] || (cd "$root" && npx tsc -p tsconfig.build.json)
lib=$(CC=smpicc "$root/runtimes/libcommplan/build.sh")
work=$(mktemp -d "${TMPDIR:-/tmp}/commplan-lib-smpi.XXXXXX")
trap 'rm -rf "$work"' EXIT
for prog in $programs; do
  smpicc -O2 -std=c11 -o "$work/$prog-plain" "$here/libcommplan-$prog.c"
  # SMPI declares the MPI functions weak: the whole archive is linked so that its MPI_Alltoallv is the program's
  smpicc -O2 -std=c11 -o "$work/$prog-lib" "$here/libcommplan-$prog.c" \
    -Wl,--whole-archive "$lib/libcommplan-mpi.a" -Wl,--no-whole-archive -ljansson -ldl
done
flags=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:0 --cfg=smpi/wtime:0
  --cfg=smpi/simulate-computation:no --log=root.thres:warning)
# SMPI's default MPI_Alltoallv took more than 5 minutes of wall time per MoE run at P = 64 here: the MoE rows use
# its ring algorithm; the halo rows the default
declare -A algo=([moe]=ring [halo]=default)
# preset: T_s (us), 1 / (t_c + t_d) (MB/s), from `commplan machines`
declare -A lat=([t3d-004]=19us [ib-hdr-200]=0.3us) bw=([t3d-004]=23.2504MBps [ib-hdr-200]=21306.9MBps)
presets=${LIBCOMMPLAN_SMPI_PRESETS:-t3d-004 ib-hdr-200}
networks=${LIBCOMMPLAN_SMPI_NETWORKS:-flat}
pre_flags=(--runtime none)
if [ -n "$runtime" ]; then
  # the runtime model's SMPI flags and the presets it goes with, from `commplan machines --json`
  rt_cfg=$(cli machines --json | node -e '
    const [name, presets] = [process.argv[1], process.argv[2].split(" ")];
    const doc = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const machines = (Array.isArray(doc) ? doc : doc.machines).filter((m) => presets.includes(m.name));
    const fits = machines.filter((m) => (m.runtimes ?? []).some((r) => r.name === name));
    if (fits.length === 0) { console.error(`libcommplan-smpi.sh: no preset goes with the runtime model ${name}`); process.exit(1); }
    const cfg = fits[0].runtimes.find((r) => r.name === name).smpi.cfg;
    console.log(fits.map((m) => m.name).join(" ") + "\n" + cfg.join(" "));
  ' "$runtime" "$presets")
  presets=$(head -n 1 <<<"$rt_cfg")
  read -ra flags <<<"$(tail -n 1 <<<"$rt_cfg")"
  flags+=(--cfg=smpi/simulate-computation:no --cfg=smpi/test:0 --log=root.thres:warning)
  algo=([moe]=default [halo]=default)
  pre_flags=(--runtime "$runtime" --free-copies)
fi

platform() { # preset, network, P; fails when the network has fewer than P hosts
  if [ "$2" != flat ]; then
    cli platform --network "$2" -P "$3" --machine "$1" -o "$work/platform.xml" --hostfile "$work/hosts" >/dev/null
    return
  fi
  set -- "$1" "$3"
  {
    echo "<?xml version='1.0'?>"
    echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
    echo '<platform version="4.1">'
    echo "  <cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"0-$(($2 - 1))\" speed=\"1Gf\" bw=\"${bw[$1]}\" lat=\"${lat[$1]}\" sharing_policy=\"SPLITDUPLEX\"/>"
    echo '</platform>'
  } >"$work/platform.xml"
  seq 0 $(($2 - 1)) | sed 's/^/h/' >"$work/hosts"
}

# Rank 0's time (s) per iteration in the interposer's plans or fallbacks (`in plans` / `in fallbacks` of its
# statistics, the lookup excluded; with fallbacks, the calls that fell back with no key too), from $work/out.
spent() { # plans | fallbacks
  {
    sed -n "s/^commplan: rank 0 .*; time \([0-9.]*\) s in plans, \([0-9.]*\) s in fallbacks,.*/\1 \2/p" "$work/out"
    [ "$1" = plans ] || sed -n "s/^commplan: rank 0 .* fell back before the lookup: .*; time \([0-9.]*\) s$/0 \1/p" "$work/out"
  } | awk -v w="$1" -v n="$iterations" '{ s += (w == "plans" ? $1 : $2) } END { printf "%.9f", s / n }'
}

# Runs a program under smpirun; prints its time per iteration (s); its output in $work/out.
simulate() { # program, P, env...
  local prog=$1 p=$2
  shift 2
  rm -rf "$work/o" && mkdir -p "$work/o"
  local a=()
  [ "${algo[${prog%-*}]}" = default ] || a=(--cfg=smpi/alltoallv:"${algo[${prog%-*}]}")
  env LIBCOMMPLAN_TIME=1 "$@" timeout -k 10 "$limit" smpirun -np "$p" -platform "$work/platform.xml" \
    -hostfile "$work/hosts" "${flags[@]}" "${a[@]}" "$work/$prog" "$work/o" "$iterations" >"$work/out" 2>&1 || {
    echo "libcommplan-smpi.sh: $prog P=$p failed" >&2
    tail -n 20 "$work/out" >&2
    exit 1
  }
  sed -n 's/^time per iteration: \([0-9.e-]*\) s$/\1/p' "$work/out"
}

rows=() skipped=()
start=$(date +%s)
for p in $ps; do
  for preset in $presets; do
    for net in $networks; do
      platform "$preset" "$net" "$p" || {
        echo "libcommplan-smpi.sh: skipped $net at P=$p" >&2
        skipped+=("$net at P = $p")
        continue
      }
      name=$preset
      [ "$net" = flat ] || name="$preset $net"
      for prog in $programs; do # each program's captured patterns planned into its own store, once per preset and P
        cap="$work/cap-$prog-$p"
        [ -d "$cap" ] || simulate "$prog-lib" "$p" COMMPLAN_CAPTURE="$cap" >/dev/null
        [ -d "$work/store-$prog-$preset-$p" ] ||
          cli precompute --from-capture "$cap" --store "$work/store-$prog-$preset-$p" --machine "$preset" \
            "${pre_flags[@]}" >"$work/pre-$prog-$preset-$p" 2>&1
      done
      for prog in $programs; do
        store="$work/store-$prog-$preset-$p" other=""
        for q in $programs; do [ "$q" = "$prog" ] || [ -n "$other" ] || other="$work/store-$q-$preset-$p"; done
        plain=$(simulate "$prog-plain" "$p")
        fallback=$(simulate "$prog-lib" "$p" COMMPLAN_PLANS="$work/empty" COMMPLAN_STATS=1)
        in_library=$(spent fallbacks)
        agreed=0
        [ -z "$other" ] || agreed=$(simulate "$prog-lib" "$p" COMMPLAN_PLANS="$other" COMMPLAN_STATS=1)
        verdicts=$(grep -c ': added\|: present' "$work/pre-$prog-$preset-$p" || true)
        replays=$(grep -c ', replay (' "$work/pre-$prog-$preset-$p" || true)
        replay=$(simulate "$prog-lib" "$p" COMMPLAN_PLANS="$store" COMMPLAN_STATS=1)
        hits=$(sed -n 's/^commplan: rank 0 total: \(.*\)$/\1/p' "$work/out")
        all=$(simulate "$prog-lib" "$p" COMMPLAN_PLANS="$store" COMMPLAN_REPLAY=all COMMPLAN_STATS=1)
        in_plans=$(spent plans)
        keyless=$(grep -c '^commplan: rank 0 .*(direct, no key)' "$work/out" || true)
        # the plans precompute made and the variants it lowered them in (the statistics name no plan of a freed
        # communicator)
        picks=$(grep -o ': [a-z]*, [a-z0-9-]* ([a-z]*), ' "$work/pre-$prog-$preset-$p" |
          sed 's/^: [a-z]*, \(.*\) (\(.*\)), $/\1 \2/' | sort | uniq -c |
          awk '{printf "%s%s %s x%s", s, $2, $3, $1; s=", "}')
        [ "$keyless" -eq 0 ] || picks="$picks (direct: no key)"
        row=$(awk -v P="$p" -v prog="$prog" -v pre="$name" -v a="$plain" -v f="$fallback" -v g="$agreed" \
          -v r="$replay" -v l="$all" -v v="$replays of $verdicts" -v h="$hits" -v k="$picks" -v alg="${algo[$prog]}" \
          -v il="$in_library" -v ip="$in_plans" 'BEGIN {
            other = g > 0 ? sprintf("%.1f | %+.2f %%", g * 1e6, (g - a) / a * 100) : "| "
            printf "| %s | %d | %s | %s | %.1f | %.1f | %+.2f %% | %s | %s | %.1f | %s | %.1f | %+.2f %% | %s | %.1f | %.1f |",
              prog, P, pre, alg, a * 1e6, f * 1e6, (f - a) / a * 100, other, v, r * 1e6, h, l * 1e6, (l - a) / a * 100,
              k, il * 1e6, ip * 1e6 }')
        rows+=("$row")
        echo "$row"
      done
    done
  done
done
{
  echo "### libcommplan in SMPI: time per iteration of the ${programs// / and } test programs (simulated, $iterations iterations)"
  echo
  echo "runtimes/test/libcommplan-smpi.sh $ps${runtime:+ with LIBCOMMPLAN_SMPI_RUNTIME=$runtime}; SimGrid $(smpirun -version 2>/dev/null | head -n 1 | sed 's/^.*version //' || true), flags ${flags[*]};"
  if [ "$networks" = flat ]; then
    echo "flat clusters of the presets without a backbone (lat = T_s / 2, bw = 1 / (t_c + t_d)); plans by \`commplan"
  else
    echo "platforms: $networks; a network by \`commplan platform --network SPEC -P n --machine <preset>\` (links of"
    echo "0.1 us, the generators' default, and 1 / t_d of bandwidth)$([[ " $networks " != *" flat "* ]] ||
      echo "; flat: the preset's cluster without a backbone, lat = T_s / 2, bw = 1 / (t_c + t_d)")."
    echo "The plans are made for the preset's machine, not for the network (precompute --from-capture takes no"
    echo "--network)."
    [ ${#skipped[@]} -eq 0 ] || echo "Skipped (fewer hosts than P): $(printf '%s, ' "${skipped[@]}" | sed 's/, $//')."
    echo "Plans by \`commplan"
  fi
  echo "precompute --from-capture --machine <preset>${pre_flags[*]:+ ${pre_flags[*]}}\`, each program's into its own store. 'fallback'"
  echo "is the interposer with an empty store: no call needs the key, every call runs the library's collective at once;"
  echo "'fallback, other plans' with the other program's store: its plans make every call agree on its key first (a"
  echo "recursive doubling on the interposer's communicator, built with smpicc; a direct plan needs none), then fall"
  echo "back. Their overhead columns are the interposer's own cost per iteration. 'replay all' runs every captured"
  echo "pattern's plan (COMMPLAN_REPLAY=all), its column the change against plain. SMPI charges no CPU time here"
  echo "(simulate-computation:no): the key's hashing is measured natively (runtimes/test/libcommplan-keybench.c)."
  echo "Wall time $(($(date +%s) - start)) s."
  echo
  echo "'in library' and 'in plans' are rank 0's time per iteration inside the calls (the key's agreement excluded): the"
  echo "library's collective in the fallback run, the plans in the 'replay all' run."
  echo
  echo "| program | P | platform | SMPI alltoallv | plain us | fallback us | fallback overhead | fallback, other plans us | overhead | patterns replayed | store verdicts us | calls | replay all us | replay all vs plain | plans (precompute) | in library us | in plans us |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} >"$out"
echo "wrote $out"
