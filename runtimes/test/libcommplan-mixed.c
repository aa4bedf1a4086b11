/*
 * libcommplan-mixed.c: calls whose ranks or kinds differ in what the key does not see (runtimes/test/libcommplan.sh).
 *   order swap|pair OUT  MPI_Alltoallv of one int pair per peer, sent as a type that swaps the pair (MPI_Type_indexed
 *                        {1, 0}: no holes, lower bound 0, extent 8; MPI moves it swapped) or as contiguous(2, MPI_INT);
 *                        received as contiguous(2, MPI_INT); then the pair as a vector and a struct that are in order.
 *   sizes OUT            even ranks 2 x MPI_INT per peer, odd ranks 1 x contiguous(2, MPI_INT) (the same type
 *                        signature, another element size), then an ordinary MPI_INT call.
 *   kinds OUT            the same count matrix through MPI_Alltoall (3 calls), then MPI_Alltoallv (3 calls).
 *   rows OUT             rank i sends v[i mod 8] doubles to every rank (v = 0 0 9 3 12 0 0 9), 3 calls.
 *   f90 OUT              MPI_Alltoallv of types built on MPI_Type_create_f90_real / _complex / _integer (predefined
 *                        types whose combiner is MPI_COMBINER_F90_*: MPI_Type_get_contents returns them as themselves,
 *                        they must not be freed): contiguous(2, real(15, 300)), the real itself, contiguous(1,
 *                        complex(15, 300)), hvector(2, 1, 4, integer(9)) and a struct of two reals, 3 calls each.
 *                        Built with smpicc: skipped (SMPI does not implement MPI_Type_create_f90_*).
 * Every rank dumps every received byte into OUT/rank-<r>.bin.
 */
#include <string.h>

#include "libcommplan-common.h"

#define MAXP 64

static int p, rank;
static int sc[MAXP], sd[MAXP], rc[MAXP], rd[MAXP];

static void order(const char *how, FILE *f) {
  int bl[2] = {1, 1}, dis[2] = {1, 0}, s[2 * MAXP], r[2 * MAXP];
  MPI_Datatype swap, pair, vec, st;
  MPI_Type_indexed(2, bl, dis, MPI_INT, &swap);
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_vector(2, 1, 1, MPI_INT, &vec); /* stride = blocklength: in order */
  MPI_Aint sdis[2] = {0, sizeof(int)};
  MPI_Datatype stypes[2] = {MPI_INT, MPI_INT};
  MPI_Type_create_struct(2, bl, sdis, stypes, &st);
  MPI_Type_commit(&swap), MPI_Type_commit(&pair), MPI_Type_commit(&vec), MPI_Type_commit(&st);
  for (int j = 0; j < p; j++) sc[j] = rc[j] = 1, sd[j] = rd[j] = j, s[2 * j] = 10 * rank + 1, s[2 * j + 1] = 10 * j + 2;
  MPI_Datatype t = strcmp(how, "swap") == 0 ? swap : pair;
  for (int it = 0; it < 2; it++) {
    memset(r, 0, sizeof r);
    MPI_Alltoallv(s, sc, sd, t, r, rc, rd, pair, MPI_COMM_WORLD);
    dump(f, r, sizeof(int) * 2 * (size_t)p);
  }
  memset(r, 0, sizeof r);
  MPI_Alltoallv(s, sc, sd, vec, r, rc, rd, st, MPI_COMM_WORLD);
  dump(f, r, sizeof(int) * 2 * (size_t)p);
  MPI_Type_free(&swap), MPI_Type_free(&pair), MPI_Type_free(&vec), MPI_Type_free(&st);
}

static void sizes(FILE *f) {
  int s[2 * MAXP], r[2 * MAXP];
  MPI_Datatype two;
  MPI_Type_contiguous(2, MPI_INT, &two);
  MPI_Type_commit(&two);
  for (int j = 0; j < p; j++) {
    sc[j] = rc[j] = rank % 2 ? 1 : 2, sd[j] = rd[j] = j * sc[j], s[2 * j] = rank, s[2 * j + 1] = j;
  }
  MPI_Datatype t = rank % 2 ? two : MPI_INT;
  memset(r, 0, sizeof r);
  MPI_Alltoallv(s, sc, sd, t, r, rc, rd, t, MPI_COMM_WORLD);
  dump(f, r, sizeof r);
  for (int j = 0; j < p; j++) sc[j] = rc[j] = 1, sd[j] = rd[j] = j;
  memset(r, 0, sizeof r);
  MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD);
  dump(f, r, sizeof r);
  MPI_Type_free(&two);
}

static void kinds(FILE *f) {
  int s[3 * MAXP], r[3 * MAXP];
  for (int j = 0; j < 3 * p; j++) s[j] = (int)hash3((uint32_t)rank, (uint32_t)j, 1);
  for (int j = 0; j < p; j++) sc[j] = rc[j] = 3, sd[j] = rd[j] = 3 * j;
  for (int i = 0; i < 6; i++) {
    memset(r, 0, sizeof r);
    if (i < 3) MPI_Alltoall(s, 3, MPI_INT, r, 3, MPI_INT, MPI_COMM_WORLD);
    else MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD);
    dump(f, r, sizeof(int) * 3 * (size_t)p);
  }
}

static void f90(FILE *f) {
#ifdef SMPI_H /* SimGrid's SMPI (3.32) aborts in MPI_Type_create_f90_* ("Not yet implemented"): nothing to run */
  (void)f;
  if (rank == 0) fprintf(stderr, "libcommplan-mixed f90: SMPI does not implement MPI_Type_create_f90_*: skipped\n");
#else
  MPI_Datatype real, cplx, integer, t[5];
  MPI_Type_create_f90_real(15, 300, &real);
  MPI_Type_create_f90_complex(15, 300, &cplx);
  MPI_Type_create_f90_integer(9, &integer);
  int bl[2] = {1, 1}, isz, rsz;
  MPI_Type_size(integer, &isz);
  MPI_Type_size(real, &rsz);
  MPI_Aint dis[2] = {0, rsz};
  MPI_Datatype reals[2] = {real, real};
  MPI_Type_contiguous(2, real, &t[0]);
  t[1] = real;
  MPI_Type_contiguous(1, cplx, &t[2]);
  MPI_Type_create_hvector(2, 1, isz, integer, &t[3]);
  MPI_Type_create_struct(2, bl, dis, reals, &t[4]);
  for (int k = 0; k < 5; k++) {
    if (k != 1) MPI_Type_commit(&t[k]);
  }
  unsigned char s[16 * MAXP], r[16 * MAXP];
  for (int k = 0; k < 5; k++) {
    int sz;
    MPI_Type_size(t[k], &sz);
    for (int j = 0; j < sz * p; j++) s[j] = (unsigned char)hash3((uint32_t)rank, (uint32_t)j, (uint32_t)k);
    for (int j = 0; j < p; j++) sc[j] = rc[j] = 1, sd[j] = rd[j] = j;
    for (int it = 0; it < 3; it++) {
      memset(r, 0, sizeof r);
      MPI_Alltoallv(s, sc, sd, t[k], r, rc, rd, t[k], MPI_COMM_WORLD);
      dump(f, r, (size_t)sz * (size_t)p);
    }
  }
  for (int k = 0; k < 5; k++) {
    if (k != 1) MPI_Type_free(&t[k]);
  }
#endif
}

static void rows(FILE *f) {
  const int v[8] = {0, 0, 9, 3, 12, 0, 0, 9};
  double s[12 * MAXP], r[12 * MAXP];
  int so = 0, ro = 0;
  for (int j = 0; j < p; j++) sc[j] = v[rank % 8], sd[j] = so, so += sc[j], rc[j] = v[j % 8], rd[j] = ro, ro += rc[j];
  for (int k = 0; k < so; k++) s[k] = rank * 1000 + k;
  for (int it = 0; it < 3; it++) {
    memset(r, 0, sizeof r);
    MPI_Alltoallv(s, sc, sd, MPI_DOUBLE, r, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
    dump(f, r, sizeof(double) * (size_t)ro);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 3 || p > MAXP || (strcmp(argv[1], "order") == 0 && argc < 4)) {
    if (rank == 0) fprintf(stderr, "usage: libcommplan-mixed order swap|pair | sizes | kinds | f90 | rows OUT (P <= 64)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  FILE *f = open_dump(argv[argc - 1]);
  if (strcmp(argv[1], "order") == 0) order(argv[2], f);
  else if (strcmp(argv[1], "sizes") == 0) sizes(f);
  else if (strcmp(argv[1], "kinds") == 0) kinds(f);
  else if (strcmp(argv[1], "f90") == 0) f90(f);
  else rows(f);
  fclose(f);
  MPI_Finalize();
  return 0;
}
