/*
 * libcommplan-predict.c: the interposer's prediction across ranks. Pattern B is pattern A with one count changed
 * (rank 0 sends rank 1 five more ints), so only ranks 0 and 1 see new rows. `b-only` calls MPI_Alltoallv with B once
 * (its capture gives B a plan); `mixed` runs A, B, B, A, B, B: after A falls back (no plan), ranks 2.. predict a
 * fallback for the first B while ranks 0 and 1 find B's plan, and every rank must still take one path; then one call
 * with MPI_IN_PLACE. Every received byte goes to OUT/rank-R.bin. Usage: libcommplan-predict b-only|mixed OUT
 */
#include <string.h>

#include "libcommplan-common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  FILE *out = open_dump(argv[2]);
  const char *seq = strcmp(argv[1], "b-only") == 0 ? "B" : "ABBABB";
  int *sc = malloc(sizeof(int) * (size_t)p), *sd = malloc(sizeof(int) * (size_t)p);
  int *rc = malloc(sizeof(int) * (size_t)p), *rd = malloc(sizeof(int) * (size_t)p);
  for (int it = 0; seq[it] != '\0'; it++) {
    int b = seq[it] == 'B', st = 0, rt = 0;
    for (int j = 0; j < p; j++) {
      sc[j] = 1 + (rank + 2 * j) % 4 + (b && rank == 0 && j == 1 ? 5 : 0);
      rc[j] = 1 + (j + 2 * rank) % 4 + (b && j == 0 && rank == 1 ? 5 : 0);
      sd[j] = st, st += sc[j];
      rd[j] = rt, rt += rc[j];
    }
    int *sendbuf = malloc(sizeof(int) * (size_t)st), *recvbuf = malloc(sizeof(int) * (size_t)rt);
    for (int k = 0; k < st; k++) sendbuf[k] = (int)hash3((uint32_t)rank, (uint32_t)k, (uint32_t)it);
    memset(recvbuf, 0xee, sizeof(int) * (size_t)rt);
    MPI_Alltoallv(sendbuf, sc, sd, MPI_INT, recvbuf, rc, rd, MPI_INT, MPI_COMM_WORLD);
    dump(out, recvbuf, sizeof(int) * (size_t)rt);
    free(sendbuf), free(recvbuf);
  }
  if (seq[1] != '\0') { /* then MPI_IN_PLACE, which the interposer leaves to the library */
    int *buf = malloc(sizeof(int) * 2 * (size_t)p);
    for (int j = 0; j < p; j++) rc[j] = 2, rd[j] = 2 * j;
    for (int k = 0; k < 2 * p; k++) buf[k] = (int)hash3((uint32_t)rank, (uint32_t)k, 99);
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, rc, rd, MPI_INT, MPI_COMM_WORLD);
    dump(out, buf, sizeof(int) * 2 * (size_t)p);
    free(buf);
  }
  fclose(out);
  MPI_Finalize();
  return 0;
}
