/*
 * plan.c: a rank's program bound to the application's buffers. The program's send and receive buffers are
 * MPI_Alltoallv's packed layout; binding translates every piece into segments of the user's buffers (split at block
 * boundaries), so messages of one segment go straight from / into the user's memory and the others through staging.
 * A nonblocking program runs round by round (Waitall), a blocking one in program order, a dataflow one from ready
 * queues (every operation posted once those it waits for have completed, receives first; MPI_Waitsome).
 */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failf(commplan_plan *plan, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(plan->msg, sizeof plan->msg, fmt, ap);
  va_end(ap);
  return code;
}

static size_t at_least_one(int64_t n) { return (size_t)(n > 0 ? n : 1); }

const char *commplan_plan_message(const commplan_plan *plan) { return plan == NULL ? "no plan" : plan->msg; }

const char *commplan_plan_algorithm(const commplan_plan *plan) { return plan == NULL ? "" : plan->prog.algorithm; }

/* Checks what binding relies on beyond program_load's checks: operation counts and message sizes fit an int. */
static int check_program(const program_t *prog, char *err, size_t errlen) {
  if (prog->nops > INT_MAX) { /* a run's requests are counted in an int (MPI_Waitall, MPI_Waitsome) */
    snprintf(err, errlen, "the program has more than %d operations", INT_MAX);
    return -1;
  }
  for (int64_t i = 0; i < prog->nops; i++) {
    if (prog->ops[i].kind != OP_COPY && prog->ops[i].count > INT_MAX / prog->element_bytes) {
      snprintf(err, errlen, "operation %lld sends more than %d bytes", (long long)i, INT_MAX);
      return -1;
    }
  }
  for (int j = 0; j < prog->p; j++) {
    if (prog->send_counts[j] > INT_MAX || prog->recv_counts[j] > INT_MAX) {
      snprintf(err, errlen, "the block of rank %d holds more than %d elements", j, INT_MAX);
      return -1;
    }
  }
  return 0;
}

/* The dataflow tables of a program: dependency counts and the reverse edges (who waits for each operation). */
static int dataflow_tables(commplan_plan *plan, char *err, size_t errlen) {
  const program_t *prog = &plan->prog;
  size_t n = at_least_one(prog->nops);
  plan->pending0 = calloc(n, sizeof(int64_t));
  plan->rev_start = calloc(n + 1, sizeof(int64_t));
  plan->rev = malloc(at_least_one(prog->nafter) * sizeof(int64_t));
  int64_t *cursor = malloc(n * sizeof(int64_t));
  if (!plan->pending0 || !plan->rev_start || !plan->rev || !cursor) {
    free(cursor);
    snprintf(err, errlen, "commplan_plan_load: out of memory for the dataflow tables");
    return -1;
  }
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    plan->pending0[i] = op->after_n;
    for (int64_t k = op->after_first; k < op->after_first + op->after_n; k++) plan->rev_start[prog->after[k] + 1]++;
  }
  for (int64_t i = 0; i < prog->nops; i++) plan->rev_start[i + 1] += plan->rev_start[i];
  for (int64_t i = 0; i < prog->nops; i++) cursor[i] = plan->rev_start[i];
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    for (int64_t k = op->after_first; k < op->after_first + op->after_n; k++) plan->rev[cursor[prog->after[k]]++] = i;
  }
  free(cursor);
  return 0;
}

static void free_tables(commplan_plan *plan) {
  free(plan->pending0);
  free(plan->rev_start);
  free(plan->rev);
  plan->pending0 = plan->rev_start = plan->rev = NULL;
}

commplan_plan *commplan_plan_read(const char *dir, MPI_Comm comm, char *err, size_t errlen) {
  int p, rank;
  if (dir == NULL || PMPI_Comm_size(comm, &p) != MPI_SUCCESS || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS) {
    snprintf(err, errlen, "commplan_plan_load: a directory and a valid communicator are needed");
    return NULL;
  }
  commplan_plan *plan = calloc(1, sizeof *plan);
  if (plan == NULL) {
    snprintf(err, errlen, "commplan_plan_load: out of memory");
    return NULL;
  }
  plan->comm = MPI_COMM_NULL;
  plan->rank = rank;
  plan->prog.p = p;
  int ok = 0;
  if (program_load(dir, rank, &plan->prog, err, errlen) == 0 && check_program(&plan->prog, err, errlen) == 0) {
    plan->scratch = calloc(at_least_one(plan->prog.scratch * plan->prog.element_bytes), 1);
    if (plan->scratch == NULL) snprintf(err, errlen, "commplan_plan_load: out of memory for the scratch buffer");
    ok = plan->scratch != NULL;
    if (ok && plan->prog.variant == VARIANT_DATAFLOW && dataflow_tables(plan, err, errlen) != 0) ok = 0;
  }
  if (!ok) {
    commplan_plan_free(plan);
    return NULL;
  }
  return plan;
}

void commplan_plan_attach(commplan_plan *plan, MPI_Comm comm) {
  PMPI_Comm_dup(comm, &plan->comm);
  plan->user_comm = comm;
}

int commplan_plan_load(const char *dir, MPI_Comm comm, commplan_plan **out, char *err, size_t errlen) {
  *out = NULL;
  int p, inter = 0;
  if (PMPI_Comm_size(comm, &p) != MPI_SUCCESS) {
    snprintf(err, errlen, "commplan_plan_load: a valid communicator is needed");
    return COMMPLAN_ERR_ARG;
  }
  /* an intercommunicator's MPI_Alltoallv exchanges with the remote group: a plan's ranks are one group's (every rank
   * of it sees the same, so every rank returns here) */
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) {
    snprintf(err, errlen, "commplan_plan_load: an intercommunicator (a plan runs on an intracommunicator)");
    return COMMPLAN_ERR_ARG;
  }
  /* a rank without a directory still takes part in the agreement, so that the others return instead of waiting */
  if (dir == NULL) snprintf(err, errlen, "commplan_plan_load: a directory is needed");
  commplan_plan *plan = dir == NULL ? NULL : commplan_plan_read(dir, comm, err, errlen);
  int ok = plan != NULL, all = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (!all) {
    if (ok) snprintf(err, errlen, "commplan_plan_load: another rank could not load the plan");
    commplan_plan_free(plan);
    return dir == NULL ? COMMPLAN_ERR_ARG : COMMPLAN_ERR_LOAD;
  }
  commplan_plan_attach(plan, comm);
  *out = plan;
  return COMMPLAN_OK;
}

static void binding_free(binding_t *b) {
  free(b->sdispls);
  free(b->rdispls);
  free(b->segs);
  free(b->first);
  free(b->first2);
  free(b->msg_off);
  free(b->staging);
  free(b->reqs);
  free(b->pending);
  free(b->ready_recv);
  free(b->ready_other);
  free(b->req_op);
  free(b->indices);
  free(b->packed_send);
  memset(b, 0, sizeof *b);
}

void commplan_plan_free(commplan_plan *plan) {
  if (plan == NULL) return;
  binding_free(&plan->cached);
  free_tables(plan);
  program_free(&plan->prog);
  free(plan->scratch);
  if (plan->comm != MPI_COMM_NULL) PMPI_Comm_free(&plan->comm);
  free(plan);
}

/* Blocks of one side sorted by their packed displacement, for the translation of packed offsets. */
typedef struct {
  int64_t displ, count;
  int j;
} block_t;

static int by_displ(const void *a, const void *b) {
  int64_t x = ((const block_t *)a)->displ, y = ((const block_t *)b)->displ;
  return x < y ? -1 : x > y;
}

typedef struct {
  block_t *blocks;
  int n;
  const int *udispls; /* the user's displacements (elements), or null: the packed layout itself */
  int side;
} side_map_t;

static int side_map_init(side_map_t *m, const int64_t *counts, const int64_t *displs, int p, const int *udispls,
                         int side) {
  m->blocks = malloc(sizeof(block_t) * (size_t)(p > 0 ? p : 1));
  if (m->blocks == NULL) return -1;
  m->n = 0;
  for (int j = 0; j < p; j++) {
    if (counts[j] > 0) m->blocks[m->n++] = (block_t){displs[j], counts[j], j};
  }
  qsort(m->blocks, (size_t)m->n, sizeof(block_t), by_displ);
  m->udispls = udispls;
  m->side = side;
  return 0;
}

/* Appends the segments of piece [o, o+c) (elements) of a side; returns 0, or -1 when it leaves the blocks. */
static int translate(binding_t *b, const side_map_t *m, int64_t o, int64_t c, int64_t eb, int64_t *cap) {
  int lo = 0, hi = m->n - 1, k = -1;
  while (lo <= hi) { /* the last block starting at or before o */
    int mid = (lo + hi) / 2;
    if (m->blocks[mid].displ <= o) k = mid, lo = mid + 1;
    else hi = mid - 1;
  }
  while (c > 0) {
    if (k < 0 || k >= m->n || o < m->blocks[k].displ || o >= m->blocks[k].displ + m->blocks[k].count) return -1;
    const block_t *bl = &m->blocks[k];
    int64_t n = bl->displ + bl->count - o < c ? bl->displ + bl->count - o : c;
    if (b->nsegs == *cap) {
      *cap *= 2;
      seg_t *grown = realloc(b->segs, sizeof(seg_t) * (size_t)*cap);
      if (grown == NULL) return -2;
      b->segs = grown;
    }
    int64_t base = m->udispls == NULL ? bl->displ : (int64_t)m->udispls[bl->j];
    b->segs[b->nsegs++] = (seg_t){m->side, (base + (o - bl->displ)) * eb, n * eb};
    o += n, c -= n, k++;
  }
  return 0;
}

/* The segments of pieces [first, first+n) of the program. */
static int translate_pieces(binding_t *b, const program_t *prog, const side_map_t maps[2], int64_t first, int64_t n,
                            int64_t *cap) {
  for (int64_t k = first; k < first + n; k++) {
    const piece_t *pc = &prog->pieces[k];
    int rc;
    if (pc->buf == BUF_SCRATCH) {
      side_map_t scratch = {NULL, 0, NULL, SIDE_SCRATCH};
      block_t whole = {0, prog->scratch, 0};
      scratch.blocks = &whole, scratch.n = 1;
      rc = translate(b, &scratch, pc->offset, pc->count, prog->element_bytes, cap);
    } else {
      rc = translate(b, &maps[pc->buf], pc->offset, pc->count, prog->element_bytes, cap);
    }
    if (rc != 0) return rc;
  }
  return 0;
}

/* Whether any operation writes the send buffer (a receive or a copy into it): then a private packed copy is used. */
static int writes_send(const program_t *prog) {
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    int64_t first = op->kind == OP_COPY ? op->first2 : op->first, n = op->kind == OP_COPY ? op->n2 : op->n;
    if (op->kind == OP_SEND) continue;
    for (int64_t k = first; k < first + n; k++) {
      if (prog->pieces[k].buf == BUF_SEND) return 1;
    }
  }
  return 0;
}

/*
 * Staging: each round's multi-segment messages get their own slots; the arena is the largest round's total. A
 * dataflow program has no round barrier, so every multi-segment message gets its own slot (the rounds never reset).
 */
static int plan_staging(binding_t *b, const program_t *prog) {
  int64_t eb = prog->element_bytes, arena = 0, used = 0, round = -1;
  int dataflow = prog->variant == VARIANT_DATAFLOW;
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    if (op->round != round && !dataflow) used = 0, round = op->round;
    b->msg_off[i] = -1;
    if (op->kind == OP_COPY || b->first[2 * i + 1] == 1) continue;
    b->msg_off[i] = used;
    used += op->count * eb;
    if (used > arena) arena = used;
  }
  b->staging = malloc(at_least_one(arena));
  return b->staging == NULL ? -1 : 0;
}

/* Binds the program to the user's displacements (elements of the plan's element); 0, or a COMMPLAN_ code. */
int commplan_bind(commplan_plan *plan, binding_t *b, const int *sdispls, const int *rdispls) {
  const program_t *prog = &plan->prog;
  int p = prog->p;
  memset(b, 0, sizeof *b);
  b->private_send = writes_send(prog);
  int64_t cap = 64;
  side_map_t maps[2] = {{0}, {0}};
  b->sdispls = malloc(sizeof(int) * (size_t)p);
  b->rdispls = malloc(sizeof(int) * (size_t)p);
  b->segs = malloc(sizeof(seg_t) * (size_t)cap);
  b->first = malloc(sizeof(int64_t) * 2 * at_least_one(prog->nops));
  b->first2 = malloc(sizeof(int64_t) * 2 * at_least_one(prog->nops));
  b->msg_off = malloc(sizeof(int64_t) * at_least_one(prog->nops));
  b->reqs = malloc(sizeof(MPI_Request) * at_least_one(prog->nops));
  if (b->private_send) b->packed_send = malloc(at_least_one(prog->send_size * prog->element_bytes));
  int dataflow = prog->variant == VARIANT_DATAFLOW;
  if (dataflow) {
    size_t n = at_least_one(prog->nops);
    b->pending = malloc(n * sizeof(int64_t));
    b->ready_recv = malloc(n * sizeof(int64_t));
    b->ready_other = malloc(n * sizeof(int64_t));
    b->req_op = malloc(n * sizeof(int64_t));
    b->indices = malloc(n * sizeof(int));
  }
  int rc = COMMPLAN_ERR_NOMEM;
  if (!b->sdispls || !b->rdispls || !b->segs || !b->first || !b->first2 || !b->msg_off || !b->reqs ||
      (dataflow && (!b->pending || !b->ready_recv || !b->ready_other || !b->req_op || !b->indices)) ||
      (b->private_send && !b->packed_send) ||
      side_map_init(&maps[0], prog->send_counts, prog->send_displs, p, b->private_send ? NULL : sdispls,
                    b->private_send ? SIDE_PACKED_SEND : SIDE_SEND) != 0 ||
      side_map_init(&maps[1], prog->recv_counts, prog->recv_displs, p, rdispls, SIDE_RECV) != 0) {
    failf(plan, rc, "out of memory binding the plan");
    goto done;
  }
  memcpy(b->sdispls, sdispls, sizeof(int) * (size_t)p);
  memcpy(b->rdispls, rdispls, sizeof(int) * (size_t)p);
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    int64_t s0 = b->nsegs;
    int t = translate_pieces(b, prog, maps, op->first, op->n, &cap);
    int64_t s1 = b->nsegs;
    if (t == 0 && op->kind == OP_COPY) t = translate_pieces(b, prog, maps, op->first2, op->n2, &cap);
    if (t != 0) {
      rc = t == -2 ? COMMPLAN_ERR_NOMEM : COMMPLAN_ERR_LOAD;
      failf(plan, rc, t == -2 ? "out of memory binding the plan" : "operation %lld has a piece outside every block",
            (long long)i);
      goto done;
    }
    b->first[2 * i] = s0, b->first[2 * i + 1] = s1 - s0, b->first2[2 * i] = s1, b->first2[2 * i + 1] = b->nsegs - s1;
  }
  if (plan_staging(b, prog) != 0) {
    failf(plan, rc, "out of memory for the staging buffer");
    goto done;
  }
  rc = COMMPLAN_OK;
done:
  free(maps[0].blocks);
  free(maps[1].blocks);
  if (rc != COMMPLAN_OK) binding_free(b);
  return rc;
}

void commplan_unbind(binding_t *b) { binding_free(b); }

static unsigned char *seg_ptr(const run_t *r, const seg_t *s) { return r->base[s->side] + s->off; }

/* Gathers segments [first, first+n) into out. */
static void gather(const run_t *r, int64_t first, int64_t n, unsigned char *out) {
  for (int64_t k = first; k < first + n; k++) {
    const seg_t *s = &r->b->segs[k];
    memcpy(out, seg_ptr(r, s), (size_t)s->bytes);
    out += s->bytes;
  }
}

static void scatter(const run_t *r, int64_t first, int64_t n, const unsigned char *in) {
  for (int64_t k = first; k < first + n; k++) {
    const seg_t *s = &r->b->segs[k];
    memcpy(seg_ptr(r, s), in, (size_t)s->bytes);
    in += s->bytes;
  }
}

/* A local copy: walks the source and destination segments together. */
static void copy(const run_t *r, int64_t i) {
  const binding_t *b = r->b;
  int64_t s = b->first[2 * i], se = s + b->first[2 * i + 1], d = b->first2[2 * i], de = d + b->first2[2 * i + 1];
  int64_t s_used = 0, d_used = 0;
  while (s < se && d < de) {
    const seg_t *sp = &b->segs[s], *dp = &b->segs[d];
    int64_t n = sp->bytes - s_used < dp->bytes - d_used ? sp->bytes - s_used : dp->bytes - d_used;
    memmove(seg_ptr(r, dp) + d_used, seg_ptr(r, sp) + s_used, (size_t)n);
    s_used += n, d_used += n;
    if (s_used == sp->bytes) s++, s_used = 0;
    if (d_used == dp->bytes) d++, d_used = 0;
  }
}

/* The message memory of operation i: its one segment in place, or its staging slot. */
static unsigned char *msg_of(const run_t *r, int64_t i) {
  const binding_t *b = r->b;
  if (b->msg_off[i] < 0) return seg_ptr(r, &b->segs[b->first[2 * i]]);
  return b->staging + b->msg_off[i];
}

static int mpi_fail(commplan_plan *plan, int mpi_rc, const char *what) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (PMPI_Error_string(mpi_rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "error %d", mpi_rc);
  return failf(plan, COMMPLAN_ERR_MPI, "%s failed: %s", what, text);
}

/* Posts round [a, b) of a nonblocking program: copies, receives, sends. */
static int post_round(run_t *r, int64_t a, int64_t e) {
  const program_t *prog = &r->plan->prog;
  const op_t *ops = prog->ops;
  int64_t eb = prog->element_bytes;
  int rc;
  r->nreq = 0;
  for (int64_t i = a; i < e; i++) {
    if (ops[i].kind == OP_COPY) copy(r, i);
  }
  for (int64_t i = a; i < e; i++) {
    if (ops[i].kind != OP_RECV) continue;
    rc = MPI_Irecv(msg_of(r, i), (int)(ops[i].count * eb), MPI_BYTE, ops[i].peer, ops[i].tag, r->plan->comm,
                   &r->b->reqs[r->nreq++]);
    if (rc != MPI_SUCCESS) return mpi_fail(r->plan, rc, "MPI_Irecv");
  }
  for (int64_t i = a; i < e; i++) {
    if (ops[i].kind != OP_SEND) continue;
    if (r->b->msg_off[i] >= 0) gather(r, r->b->first[2 * i], r->b->first[2 * i + 1], msg_of(r, i));
    rc = MPI_Isend(msg_of(r, i), (int)(ops[i].count * eb), MPI_BYTE, ops[i].peer, ops[i].tag, r->plan->comm,
                   &r->b->reqs[r->nreq++]);
    if (rc != MPI_SUCCESS) return mpi_fail(r->plan, rc, "MPI_Isend");
  }
  return COMMPLAN_OK;
}

/* Completes a posted round [a, b): wait, then scatter the staged receives. */
static int finish_round(run_t *r, int64_t a, int64_t e) {
  int rc = MPI_Waitall(r->nreq, r->b->reqs, MPI_STATUSES_IGNORE);
  r->nreq = 0;
  if (rc != MPI_SUCCESS) return mpi_fail(r->plan, rc, "MPI_Waitall");
  const op_t *ops = r->plan->prog.ops;
  for (int64_t i = a; i < e; i++) {
    if (ops[i].kind == OP_RECV && r->b->msg_off[i] >= 0) {
      scatter(r, r->b->first[2 * i], r->b->first[2 * i + 1], msg_of(r, i));
    }
  }
  return COMMPLAN_OK;
}

/* One operation of a blocking program, in program order. */
static int run_blocking(run_t *r, int64_t i) {
  const program_t *prog = &r->plan->prog;
  const op_t *op = &prog->ops[i];
  int count = (int)(op->count * prog->element_bytes), rc;
  if (op->kind == OP_COPY) {
    copy(r, i);
    return COMMPLAN_OK;
  }
  if (op->kind == OP_SEND) {
    if (r->b->msg_off[i] >= 0) gather(r, r->b->first[2 * i], r->b->first[2 * i + 1], msg_of(r, i));
    rc = MPI_Send(msg_of(r, i), count, MPI_BYTE, op->peer, op->tag, r->plan->comm);
    return rc == MPI_SUCCESS ? COMMPLAN_OK : mpi_fail(r->plan, rc, "MPI_Send");
  }
  rc = MPI_Recv(msg_of(r, i), count, MPI_BYTE, op->peer, op->tag, r->plan->comm, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return mpi_fail(r->plan, rc, "MPI_Recv");
  if (r->b->msg_off[i] >= 0) scatter(r, r->b->first[2 * i], r->b->first[2 * i + 1], msg_of(r, i));
  return COMMPLAN_OK;
}

/* The end of the round that starts at operation a. */
static int64_t round_end(const program_t *prog, int64_t a) {
  int64_t e = a;
  while (e < prog->nops && prog->ops[e].round == prog->ops[a].round) e++;
  return e;
}

/* Dataflow: operation i is ready (its dependencies have completed); receives go to their own queue. */
static void ready(run_t *r, int64_t i) {
  if (r->plan->prog.ops[i].kind == OP_RECV) {
    r->b->ready_recv[r->recv_tail++] = i;
  } else {
    r->b->ready_other[r->other_tail++] = i;
  }
}

/* Dataflow: operation i has completed; every operation waiting for it has one dependency less. */
static void completed(run_t *r, int64_t i) {
  const commplan_plan *plan = r->plan;
  r->done++;
  for (int64_t k = plan->rev_start[i]; k < plan->rev_start[i + 1]; k++) {
    int64_t j = plan->rev[k];
    if (--r->b->pending[j] == 0) ready(r, j);
  }
}

/*
 * Dataflow: posts every ready operation, receives first; a send is gathered when posted, a copy is done at once (and
 * readies those waiting for it). The active requests are b->reqs[0 .. r->nreq), operation b->req_op[slot].
 */
static int post_ready(run_t *r) {
  const program_t *prog = &r->plan->prog;
  const op_t *ops = prog->ops;
  binding_t *b = r->b;
  int64_t eb = prog->element_bytes;
  int rc;
  while (r->recv_head < r->recv_tail || r->other_head < r->other_tail) {
    if (r->recv_head < r->recv_tail) {
      int64_t i = b->ready_recv[r->recv_head++];
      rc = MPI_Irecv(msg_of(r, i), (int)(ops[i].count * eb), MPI_BYTE, ops[i].peer, ops[i].tag, r->plan->comm,
                     &b->reqs[r->nreq]);
      if (rc != MPI_SUCCESS) return mpi_fail(r->plan, rc, "MPI_Irecv");
      b->req_op[r->nreq++] = i;
      continue;
    }
    int64_t i = b->ready_other[r->other_head++];
    if (ops[i].kind == OP_COPY) {
      copy(r, i);
      completed(r, i);
      continue;
    }
    if (b->msg_off[i] >= 0) gather(r, b->first[2 * i], b->first[2 * i + 1], msg_of(r, i));
    rc = MPI_Isend(msg_of(r, i), (int)(ops[i].count * eb), MPI_BYTE, ops[i].peer, ops[i].tag, r->plan->comm,
                   &b->reqs[r->nreq]);
    if (rc != MPI_SUCCESS) return mpi_fail(r->plan, rc, "MPI_Isend");
    b->req_op[r->nreq++] = i;
  }
  return COMMPLAN_OK;
}

static int compare_int_desc(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x < y) - (x > y);
}

/* Dataflow: the ready operations posted, then MPI_Waitsome (arrived receives scattered), until every one is done. */
static int run_dataflow(run_t *r) {
  const program_t *prog = &r->plan->prog;
  binding_t *b = r->b;
  for (;;) {
    int rc = post_ready(r);
    if (rc != COMMPLAN_OK) return rc;
    if (r->done == prog->nops) return COMMPLAN_OK;
    if (r->nreq == 0) return failf(r->plan, COMMPLAN_ERR_LOAD, "the program's dependencies form a cycle");
    int outcount = 0;
    rc = MPI_Waitsome(r->nreq, b->reqs, &outcount, b->indices, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) return mpi_fail(r->plan, rc, "MPI_Waitsome");
    if (outcount == MPI_UNDEFINED) return failf(r->plan, COMMPLAN_ERR_MPI, "MPI_Waitsome found no active request");
    /* Highest slot first: each completed slot takes the last active request, which is never a completed one. */
    qsort(b->indices, (size_t)outcount, sizeof(int), compare_int_desc);
    for (int k = 0; k < outcount; k++) {
      int slot = b->indices[k];
      int64_t i = b->req_op[slot];
      if (prog->ops[i].kind == OP_RECV && b->msg_off[i] >= 0) {
        scatter(r, b->first[2 * i], b->first[2 * i + 1], msg_of(r, i));
      }
      r->nreq--;
      b->reqs[slot] = b->reqs[r->nreq];
      b->req_op[slot] = b->req_op[r->nreq];
      completed(r, i);
    }
  }
}

/* Dataflow: every operation's dependencies reset and those with none queued (receives first), then posted. */
static int start_dataflow(run_t *r) {
  const program_t *prog = &r->plan->prog;
  memcpy(r->b->pending, r->plan->pending0, sizeof(int64_t) * at_least_one(prog->nops));
  r->recv_head = r->recv_tail = r->other_head = r->other_tail = r->done = 0;
  for (int64_t i = 0; i < prog->nops; i++) {
    if (r->b->pending[i] == 0) ready(r, i);
  }
  return post_ready(r);
}

int commplan_run_start(run_t *r) {
  const program_t *prog = &r->plan->prog;
  if (r->b->private_send) { /* the program writes its send buffer: it runs on a packed copy of the user's */
    for (int j = 0; j < prog->p; j++) {
      memcpy(r->b->packed_send + prog->send_displs[j] * prog->element_bytes,
             r->base[SIDE_SEND] + (int64_t)r->b->sdispls[j] * prog->element_bytes,
             (size_t)(prog->send_counts[j] * prog->element_bytes));
    }
  }
  r->next = 0;
  r->nreq = 0;
  if (prog->variant == VARIANT_DATAFLOW) return start_dataflow(r);
  if (prog->blocking || prog->nops == 0) return COMMPLAN_OK;
  r->round_end = round_end(prog, 0);
  return post_round(r, 0, r->round_end);
}

int commplan_run_wait(run_t *r) {
  const program_t *prog = &r->plan->prog;
  int rc = COMMPLAN_OK;
  if (prog->variant == VARIANT_DATAFLOW) return run_dataflow(r);
  if (prog->blocking) {
    for (int64_t i = 0; i < prog->nops && rc == COMMPLAN_OK; i++) rc = run_blocking(r, i);
    return rc;
  }
  for (int64_t a = 0; a < prog->nops && rc == COMMPLAN_OK;) {
    int64_t e = r->round_end;
    rc = finish_round(r, a, e);
    a = e;
    if (rc == COMMPLAN_OK && a < prog->nops) {
      r->round_end = round_end(prog, a);
      rc = post_round(r, a, r->round_end);
    }
  }
  return rc;
}

/* The deepest datatype constructor tree in_order walks (deeper: not provably in order). */
#define MAX_TYPE_DEPTH 16

/* Whether t is dense: lower bound and true lower bound 0, extent and true extent its size (no holes); its extent. */
static int dense(MPI_Datatype t, MPI_Aint *extent) {
  MPI_Aint lb, tlb, textent;
  int sz;
  if (PMPI_Type_size(t, &sz) != MPI_SUCCESS || PMPI_Type_get_extent(t, &lb, extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(t, &tlb, &textent) != MPI_SUCCESS) {
    return 0;
  }
  return lb == 0 && tlb == 0 && *extent == sz && textent == sz;
}

static int in_order(MPI_Datatype t, int depth);

/*
 * Whether the n blocks of a constructor (blocklengths bl, displacements disp in units of unit bytes, or in bytes when
 * unit is 0, each block of types[k] or of types[0] when one_type) follow each other from offset 0 with no gap or
 * overlap, every block type dense and in order. A block type that is the same handle as the last one checked is not
 * walked again (one_type: types[0] once, however many blocks), so each level's types are walked once.
 */
static int blocks_in_order(int n, const int *bl, const MPI_Aint *disp, MPI_Aint unit, const MPI_Datatype *types,
                           int one_type, int depth) {
  MPI_Aint at = 0, ext = 0;
  MPI_Datatype checked = MPI_DATATYPE_NULL; /* the last block type checked (its extent in ext) */
  for (int k = 0; k < n; k++) {
    MPI_Datatype tk = types[one_type ? 0 : k];
    if (bl[k] < 0) return 0;
    if (bl[k] == 0) continue;
    if (tk != checked) {
      if (!dense(tk, &ext) || !in_order(tk, depth + 1)) return 0;
      checked = tk;
    }
    if ((unit == 0 ? disp[k] : disp[k] * unit) != at) return 0;
    at += (MPI_Aint)bl[k] * ext;
  }
  return 1;
}

/*
 * Whether a type of this combiner is predefined: MPI_COMBINER_NAMED, or a type of MPI_Type_create_f90_real / _complex
 * / _integer (the MPI standard's "Decoding a Datatype": those are predefined although their combiner is
 * MPI_COMBINER_F90_*, and cannot be freed).
 */
static int predefined_combiner(int combiner) {
  return combiner == MPI_COMBINER_NAMED || combiner == MPI_COMBINER_F90_REAL ||
         combiner == MPI_COMBINER_F90_COMPLEX || combiner == MPI_COMBINER_F90_INTEGER;
}

/* Whether t is predefined (predefined_combiner); a type whose envelope cannot be read counts as one (never freed). */
static int predefined(MPI_Datatype t) {
  int ni, na, nd, combiner;
  return PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS || predefined_combiner(combiner);
}

/*
 * Frees the datatypes MPI_Type_get_contents returned that are derived (the standard makes the user free those); a
 * predefined one, named or F90, is returned as itself and must not be freed (Open MPI: MPI_ERR_TYPE, fatal).
 */
static void free_contents(MPI_Datatype *types, int n) {
  for (int k = 0; k < n; k++) {
    if (!predefined(types[k])) PMPI_Type_free(&types[k]);
  }
}

/*
 * Whether t's typemap is in memory order from offset 0 with no holes: a named type that is dense, or a constructor
 * (dup, contiguous, vector, hvector, indexed, hindexed, indexed block, hindexed block, struct, resized to its own
 * bounds) of such types whose blocks follow each other. Anything else (a reordering, a gap, subarray, darray, a tree
 * deeper than MAX_TYPE_DEPTH, an MPI call that fails) is not provably in order: 0. MPI_Type_get_envelope alone
 * answers for a predefined type (named, or an F90 one of MPI_Type_create_f90_*: in order when dense). Each level's
 * types are walked once (the walk is linear in the tree, not exponential in its depth).
 */
static int in_order(MPI_Datatype t, int depth) {
  int ni, na, nd, combiner;
  if (depth > MAX_TYPE_DEPTH || PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS) return 0;
  MPI_Aint ext;
  if (predefined_combiner(combiner)) return dense(t, &ext); /* an F90 type too: its contents hold no datatype */
  int *ints = malloc(sizeof(int) * (size_t)(ni + 1));
  MPI_Aint *addrs = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
  MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
  int ok = ints != NULL && addrs != NULL && types != NULL && nd >= 1 &&
           PMPI_Type_get_contents(t, ni, na, nd, ints, addrs, types) == MPI_SUCCESS;
  int got = ok;
  if (ok) {
    /* types[0]'s extent; for the one-type constructors (dup, contiguous, vector, hvector, resized) whether it is dense
       and in order, walked here once; the block forms walk their types in blocks_in_order instead */
    MPI_Aint cext = 0, clb;
    int child = 0;
    switch (combiner) {
      case MPI_COMBINER_DUP:
      case MPI_COMBINER_CONTIGUOUS:
      case MPI_COMBINER_VECTOR:
      case MPI_COMBINER_HVECTOR:
      case MPI_COMBINER_RESIZED:
        child = dense(types[0], &cext) && in_order(types[0], depth + 1);
        break;
      default:
        if (PMPI_Type_get_extent(types[0], &clb, &cext) != MPI_SUCCESS) ok = 0;
    }
    switch (ok ? combiner : MPI_COMBINER_NAMED) {
      case MPI_COMBINER_DUP:
      case MPI_COMBINER_CONTIGUOUS: /* count, type */
        ok = child;
        break;
      case MPI_COMBINER_VECTOR: /* count, blocklength, stride (elements) */
        ok = child && (ints[0] <= 1 || ints[2] == ints[1]);
        break;
      case MPI_COMBINER_HVECTOR: /* count, blocklength; stride (bytes) */
        ok = child && (ints[0] <= 1 || addrs[0] == (MPI_Aint)ints[1] * cext);
        break;
      case MPI_COMBINER_INDEXED: /* count, blocklengths[count], displacements[count] (elements) */
      case MPI_COMBINER_INDEXED_BLOCK: /* count, blocklength, displacements[count] (elements) */ {
        int n = ints[0], block = combiner == MPI_COMBINER_INDEXED_BLOCK;
        int *bl = malloc(sizeof(int) * (size_t)(n + 1));
        MPI_Aint *disp = malloc(sizeof(MPI_Aint) * (size_t)(n + 1));
        ok = bl != NULL && disp != NULL;
        for (int k = 0; ok && k < n; k++) {
          bl[k] = block ? ints[1] : ints[1 + k];
          disp[k] = block ? ints[2 + k] : ints[1 + n + k];
        }
        ok = ok && blocks_in_order(n, bl, disp, cext, types, 1, depth);
        free(bl), free(disp);
        break;
      }
      case MPI_COMBINER_HINDEXED: /* count, blocklengths[count]; displacements[count] (bytes) */
      case MPI_COMBINER_HINDEXED_BLOCK: /* count, blocklength; displacements[count] (bytes) */ {
        int n = ints[0], block = combiner == MPI_COMBINER_HINDEXED_BLOCK;
        int *bl = malloc(sizeof(int) * (size_t)(n + 1));
        ok = bl != NULL;
        for (int k = 0; ok && k < n; k++) bl[k] = block ? ints[1] : ints[1 + k];
        ok = ok && blocks_in_order(n, bl, addrs, 0, types, 1, depth);
        free(bl);
        break;
      }
      case MPI_COMBINER_STRUCT: /* count, blocklengths[count]; displacements[count] (bytes); types[count] */
        ok = blocks_in_order(ints[0], ints + 1, addrs, 0, types, 0, depth);
        break;
      case MPI_COMBINER_RESIZED: /* lb, extent (bytes): only to the type's own bounds */
        ok = child && addrs[0] == 0 && addrs[1] == cext;
        break;
      default: /* subarray, darray, ...: not walked (MPI_COMBINER_NAMED here: types[0]'s extent could not be read) */
        ok = 0;
    }
  }
  if (got) free_contents(types, nd);
  free(ints), free(addrs), free(types);
  return ok;
}

/*
 * Whether a datatype's bytes are its elements' in memory order: no holes, lower bound 0, and a typemap that does not
 * reorder (in_order: a type that swaps its elements has no holes, but MPI moves them swapped); its size in *size.
 */
int commplan_contiguous(MPI_Datatype t, int64_t *size) {
  MPI_Aint extent;
  int sz;
  if (PMPI_Type_size(t, &sz) != MPI_SUCCESS) return 0;
  *size = sz;
  return sz > 0 && dense(t, &extent) && in_order(t, 0);
}

/* Why this rank's call cannot run the plan (a static string), or null when it can. */
const char *commplan_local_mismatch(const commplan_plan *plan, const void *sendbuf, const int *scounts,
                                    MPI_Datatype sendtype, const int *rcounts, MPI_Datatype recvtype) {
  const program_t *prog = &plan->prog;
  int64_t ss, rs;
  if (sendbuf == MPI_IN_PLACE) return "in place (MPI_IN_PLACE)";
  if (!commplan_contiguous(sendtype, &ss) || !commplan_contiguous(recvtype, &rs)) return "datatype not contiguous";
  if (ss != prog->element_bytes || rs != prog->element_bytes) return "datatype size differs from the plan's element";
  for (int j = 0; j < prog->p; j++) {
    if (scounts[j] != prog->send_counts[j] || rcounts[j] != prog->recv_counts[j]) return "counts differ from the plan";
  }
  return NULL;
}

/* Every rank learns whether every rank can run the plan; the reason (this rank's, or another's) in plan->msg. */
static int agree(commplan_plan *plan, const char *why) {
  int ok = why == NULL, all = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, plan->user_comm);
  if (all) return 1;
  failf(plan, COMMPLAN_FALLBACK, "%s", why != NULL ? why : "another rank's call does not fit the plan");
  return 0;
}

/* The bound segments for these displacements: the cached binding when they match, else a new one. */
static int bind_cached(commplan_plan *plan, const int *sdispls, const int *rdispls) {
  binding_t *b = &plan->cached;
  size_t n = sizeof(int) * (size_t)plan->prog.p;
  if (b->segs != NULL && memcmp(b->sdispls, sdispls, n) == 0 && memcmp(b->rdispls, rdispls, n) == 0) return COMMPLAN_OK;
  if (b->segs != NULL) commplan_unbind(b);
  return commplan_bind(plan, b, sdispls, rdispls);
}

int commplan_run_agreed(commplan_plan *plan, const void *sendbuf, const int *sdispls, void *recvbuf,
                        const int *rdispls) {
  int rc = bind_cached(plan, sdispls, rdispls);
  if (rc != COMMPLAN_OK) return rc;
  unsigned char *sb = (unsigned char *)sendbuf; /* read only: the send side is never written */
  run_t r = {.plan = plan, .b = &plan->cached, .base = {sb, recvbuf, plan->scratch, plan->cached.packed_send}};
  rc = commplan_run_start(&r);
  if (rc == COMMPLAN_OK) rc = commplan_run_wait(&r);
  return rc;
}

static int check_comm(commplan_plan *plan, MPI_Comm comm) {
  if (plan == NULL) return COMMPLAN_ERR_ARG;
  if (comm != plan->user_comm) return failf(plan, COMMPLAN_ERR_ARG, "the communicator is not the plan's");
  return COMMPLAN_OK;
}

int commplan_alltoallv(commplan_plan *plan, const void *sendbuf, const int *scounts, const int *sdispls,
                       MPI_Datatype sendtype, void *recvbuf, const int *rcounts, const int *rdispls,
                       MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = check_comm(plan, comm);
  if (rc != COMMPLAN_OK) return rc;
  if (!agree(plan, commplan_local_mismatch(plan, sendbuf, scounts, sendtype, rcounts, recvtype))) {
    rc = PMPI_Alltoallv(sendbuf, scounts, sdispls, sendtype, recvbuf, rcounts, rdispls, recvtype, comm);
    return rc == MPI_SUCCESS ? COMMPLAN_FALLBACK : mpi_fail(plan, rc, "PMPI_Alltoallv");
  }
  return commplan_run_agreed(plan, sendbuf, sdispls, recvbuf, rdispls);
}

struct commplan_request {
  commplan_plan *plan;
  binding_t b;
  run_t r;
  int fallback, started;
  const void *sendbuf;
  void *recvbuf;
  const int *scounts, *sdispls, *rcounts, *rdispls;
  MPI_Datatype sendtype, recvtype;
};

int commplan_alltoallv_init(commplan_plan *plan, const void *sendbuf, const int *scounts, const int *sdispls,
                            MPI_Datatype sendtype, void *recvbuf, const int *rcounts, const int *rdispls,
                            MPI_Datatype recvtype, MPI_Comm comm, commplan_request **out) {
  *out = NULL;
  int rc = check_comm(plan, comm);
  if (rc != COMMPLAN_OK) return rc;
  commplan_request *req = calloc(1, sizeof *req);
  if (req == NULL) return failf(plan, COMMPLAN_ERR_NOMEM, "out of memory for the request");
  *req = (commplan_request){plan,    {0},     {0},     0,       0,        sendbuf, recvbuf,
                            scounts, sdispls, rcounts, rdispls, sendtype, recvtype};
  if (!agree(plan, commplan_local_mismatch(plan, sendbuf, scounts, sendtype, rcounts, recvtype))) {
    req->fallback = 1;
    *out = req;
    return COMMPLAN_FALLBACK;
  }
  rc = commplan_bind(plan, &req->b, sdispls, rdispls);
  if (rc != COMMPLAN_OK) {
    free(req);
    return rc;
  }
  unsigned char *sb = (unsigned char *)sendbuf; /* read only, as in commplan_run_agreed */
  req->r = (run_t){.plan = plan, .b = &req->b, .base = {sb, recvbuf, plan->scratch, req->b.packed_send}};
  *out = req;
  return COMMPLAN_OK;
}

int commplan_start(commplan_request *req) {
  if (req == NULL || req->started) return COMMPLAN_ERR_ARG;
  req->started = 1;
  if (req->fallback) return COMMPLAN_OK; /* the whole PMPI_Alltoallv runs in commplan_wait */
  return commplan_run_start(&req->r);
}

int commplan_wait(commplan_request *req) {
  if (req == NULL || !req->started) return COMMPLAN_ERR_ARG;
  req->started = 0;
  if (!req->fallback) return commplan_run_wait(&req->r);
  int rc = PMPI_Alltoallv(req->sendbuf, req->scounts, req->sdispls, req->sendtype, req->recvbuf, req->rcounts,
                          req->rdispls, req->recvtype, req->plan->user_comm);
  return rc == MPI_SUCCESS ? COMMPLAN_FALLBACK : mpi_fail(req->plan, rc, "PMPI_Alltoallv");
}

void commplan_request_free(commplan_request *req) {
  if (req == NULL) return;
  if (!req->fallback) commplan_unbind(&req->b);
  free(req);
}
