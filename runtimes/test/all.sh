#!/usr/bin/env bash
# The runtime tests on real Open MPI and SimGrid (npm run test:runtimes; .ci/run after installing them): every
# planner's lowered program under mpirun with the reference executor, libcommplan inside unmodified MPI programs, and
# the SimGrid replays, platforms and vs-MPI pipeline. Needs dist/ (npm run build) and the Debian packages .ci/run names.
set -euo pipefail
cd "$(dirname "$0")/../.."
runtimes/test/mpi.sh
# libcommplan: unmodified MPI programs (C, FFTW, mpi4py) under capture, precompute and replay, bytes compared (P 4 16 7).
runtimes/test/libcommplan.sh
npx tsx runtimes/test/simgrid.ts
# The executor's --shared-buffers under smpirun: the same simulated times, a 20 x smaller peak Pss (P = 16, ~1 min).
runtimes/test/executor-shared.sh
# Every topology generator's SimGrid platform loads and routes as commplan does (P = 16, about 10 s).
npx tsx runtimes/test/simgrid-topology.ts
# The vs-MPI bench's pipeline (plans and every SMPI MPI_Alltoallv algorithm under smpirun): P = 16, about 60 s.
npx tsx runtimes/test/vs-mpi.ts
# commplan's program replay within 10 % of SMPI (P = 16, flat and fat tree, two runtime models; about 40 s).
npx tsx runtimes/test/program-replay.ts
# The library mirror of MPI_Alltoallv's default within 2 % of SMPI running MPI_Alltoallv (P = 8, sparse; about 5 s).
npx tsx runtimes/test/library-replay.ts
