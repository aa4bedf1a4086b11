#!/usr/bin/env python3
"""Baseline for bench/permutation.ts: edge-colour a bipartite graph by peeling one maximum matching per phase
(scipy.sparse.csgraph.maximum_bipartite_matching, Hopcroft-Karp) until no edge is left.

Usage: permutation-scipy.py EDGES_FILE [MAX_SECONDS] [RUNS]
EDGES_FILE: little-endian int32 values: P, E, then E sources and E destinations.
Times the peel RUNS times (default 5) after one untimed warm-up run, inside this process (the interpreter
start and the imports are not timed), wall clock (perf_counter) and CPU (process_time).
Prints one JSON line: {"phases", "ms": [...], "cpuMs": [...], "complete", "edgesLeft", "scipy"}; a run that
exceeds MAX_SECONDS stops early (complete: false) and ends the timing.
"""
import json
import sys
import time

try:
    import numpy as np
    import scipy
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching
except ImportError as e:  # the bench reports this instead of failing
    print(json.dumps({"error": f"scipy not available: {e}"}))
    sys.exit(0)


def peel(p, e, src, dst, limit):
    """One colouring: returns (phases, complete, edges left)."""
    t0 = time.perf_counter()
    phases = 0
    alive = np.ones(e, dtype=bool)
    ids = np.arange(e, dtype=np.int64)
    while alive.any():
        if time.perf_counter() - t0 > limit:
            return phases, False, int(alive.sum())
        idx = ids[alive]
        # data = edge index + 1, so the matched edge of row i is found from the CSR
        g = csr_matrix((idx + 1, (src[idx], dst[idx])), shape=(p, p))
        match = maximum_bipartite_matching(g, perm_type="column")  # match[i] = column of row i or -1
        rows = np.nonzero(match >= 0)[0]
        cols = match[rows]
        # the edge (i, match[i]) of this phase
        sub = g[rows, cols]
        used = np.asarray(sub).ravel().astype(np.int64) - 1
        alive[used] = False
        phases += 1
    return phases, True, 0


def main() -> None:
    path = sys.argv[1]
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else 120.0
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    raw = np.fromfile(path, dtype="<i4")
    p, e = int(raw[0]), int(raw[1])
    src = raw[2 : 2 + e].astype(np.int32)
    dst = raw[2 + e : 2 + 2 * e].astype(np.int32)
    phases, complete, left = peel(p, e, src, dst, limit)  # warm-up
    ms, cpu = [], []
    for _ in range(runs if complete else 0):
        w0, c0 = time.perf_counter(), time.process_time()
        phases, complete, left = peel(p, e, src, dst, limit)
        ms.append((time.perf_counter() - w0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
        if not complete:
            break
    print(json.dumps({"phases": phases, "ms": ms, "cpuMs": cpu, "complete": complete, "edgesLeft": left, "scipy": scipy.__version__}))


if __name__ == "__main__":
    main()
