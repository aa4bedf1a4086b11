/*
 * libcommplan-moe.c: a mixture-of-experts layer's dispatch and combine, unmodified MPI: a skewed router sends each
 * token (a 6-float contiguous datatype) to one expert per rank; MPI_Alltoall exchanges the counts, MPI_Alltoallv the
 * tokens (received with a one-token gap between blocks), the experts scale them, MPI_Alltoallv returns them. Two
 * routings alternate, so each pattern repeats. Every received byte goes to OUT/rank-R.bin.
 * Usage: libcommplan-moe OUT [iterations]
 */
#include <string.h>

#include "libcommplan-common.h"

#define TOKENS 48
#define WIDTH 6

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, rank, iterations = argc > 2 ? atoi(argv[2]) : 6;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  FILE *out = open_dump(argv[1]);
  MPI_Datatype token;
  MPI_Type_contiguous(WIDTH, MPI_FLOAT, &token);
  MPI_Type_commit(&token);
  int *expert = malloc(sizeof(int) * TOKENS), *order = malloc(sizeof(int) * TOKENS);
  int *sc = calloc((size_t)p, sizeof(int)), *sd = malloc(sizeof(int) * (size_t)p);
  int *rc = calloc((size_t)p, sizeof(int)), *rd = malloc(sizeof(int) * (size_t)p);
  float *x = malloc(sizeof(float) * WIDTH * TOKENS), *sendbuf = malloc(sizeof(float) * WIDTH * TOKENS);
  float *back = malloc(sizeof(float) * WIDTH * TOKENS);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 0; it < iterations; it++) {
    uint32_t seed = (uint32_t)(it % 2) + 1;
    for (int t = 0; t < TOKENS; t++) {
      double u = hash3((uint32_t)rank, (uint32_t)t, seed) / 4294967296.0;
      expert[t] = (int)(p * u * u * u); /* skewed: the low experts get most tokens */
      for (int k = 0; k < WIDTH; k++) {
        x[t * WIDTH + k] = (float)(hash3((uint32_t)rank, (uint32_t)(t * WIDTH + k), (uint32_t)it) % 1000) / 7.0f;
      }
    }
    memset(sc, 0, sizeof(int) * (size_t)p);
    for (int t = 0; t < TOKENS; t++) sc[expert[t]]++;
    for (int j = 0, acc = 0; j < p; j++) sd[j] = acc, acc += sc[j];
    int *fill = calloc((size_t)p, sizeof(int));
    for (int t = 0; t < TOKENS; t++) {
      int slot = sd[expert[t]] + fill[expert[t]]++;
      order[t] = slot;
      memcpy(sendbuf + slot * WIDTH, x + t * WIDTH, sizeof(float) * WIDTH);
    }
    free(fill);
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
    dump(out, rc, sizeof(int) * (size_t)p);
    int total = 0;
    for (int j = 0; j < p; j++) rd[j] = total + j, total += rc[j]; /* a one-token gap before each block */
    size_t rbytes = sizeof(float) * WIDTH * (size_t)(total + p);
    float *recvbuf = malloc(rbytes);
    memset(recvbuf, 0xee, rbytes);
    MPI_Alltoallv(sendbuf, sc, sd, token, recvbuf, rc, rd, token, MPI_COMM_WORLD);
    dump(out, recvbuf, rbytes);
    for (int j = 0; j < p; j++) { /* the expert: scale by its rank and the source */
      for (int i = 0; i < rc[j] * WIDTH; i++) recvbuf[rd[j] * WIDTH + i] *= (float)(rank + 1) + 0.5f * (float)j;
    }
    memset(back, 0xee, sizeof(float) * WIDTH * TOKENS);
    MPI_Alltoallv(recvbuf, rc, rd, token, back, sc, sd, token, MPI_COMM_WORLD);
    dump(out, back, sizeof(float) * WIDTH * TOKENS);
    for (int t = 0; t < TOKENS; t++) memcpy(x + t * WIDTH, back + order[t] * WIDTH, sizeof(float) * WIDTH);
    dump(out, x, sizeof(float) * WIDTH * TOKENS);
    free(recvbuf);
  }
  report_time(MPI_Wtime() - t0, iterations, MPI_COMM_WORLD);
  fclose(out);
  MPI_Type_free(&token);
  MPI_Finalize();
  return 0;
}
