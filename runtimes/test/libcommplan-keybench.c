/*
 * libcommplan-keybench.c: the CPU cost of the interposer's per-call work outside MPI (the key of a call's counts and
 * the comparison with the last call's rows), natively, for P = 64, 256 and 1024. Usage: libcommplan-keybench
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../libcommplan/commplan.h"

int main(void) {
  int ps[] = {64, 256, 1024};
  for (int k = 0; k < 3; k++) {
    int p = ps[k], reps = 2000000 / p;
    size_t n = sizeof(int) * (size_t)p;
    int *s = malloc(n), *r = malloc(n), *last = malloc(n);
    for (int j = 0; j < p; j++) s[j] = (j * 37) % 101, r[j] = (j * 53) % 97, last[j] = s[j];
    uint64_t out[2], acc = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < reps; i++) {
      s[i % p] ^= 1; /* keep the compiler from hoisting the work */
      commplan_key_local(i % p, p, 8, s, r, out);
      acc += out[0] + (uint64_t)memcmp(last, s, sizeof(int) * (size_t)p);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double us = ((double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3) / reps;
    printf("P = %d: %.3f us per call (key and row comparison) [%llu]\n", p, us, (unsigned long long)(acc & 1));
    free(s), free(r), free(last);
  }
  return 0;
}
