/* libcommplan-common.h: what the libcommplan test programs share: seeded hashes and the dump of received bytes. */
#ifndef LIBCOMMPLAN_COMMON_H
#define LIBCOMMPLAN_COMMON_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/** A 32-bit hash of three integers (deterministic data and routing). */
static inline uint32_t hash3(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t z = ((uint64_t)a * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)b * 0xbf58476d1ce4e5b9ULL) ^
               ((uint64_t)c + 0x94d049bb133111ebULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (uint32_t)(z ^ (z >> 31));
}

/** Opens OUT/rank-<world rank>.bin for the received bytes, or exits with a message. */
static inline FILE *open_dump(const char *dir) {
  int rank;
  char path[4096];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  snprintf(path, sizeof path, "%s/rank-%d.bin", dir, rank);
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    fprintf(stderr, "cannot write %s\n", path);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return f;
}

/** Appends n bytes to the dump. */
static inline void dump(FILE *f, const void *p, size_t n) {
  if (fwrite(p, 1, n, f) != n) {
    fprintf(stderr, "short write\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

/** With LIBCOMMPLAN_TIME set, rank 0 prints the loop's time per iteration (the slowest rank's; SMPI: simulated). */
static inline void report_time(double seconds, int iterations, MPI_Comm comm) {
  double worst = 0;
  int rank;
  MPI_Reduce(&seconds, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && getenv("LIBCOMMPLAN_TIME") != NULL) printf("time per iteration: %.9f s\n", worst / iterations);
}

#endif
