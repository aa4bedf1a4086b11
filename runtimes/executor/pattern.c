/* pattern.c: per-element byte pattern (a 32-bit hash of origin, dest, offset and word), fill and check. */
#include "pattern.h"

#include <stdlib.h>
#include <string.h>

#define OUTSIDE 0xA5u

static uint32_t hash32(int origin, int dest, int64_t offset, int64_t word) {
  uint64_t h = (uint64_t)(uint32_t)origin * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)(uint32_t)dest + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
  h ^= (uint64_t)offset * 0xBF58476D1CE4E5B9ull;
  h ^= (uint64_t)word * 0x94D049BB133111EBull;
  h ^= h >> 31;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  return (uint32_t)h;
}

/* Writes the eb bytes of element (origin, dest, offset) at out, complemented when flip is 0xFF. */
static void element_bytes(int origin, int dest, int64_t offset, int64_t eb, unsigned flip, unsigned char *out) {
  for (int64_t w = 0; w * 4 < eb; w++) {
    uint32_t h = hash32(origin, dest, offset, w);
    for (int64_t b = w * 4; b < eb && b < w * 4 + 4; b++) {
      out[b] = (unsigned char)(((h >> (8 * (b % 4))) & 0xFFu) ^ flip);
    }
  }
}

void pattern_fill_send(const program_t *prog, unsigned char *send) {
  int64_t eb = prog->element_bytes;
  memset(send, OUTSIDE, (size_t)(prog->send_size * eb));
  for (int j = 0; j < prog->p; j++) {
    unsigned char *block = send + prog->send_displs[j] * eb;
    for (int64_t x = 0; x < prog->send_counts[j]; x++) element_bytes(prog->rank, j, x, eb, 0, block + x * eb);
  }
}

unsigned char *pattern_coverage(const program_t *prog) {
  unsigned char *covered = calloc((size_t)(prog->recv_size > 0 ? prog->recv_size : 1), 1);
  if (covered == NULL) return NULL;
  for (int i = 0; i < prog->p; i++) memset(covered + prog->recv_displs[i], 1, (size_t)prog->recv_counts[i]);
  return covered;
}

void pattern_poison_recv(const program_t *prog, unsigned char *recv, const unsigned char *covered) {
  int64_t eb = prog->element_bytes;
  for (int64_t e = 0; e < prog->recv_size; e++) {
    if (!covered[e]) memset(recv + e * eb, OUTSIDE, (size_t)eb);
  }
  for (int i = 0; i < prog->p; i++) {
    unsigned char *block = recv + prog->recv_displs[i] * eb;
    for (int64_t x = 0; x < prog->recv_counts[i]; x++) element_bytes(i, prog->rank, x, eb, 0xFFu, block + x * eb);
  }
}

static void note(mismatch_t *first, int64_t *wrong, int origin, int64_t offset, int64_t byte, unsigned expected,
                 unsigned got) {
  if (*wrong == 0) *first = (mismatch_t){0, origin, offset, byte, expected, got};
  (*wrong)++;
}

int64_t pattern_check_recv(const program_t *prog, const unsigned char *recv, const unsigned char *covered,
                           mismatch_t *first) {
  int64_t eb = prog->element_bytes, wrong = 0;
  unsigned char *want = malloc((size_t)eb);
  if (want == NULL) return -1;
  for (int i = 0; i < prog->p; i++) {
    const unsigned char *block = recv + prog->recv_displs[i] * eb;
    for (int64_t x = 0; x < prog->recv_counts[i]; x++) {
      element_bytes(i, prog->rank, x, eb, 0, want);
      if (memcmp(want, block + x * eb, (size_t)eb) == 0) continue;
      for (int64_t b = 0; b < eb; b++) {
        if (want[b] != block[x * eb + b]) note(first, &wrong, i, x, b, want[b], block[x * eb + b]);
      }
    }
  }
  for (int64_t e = 0; e < prog->recv_size; e++) {
    if (covered[e]) continue;
    for (int64_t b = 0; b < eb; b++) {
      if (recv[e * eb + b] != OUTSIDE) note(first, &wrong, -1, e, -1, OUTSIDE, recv[e * eb + b]);
    }
  }
  free(want);
  first->wrong = wrong;
  return wrong;
}
