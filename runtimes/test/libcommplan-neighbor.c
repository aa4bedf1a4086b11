/*
 * libcommplan-neighbor.c: MPI_Neighbor_alltoallv in unmodified code. A 3D halo (the 26 offsets of a periodic grid,
 * one message per distinct neighbour rank, boxes of uneven sizes that grow on some ranks half-way, so the counts
 * change) on a weighted distributed graph (MPI_Dist_graph_create_adjacent over a communicator with the ranks
 * reversed; destinations in the order the offsets meet them, sources in descending rank order), then a periodic 1D
 * Cartesian ring with uneven counts, 3 iterations each. With "fallback": a periodic 3D Cartesian grid from
 * MPI_Dims_create (a dimension of 1 or 2 repeats a neighbour) and a ring that is not periodic (MPI_PROC_NULL at its
 * ends) instead. Blocks lie in reverse neighbour order with gaps; receive counts come from MPI_Neighbor_alltoall.
 * Every received byte goes to OUT/rank-R.bin.
 * Usage: libcommplan-neighbor [fallback] OUT
 */
#include <string.h>

#include "libcommplan-common.h"

/* Iterations [it0, it0 + n) of MPI_Neighbor_alltoallv on a topology communicator, sc[k] doubles to neighbour k. */
static void exchange(MPI_Comm topo, int indeg, int outdeg, const int *sc, int it0, int n, FILE *out) {
  int rank, stotal = 0, rtotal = 0;
  MPI_Comm_rank(topo, &rank);
  int *rc = calloc((size_t)indeg + 1, sizeof(int)), *sd = malloc(sizeof(int) * ((size_t)outdeg + 1));
  int *rd = malloc(sizeof(int) * ((size_t)indeg + 1));
  MPI_Neighbor_alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, topo); /* a MPI_PROC_NULL source leaves its 0 */
  for (int k = outdeg - 1; k >= 0; k--) sd[k] = stotal + 1, stotal += sc[k] + 1;
  for (int k = indeg - 1; k >= 0; k--) rd[k] = rtotal + 2, rtotal += rc[k] + 2;
  double *sendbuf = malloc(sizeof(double) * ((size_t)stotal + 1));
  double *recvbuf = malloc(sizeof(double) * ((size_t)rtotal + 1));
  for (int it = it0; it < it0 + n; it++) {
    for (int i = 0; i < stotal; i++) sendbuf[i] = (double)hash3((uint32_t)rank, (uint32_t)i, (uint32_t)it) / 7.0;
    memset(recvbuf, 0xee, sizeof(double) * (size_t)rtotal);
    MPI_Neighbor_alltoallv(sendbuf, sc, sd, MPI_DOUBLE, recvbuf, rc, rd, MPI_DOUBLE, topo);
    dump(out, recvbuf, sizeof(double) * (size_t)rtotal);
  }
  free(rc), free(sd), free(rd), free(sendbuf), free(recvbuf);
}

static int descending(const void *a, const void *b) { return *(const int *)b - *(const int *)a; }

/* The 3D halo on a distributed graph: half the iterations, then the boxes of every third rank grow. */
static void graph_halo(MPI_Comm comm, int iterations, FILE *out) {
  int p, rank, dims[3] = {0, 0, 0}, c[3], ndst = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  MPI_Dims_create(p, 3, dims);
  c[0] = rank / (dims[1] * dims[2]), c[1] = rank / dims[2] % dims[1], c[2] = rank % dims[2];
  int *dst = malloc(sizeof(int) * 27), *src = malloc(sizeof(int) * 27), *sc = calloc(27, sizeof(int)), w[27];
  MPI_Comm graph = MPI_COMM_NULL;
  for (int phase = 0; phase < 2; phase++) {
    int grow = phase == 1 && rank % 3 == 0;
    int ext[3] = {3 + c[0] % 2 + grow, 2 + c[1] % 3, 2 + (c[2] + rank) % 2 + grow}; /* this rank's box */
    memset(sc, 0, sizeof(int) * 27);
    for (int dx = -1; dx <= 1; dx++) {
      for (int dy = -1; dy <= 1; dy++) {
        for (int dz = -1; dz <= 1; dz++) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          int d[3] = {dx, dy, dz}, nb[3], cells = 1, k = 0;
          for (int a = 0; a < 3; a++) {
            nb[a] = ((c[a] + d[a]) % dims[a] + dims[a]) % dims[a];
            cells *= d[a] == 0 ? ext[a] : 1;
          }
          int r = (nb[0] * dims[1] + nb[1]) * dims[2] + nb[2];
          while (k < ndst && dst[k] != r) k++;
          if (k == ndst) dst[ndst++] = r;
          sc[k] += cells;
        }
      }
    }
    if (graph == MPI_COMM_NULL) { /* the offsets are symmetric: the sources are the destinations; weights 1 */
      memcpy(src, dst, sizeof(int) * (size_t)ndst);
      qsort(src, (size_t)ndst, sizeof(int), descending);
      for (int k = 0; k < ndst; k++) w[k] = 1;
      MPI_Dist_graph_create_adjacent(comm, ndst, src, w, ndst, dst, w, MPI_INFO_NULL, 0, &graph);
    }
    exchange(graph, ndst, ndst, sc, phase * iterations, iterations, out);
  }
  MPI_Comm_free(&graph);
  free(dst), free(src), free(sc);
}

/* A Cartesian grid of n dimensions (periodic or not), uneven counts to its 2 n neighbours. */
static void cart(MPI_Comm comm, int n, int periodic, int iterations, FILE *out) {
  int p, rank, dims[3] = {0, 0, 0}, periods[3] = {periodic, periodic, periodic}, sc[6];
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  MPI_Dims_create(p, n, dims);
  MPI_Comm grid;
  MPI_Cart_create(comm, n, dims, periods, 0, &grid);
  for (int k = 0; k < 2 * n; k++) sc[k] = 1 + (rank * 3 + k * 5) % 7;
  exchange(grid, 2 * n, 2 * n, sc, 0, iterations, out);
  MPI_Comm_free(&grid);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int world_rank, p, iterations = 3, fallback = argc > 2 && strcmp(argv[1], "fallback") == 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, 0, p - 1 - world_rank, &comm);
  FILE *out = open_dump(argv[argc - 1]);
  if (fallback) {
    cart(comm, 3, 1, iterations, out);
    cart(comm, 1, 0, iterations, out);
  } else {
    graph_halo(comm, iterations, out);
    cart(comm, 1, 1, iterations, out);
  }
  fclose(out);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
