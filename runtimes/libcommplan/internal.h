/* internal.h: the plan and binding structures shared by plan.c and the interposer (interpose.c). */
#ifndef COMMPLAN_INTERNAL_H
#define COMMPLAN_INTERNAL_H

#include "../executor/program.h"
#include "commplan.h"

/** Where a segment lives: the user's send or receive buffer, the plan's scratch, or the private packed send copy. */
enum { SIDE_SEND = 0, SIDE_RECV = 1, SIDE_SCRATCH = 2, SIDE_PACKED_SEND = 3 };

/** Bytes [off, off+bytes) of one side. */
typedef struct {
  int side;
  int64_t off, bytes;
} seg_t;

/** A program bound to a pair of displacement arrays: the segments of every operation, staging and requests. */
typedef struct {
  int *sdispls, *rdispls; /* the displacements it was bound to (the cache compares them) */
  seg_t *segs;
  int64_t nsegs;
  int64_t *first, *first2; /* per operation i: [2i] first segment, [2i+1] how many (first2: a copy's destination) */
  int64_t *msg_off;        /* per operation: its staging offset, or -1 when its message is its one segment */
  unsigned char *staging;
  MPI_Request *reqs;
  /* Dataflow programs: per operation its dependencies left, the ready queues, each active request's operation. */
  int64_t *pending, *ready_recv, *ready_other, *req_op;
  int *indices; /* MPI_Waitsome's completed slots */
  int private_send;           /* the program writes its send buffer: it runs on packed_send */
  unsigned char *packed_send; /* the user's send blocks packed, when private_send */
} binding_t;

struct commplan_plan {
  program_t prog;
  MPI_Comm comm;      /* the duplicate the plan's messages use */
  MPI_Comm user_comm; /* the communicator the plan was loaded for */
  int rank;
  unsigned char *scratch;
  /* Dataflow programs (built at load): each operation's dependency count, and who waits for operation i:
   * rev[rev_start[i] .. rev_start[i+1]). */
  int64_t *pending0, *rev_start, *rev;
  binding_t cached; /* commplan_alltoallv's binding for the last displacements seen */
  char msg[512];
};

/** One run of a bound program: the base address of each side, and where the run stands. */
typedef struct {
  commplan_plan *plan;
  binding_t *b;
  unsigned char *base[4];
  int64_t next, round_end;
  int nreq; /* requests posted (dataflow: active, in b->reqs[0 .. nreq)) */
  int64_t recv_head, recv_tail, other_head, other_tail, done; /* dataflow: the ready queues, operations done */
} run_t;

/** Reads this rank's part of a plan (commplan_plan_load without its agreement): null with a message in err. Local. */
commplan_plan *commplan_plan_read(const char *dir, MPI_Comm comm, char *err, size_t errlen);
/** Gives a read plan, once every rank has read its part, its duplicate of comm (collective). */
void commplan_plan_attach(commplan_plan *plan, MPI_Comm comm);
int commplan_bind(commplan_plan *plan, binding_t *b, const int *sdispls, const int *rdispls);
void commplan_unbind(binding_t *b);
int commplan_run_start(run_t *r);
int commplan_run_wait(run_t *r);
int commplan_contiguous(MPI_Datatype t, int64_t *size);
const char *commplan_local_mismatch(const commplan_plan *plan, const void *sendbuf, const int *scounts,
                                    MPI_Datatype sendtype, const int *rcounts, MPI_Datatype recvtype);
/** Runs the plan once without the collective agreement (the caller agreed, as the interposer's key does). */
int commplan_run_agreed(commplan_plan *plan, const void *sendbuf, const int *sdispls, void *recvbuf,
                        const int *rdispls);

#endif
