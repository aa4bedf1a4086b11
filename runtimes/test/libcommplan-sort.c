/*
 * libcommplan-sort.c: a sample sort's shuffle, unmodified MPI: each rank holds an uneven number of seeded keys, sorts
 * them, picks regular samples, gathers them for the splitters, exchanges the bucket sizes (MPI_Alltoall) and the keys
 * (MPI_Alltoallv, MPI_INT64_T), and sorts what it received. The keys change every second iteration. Every received
 * byte goes to OUT/rank-R.bin.
 * Usage: libcommplan-sort OUT [iterations]
 */
#include <string.h>

#include "libcommplan-common.h"

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, rank, iterations = argc > 2 ? atoi(argv[2]) : 4;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  FILE *out = open_dump(argv[1]);
  int n = 200 + 37 * (rank % 5);
  int64_t *keys = malloc(sizeof(int64_t) * (size_t)n), *samples = malloc(sizeof(int64_t) * (size_t)p);
  int64_t *all = malloc(sizeof(int64_t) * (size_t)p * (size_t)p), *split = malloc(sizeof(int64_t) * (size_t)p);
  int *sc = calloc((size_t)p, sizeof(int)), *sd = malloc(sizeof(int) * (size_t)p);
  int *rc = calloc((size_t)p, sizeof(int)), *rd = malloc(sizeof(int) * (size_t)p);
  for (int it = 0; it < iterations; it++) {
    for (int i = 0; i < n; i++) {
      uint32_t h = hash3((uint32_t)rank, (uint32_t)i, (uint32_t)(it / 2));
      keys[i] = (int64_t)(h % 100000) * (h % 7 == 0 ? 9 : 1); /* a skewed key distribution */
    }
    qsort(keys, (size_t)n, sizeof(int64_t), cmp64);
    for (int k = 0; k < p; k++) samples[k] = keys[(size_t)k * (size_t)n / (size_t)p];
    MPI_Allgather(samples, p, MPI_INT64_T, all, p, MPI_INT64_T, MPI_COMM_WORLD);
    qsort(all, (size_t)p * (size_t)p, sizeof(int64_t), cmp64);
    for (int k = 1; k < p; k++) split[k] = all[(size_t)k * (size_t)p];
    memset(sc, 0, sizeof(int) * (size_t)p);
    for (int i = 0, b = 0; i < n; i++) {
      while (b < p - 1 && keys[i] >= split[b + 1]) b++;
      sc[b]++;
    }
    for (int j = 0, acc = 0; j < p; j++) sd[j] = acc, acc += sc[j];
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int j = 0; j < p; j++) rd[j] = total, total += rc[j];
    int64_t *recvbuf = malloc(sizeof(int64_t) * (size_t)(total > 0 ? total : 1));
    MPI_Alltoallv(keys, sc, sd, MPI_INT64_T, recvbuf, rc, rd, MPI_INT64_T, MPI_COMM_WORLD);
    dump(out, recvbuf, sizeof(int64_t) * (size_t)total);
    qsort(recvbuf, (size_t)total, sizeof(int64_t), cmp64);
    dump(out, recvbuf, sizeof(int64_t) * (size_t)total);
    free(recvbuf);
  }
  fclose(out);
  MPI_Finalize();
  return 0;
}
