/* pattern.h: the byte pattern of element (origin, dest, offset), filling send buffers and checking receive buffers. */
#ifndef COMMPLAN_PATTERN_H
#define COMMPLAN_PATTERN_H

#include <stdint.h>

#include "program.h"

/** The first wrong byte a check found. */
typedef struct {
  int64_t wrong;  /* wrong bytes in all */
  int origin;     /* of the first wrong byte: its origin rank, */
  int64_t offset; /* its element offset in the block from origin, */
  int64_t byte;   /* its byte in the element (-1: a byte outside every block), */
  unsigned expected, got;
} mismatch_t;

/** Byte b of element (origin, dest, offset) is byte b % 4 of a 32-bit hash of (origin, dest, offset, b / 4). Fills rank prog->rank's send buffer: the block for j holds the elements (rank, j, 0 .. sendCounts[j]-1). */
void pattern_fill_send(const program_t *prog, unsigned char *send);

/** Fills the receive buffer with the complement of every expected byte (so a byte nobody wrote is wrong) and 0xA5 outside the blocks. */
void pattern_poison_recv(const program_t *prog, unsigned char *recv, const unsigned char *covered);

/** Marks the receive-buffer elements inside some block (covered[e] = 1); the caller frees the result. */
unsigned char *pattern_coverage(const program_t *prog);

/** Checks every byte of the receive buffer: blocks hold their pattern, bytes outside them still 0xA5. Returns the wrong bytes. */
int64_t pattern_check_recv(const program_t *prog, const unsigned char *recv, const unsigned char *covered, mismatch_t *first);

#endif
