/*
 * libcommplan-halo.c: a 3D halo exchange (26 neighbours, periodic) over MPI_Alltoallv on a communicator with the
 * ranks reversed (MPI_Comm_split), boxes of uneven sizes so faces, edges and corners differ per rank, the blocks laid
 * out in reverse peer order with gaps. Every received byte goes to OUT/rank-R.bin.
 * Usage: libcommplan-halo OUT [iterations]
 */
#include <string.h>

#include "libcommplan-common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int world_rank, p, rank, iterations = argc > 2 ? atoi(argv[2]) : 4;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, 0, p - 1 - world_rank, &comm);
  MPI_Comm_rank(comm, &rank);
  FILE *out = open_dump(argv[1]);
  int dims[3] = {0, 0, 0}, c[3];
  MPI_Dims_create(p, 3, dims);
  c[0] = rank / (dims[1] * dims[2]), c[1] = rank / dims[2] % dims[1], c[2] = rank % dims[2];
  int ext[3] = {3 + c[0] % 2, 2 + c[1] % 3, 2 + (c[2] + rank) % 2}; /* this rank's box */
  int *sc = calloc((size_t)p, sizeof(int)), *sd = malloc(sizeof(int) * (size_t)p);
  int *rc = calloc((size_t)p, sizeof(int)), *rd = malloc(sizeof(int) * (size_t)p);
  for (int dx = -1; dx <= 1; dx++) {
    for (int dy = -1; dy <= 1; dy++) {
      for (int dz = -1; dz <= 1; dz++) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        int d[3] = {dx, dy, dz}, n[3], cells = 1;
        for (int a = 0; a < 3; a++) {
          n[a] = ((c[a] + d[a]) % dims[a] + dims[a]) % dims[a];
          cells *= d[a] == 0 ? ext[a] : 1;
        }
        sc[(n[0] * dims[1] + n[1]) * dims[2] + n[2]] += cells;
      }
    }
  }
  MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, comm);
  int stotal = 0, rtotal = 0;
  for (int j = p - 1; j >= 0; j--) sd[j] = stotal + 1, stotal += sc[j] + 1;
  for (int j = p - 1; j >= 0; j--) rd[j] = rtotal + 2, rtotal += rc[j] + 2;
  double *sendbuf = malloc(sizeof(double) * (size_t)stotal), *recvbuf = malloc(sizeof(double) * (size_t)rtotal);
  MPI_Barrier(comm);
  double t0 = MPI_Wtime();
  for (int it = 0; it < iterations; it++) {
    for (int i = 0; i < stotal; i++) sendbuf[i] = (double)hash3((uint32_t)rank, (uint32_t)i, (uint32_t)it) / 3.0;
    memset(recvbuf, 0xee, sizeof(double) * (size_t)rtotal);
    MPI_Alltoallv(sendbuf, sc, sd, MPI_DOUBLE, recvbuf, rc, rd, MPI_DOUBLE, comm);
    dump(out, recvbuf, sizeof(double) * (size_t)rtotal);
  }
  report_time(MPI_Wtime() - t0, iterations, comm);
  fclose(out);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
