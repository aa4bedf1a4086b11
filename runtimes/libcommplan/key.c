/* key.c: the lookup key of a call's counts (commplan.h: commplan_key_local); src/cli/capture-key.ts computes it too. */
#include "commplan.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t mix64(uint64_t z) { /* splitmix64's finaliser */
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t step(uint64_t h, uint64_t v) { return (h ^ v) * FNV_PRIME; }

void commplan_key_local(int rank, int p, int64_t element_bytes, const int *scounts, const int *rcounts,
                        uint64_t out[2]) {
  uint64_t h = FNV_OFFSET;
  h = step(h, (uint64_t)rank);
  h = step(h, (uint64_t)p);
  h = step(h, (uint64_t)element_bytes);
  for (int j = 0; j < p; j++) h = step(h, (uint64_t)(uint32_t)scounts[j]);
  for (int j = 0; j < p; j++) h = step(h, (uint64_t)(uint32_t)rcounts[j]);
  out[0] = mix64(h ^ 0x9e3779b97f4a7c15ULL);
  out[1] = mix64(h + 0x632be59bd9b4e019ULL);
}
