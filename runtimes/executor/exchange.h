/* exchange.h: runs a rank's program (nonblocking, blocking or dataflow) and the MPI_Alltoallv baseline. */
#ifndef COMMPLAN_EXCHANGE_H
#define COMMPLAN_EXCHANGE_H

#include <mpi.h>
#include <stddef.h>

#include "program.h"

/** 1 when built with smpicc (SimGrid's SMPI_SHARED_MALLOC exists), else 0. */
#ifdef SMPI_H
#define EXCHANGE_SHARED_BUFFERS 1
#else
#define EXCHANGE_SHARED_BUFFERS 0
#endif

/** Everything the timed exchange needs, allocated once: buffers, a message pointer per operation, requests. */
typedef struct {
  const program_t *prog;
  unsigned char *bufs[3]; /* send, recv, scratch */
  unsigned char *staging; /* messages of more than one piece are gathered / scattered here */
  unsigned char **msg;    /* per operation: its contiguous message (a piece in place, or a staging slot) */
  MPI_Request *reqs;
  MPI_Datatype elem; /* the messages' datatype: elementBytes contiguous bytes, or MPI_BYTE (shared buffers) */
  int64_t scale;     /* a count in elem: elements times scale (1, or elementBytes for MPI_BYTE) */
  int has_elem;
  int baseline_ok; /* every MPI_Alltoallv count and displacement fits an int */
  int shared;      /* the data buffers (send, recv, scratch, staging) come from SMPI_SHARED_MALLOC */
  int *scounts, *sdispls, *rcounts, *rdispls; /* the baseline's MPI_Alltoallv arguments, in elements */
  /* Dataflow programs: dependency counts, the reverse edges, the ready queues and the active requests' operations. */
  int64_t *pending0, *pending, *rev_start, *rev, *ready_recv, *ready_other, *req_op;
  int *indices;
} exchange_t;

/**
 * Allocates the buffers and plans the message memory; returns 0, or -1 with a message in err. With shared set (only
 * built with smpicc: EXCHANGE_SHARED_BUFFERS) the data buffers come from SMPI_SHARED_MALLOC: every rank's map the same
 * few physical pages, so their contents are garbage and the times are SMPI's as with private buffers.
 */
int exchange_init(exchange_t *ex, const program_t *prog, int shared, char *err, size_t errlen);

/** Runs the program once; returns an MPI error code. */
int exchange_run(exchange_t *ex);

/** Runs MPI_Alltoallv once on the program's layout; returns an MPI error code. */
int exchange_alltoallv(exchange_t *ex);

/** Frees what exchange_init allocated. */
void exchange_free(exchange_t *ex);

#endif
