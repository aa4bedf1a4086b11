/* program.h: one rank's commplan.program/v1 program, read with jansson (split directory or whole document). */
#ifndef COMMPLAN_PROGRAM_H
#define COMMPLAN_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

/** Buffers a piece can name. */
enum { BUF_SEND = 0, BUF_RECV = 1, BUF_SCRATCH = 2 };

/** Operation kinds. */
enum { OP_SEND = 0, OP_RECV = 1, OP_COPY = 2 };

/** Elements offset .. offset+count-1 of one of the rank's buffers. */
typedef struct {
  int buf;
  int64_t offset;
  int64_t count;
} piece_t;

/**
 * One operation: send / recv use pieces [first, first+n); a copy reads [first, first+n) and writes [first2, first2+n2).
 * Dataflow programs: it waits for the operations after[after_first .. after_first+after_n) (earlier indices).
 */
typedef struct {
  int64_t round;
  int kind;
  int peer;
  int tag;
  int64_t count;
  int64_t first, n;
  int64_t first2, n2;
  int64_t after_first, after_n;
} op_t;

/** Program variants. */
enum { VARIANT_NONBLOCKING = 0, VARIANT_BLOCKING = 1, VARIANT_DATAFLOW = 2 };

/** A rank's program: header fields, MPI_Alltoallv layout (in elements), operations and their pieces. */
typedef struct {
  int p;
  int rank;
  int blocking;
  int variant; /* VARIANT_* */
  int64_t element_bytes;
  int64_t rounds;
  char algorithm[64];
  int64_t *send_counts, *send_displs, *recv_counts, *recv_displs; /* p entries each */
  int64_t send_size, recv_size, scratch;
  op_t *ops;
  int64_t nops;
  piece_t *pieces;
  int64_t npieces;
  int64_t *after; /* dataflow: the operations each waits for (see op_t) */
  int64_t nafter;
} program_t;

/**
 * Reads rank `rank`'s program from `path`: a directory holding index.json and rank files (only
 * files[rank] is read), a split index, a rank file, or a whole document. Returns 0, or -1 with a
 * one-line message in err. Checks what the executor relies on: p, peers (other ranks) and tags in range, pieces
 * inside their buffers and adding up to the operation's count, nothing written into the send buffer, rounds
 * non-decreasing, (dataflow) every operation waiting only for earlier ones, and a split index's files[rank] inside the
 * index's directory (relative, no ".." component, no symbolic link leading out).
 */
int program_load(const char *path, int rank, program_t *out, char *err, size_t errlen);

/** Frees what program_load allocated. */
void program_free(program_t *prog);

#endif
