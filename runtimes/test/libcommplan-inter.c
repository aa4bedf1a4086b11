/*
 * libcommplan-inter.c: calls the interposer must leave to the library. The world splits into two groups (ranks below
 * P / 2 and the rest) joined by an intercommunicator, on which MPI_Alltoallv and MPI_Alltoall exchange with the remote
 * group (counts per remote rank); then one MPI_Alltoallv on MPI_COMM_WORLD, which the interposer may capture and
 * plan. Every received byte goes to OUT/rank-R.bin. Usage: libcommplan-inter OUT (at least 2 ranks)
 */
#include <string.h>

#include "libcommplan-common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  FILE *out = open_dump(argv[1]);
  int low = rank < p / 2;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, low, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? p / 2 : 0, 7, &inter);
  int q, n = p; /* q: the remote group's size; n: the larger of q and P, for the arrays */
  MPI_Comm_remote_size(inter, &q);
  int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
  int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
  int *sendbuf = malloc(sizeof(int) * 8 * (size_t)n), *recvbuf = malloc(sizeof(int) * 8 * (size_t)n);
  for (int it = 0; it < 3; it++) {
    int st = 0, rt = 0, peer_low = !low; /* counts agree on both sides: 1 + (sender + receiver) % 3 ints */
    for (int j = 0; j < q; j++) {
      int them = peer_low ? j : p / 2 + j;
      sc[j] = 1 + (rank + them + it) % 3, rc[j] = sc[j];
      sd[j] = st, st += sc[j], rd[j] = rt, rt += rc[j];
    }
    for (int k = 0; k < 8 * n; k++) sendbuf[k] = (int)hash3((uint32_t)rank, (uint32_t)k, (uint32_t)it);
    memset(recvbuf, 0xee, sizeof(int) * 8 * (size_t)n);
    MPI_Alltoallv(sendbuf, sc, sd, MPI_INT, recvbuf, rc, rd, MPI_INT, inter);
    dump(out, recvbuf, sizeof(int) * (size_t)rt);
    MPI_Alltoall(sendbuf, 2, MPI_INT, recvbuf, 2, MPI_INT, inter);
    dump(out, recvbuf, sizeof(int) * 2 * (size_t)q);
  }
  int st = 0, rt = 0; /* the world's MPI_Alltoallv */
  for (int j = 0; j < p; j++) {
    sc[j] = 1 + (rank * 3 + j) % 4, rc[j] = 1 + (j * 3 + rank) % 4;
    sd[j] = st, st += sc[j], rd[j] = rt, rt += rc[j];
  }
  for (int k = 0; k < st; k++) sendbuf[k] = (int)hash3((uint32_t)rank, (uint32_t)k, 5);
  memset(recvbuf, 0xee, sizeof(int) * 8 * (size_t)n);
  MPI_Alltoallv(sendbuf, sc, sd, MPI_INT, recvbuf, rc, rd, MPI_INT, MPI_COMM_WORLD);
  dump(out, recvbuf, sizeof(int) * (size_t)rt);
  free(sc), free(sd), free(rc), free(rd), free(sendbuf), free(recvbuf);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  fclose(out);
  MPI_Finalize();
  return 0;
}
