/*
 * exchange.c: executes a rank's program with MPI (Irecv / Isend / Waitall per round, Send / Recv in order, or dataflow:
 * each operation posted once those it waits for completed, progress with Waitsome) and MPI_Alltoallv.
 */
#include "exchange.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t at_least_one(int64_t n) { return (size_t)(n > 0 ? n : 1); }

/*
 * A data buffer of n bytes (at least one). Shared: SMPI_SHARED_MALLOC, rounded up to whole MiB: with
 * smpi/shared-malloc:global (the default) SimGrid maps its 1 MiB file over every whole block of the area and leaves a
 * partial last block private, which would cost up to 1 MiB per buffer and rank.
 */
static unsigned char *data_alloc(int64_t n, int shared) {
#if EXCHANGE_SHARED_BUFFERS
  if (shared) {
    size_t mib = (size_t)1 << 20;
    return SMPI_SHARED_MALLOC((at_least_one(n) + mib - 1) / mib * mib);
  }
#else
  (void)shared;
#endif
  return malloc(at_least_one(n));
}

static void data_free(unsigned char *buf, int shared) {
  if (buf == NULL) return;
#if EXCHANGE_SHARED_BUFFERS
  if (shared) {
    SMPI_SHARED_FREE(buf);
    return;
  }
#else
  (void)shared;
#endif
  free(buf);
}

/* Allocates the dataflow tables: dependency counts, reverse edges (who waits for each operation), queues. */
static int dataflow_init(exchange_t *ex) {
  const program_t *prog = ex->prog;
  size_t n = at_least_one(prog->nops);
  ex->pending0 = calloc(n, sizeof(int64_t));
  ex->pending = malloc(n * sizeof(int64_t));
  ex->rev_start = calloc(n + 1, sizeof(int64_t));
  ex->rev = malloc(at_least_one(prog->nafter) * sizeof(int64_t));
  ex->ready_recv = malloc(n * sizeof(int64_t));
  ex->ready_other = malloc(n * sizeof(int64_t));
  ex->req_op = malloc(n * sizeof(int64_t));
  ex->indices = malloc(n * sizeof(int));
  if (!ex->pending0 || !ex->pending || !ex->rev_start || !ex->rev || !ex->ready_recv || !ex->ready_other ||
      !ex->req_op || !ex->indices) {
    return -1;
  }
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    ex->pending0[i] = op->after_n;
    for (int64_t k = op->after_first; k < op->after_first + op->after_n; k++) ex->rev_start[prog->after[k] + 1]++;
  }
  for (int64_t i = 0; i < prog->nops; i++) ex->rev_start[i + 1] += ex->rev_start[i];
  /* pending doubles as the fill cursor while the reverse edges are laid out */
  for (int64_t i = 0; i < prog->nops; i++) ex->pending[i] = ex->rev_start[i];
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    for (int64_t k = op->after_first; k < op->after_first + op->after_n; k++) ex->rev[ex->pending[prog->after[k]]++] = i;
  }
  return 0;
}

/*
 * Shared buffers: whether every message, count and displacement fits an int in bytes, so that messages go as MPI_BYTE.
 * SimGrid 3.32 copies a message of a derived datatype (a contiguous one included) through a private buffer of its size
 * (Request::init_buffer), which would bring back the memory the shared buffers save; the bytes and their timing are
 * the same either way.
 */
static int fits_in_bytes(const program_t *prog) {
  int64_t eb = prog->element_bytes;
  for (int64_t i = 0; i < prog->nops; i++) {
    if (prog->ops[i].kind != OP_COPY && prog->ops[i].count > INT_MAX / eb) return 0;
  }
  for (int j = 0; j < prog->p; j++) {
    if (prog->send_counts[j] > INT_MAX / eb || prog->send_displs[j] > INT_MAX / eb ||
        prog->recv_counts[j] > INT_MAX / eb || prog->recv_displs[j] > INT_MAX / eb) {
      return 0;
    }
  }
  return 1;
}

/* Operation i's count in the messages' datatype (elements, or bytes). */
static int units(const exchange_t *ex, int64_t i) { return (int)(ex->prog->ops[i].count * ex->scale); }

int exchange_init(exchange_t *ex, const program_t *prog, int shared, char *err, size_t errlen) {
  memset(ex, 0, sizeof *ex);
  ex->prog = prog;
  ex->shared = shared;
  int64_t eb = prog->element_bytes;
  if (eb > INT_MAX) {
    snprintf(err, errlen, "elementBytes %lld is above %d", (long long)eb, INT_MAX);
    return -1;
  }
  int bytes = shared && fits_in_bytes(prog); /* messages as MPI_BYTE */
  ex->scale = bytes ? eb : 1;
  ex->bufs[BUF_SEND] = data_alloc(prog->send_size * eb, shared);
  ex->bufs[BUF_RECV] = data_alloc(prog->recv_size * eb, shared);
  ex->bufs[BUF_SCRATCH] = data_alloc(prog->scratch * eb, shared);
  if (ex->bufs[BUF_SCRATCH] != NULL && !shared) memset(ex->bufs[BUF_SCRATCH], 0, at_least_one(prog->scratch * eb));
  ex->msg = calloc(at_least_one(prog->nops), sizeof *ex->msg);
  ex->reqs = malloc(at_least_one(prog->nops) * sizeof *ex->reqs);
  int p = prog->p;
  ex->scounts = malloc(sizeof(int) * (size_t)p);
  ex->sdispls = malloc(sizeof(int) * (size_t)p);
  ex->rcounts = malloc(sizeof(int) * (size_t)p);
  ex->rdispls = malloc(sizeof(int) * (size_t)p);
  if (!ex->bufs[0] || !ex->bufs[1] || !ex->bufs[2] || !ex->msg || !ex->reqs || !ex->scounts || !ex->sdispls ||
      !ex->rcounts || !ex->rdispls) {
    snprintf(err, errlen, "out of memory for the buffers");
    return -1;
  }
  ex->baseline_ok = 1;
  for (int j = 0; j < p; j++) {
    if (prog->send_counts[j] > INT_MAX || prog->send_displs[j] > INT_MAX || prog->recv_counts[j] > INT_MAX ||
        prog->recv_displs[j] > INT_MAX) {
      ex->baseline_ok = 0;
    }
    ex->scounts[j] = prog->send_counts[j] > INT_MAX ? -1 : (int)(prog->send_counts[j] * ex->scale);
    ex->sdispls[j] = prog->send_displs[j] > INT_MAX ? -1 : (int)(prog->send_displs[j] * ex->scale);
    ex->rcounts[j] = prog->recv_counts[j] > INT_MAX ? -1 : (int)(prog->recv_counts[j] * ex->scale);
    ex->rdispls[j] = prog->recv_displs[j] > INT_MAX ? -1 : (int)(prog->recv_displs[j] * ex->scale);
  }
  /*
   * Staging: each round's multi-piece messages get their own slots; the arena is the largest round's total. A
   * dataflow program has no round barrier, so every multi-piece message gets its own slot (the rounds never reset).
   */
  int dataflow = prog->variant == VARIANT_DATAFLOW;
  int64_t arena = 0, used = 0, round = -1;
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    if (op->round != round && !dataflow) used = 0, round = op->round;
    if (op->kind != OP_COPY && op->n > 1) {
      used += op->count * eb;
      if (used > arena) arena = used;
    }
  }
  ex->staging = data_alloc(arena, shared);
  if (ex->staging == NULL) {
    snprintf(err, errlen, "out of memory for %lld staging bytes", (long long)arena);
    return -1;
  }
  used = 0, round = -1;
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    if (op->round != round && !dataflow) used = 0, round = op->round;
    if (op->kind == OP_COPY) continue;
    if (op->n == 1) {
      const piece_t *pc = &prog->pieces[op->first];
      ex->msg[i] = ex->bufs[pc->buf] + pc->offset * eb;
    } else {
      ex->msg[i] = ex->staging + used;
      used += op->count * eb;
    }
  }
  if (dataflow && dataflow_init(ex) != 0) {
    snprintf(err, errlen, "out of memory for the dataflow tables of %lld operations", (long long)prog->nops);
    return -1;
  }
  if (bytes) {
    ex->elem = MPI_BYTE;
    return 0;
  }
  MPI_Type_contiguous((int)eb, MPI_BYTE, &ex->elem);
  MPI_Type_commit(&ex->elem);
  ex->has_elem = 1;
  return 0;
}

/* Gathers a send's pieces into its staging slot. */
static void gather(exchange_t *ex, int64_t i) {
  const program_t *prog = ex->prog;
  const op_t *op = &prog->ops[i];
  if (op->n == 1) return;
  unsigned char *out = ex->msg[i];
  for (int64_t k = op->first; k < op->first + op->n; k++) {
    const piece_t *pc = &prog->pieces[k];
    size_t bytes = (size_t)(pc->count * prog->element_bytes);
    memcpy(out, ex->bufs[pc->buf] + pc->offset * prog->element_bytes, bytes);
    out += bytes;
  }
}

/* Scatters a received message from its staging slot into its pieces. */
static void scatter(exchange_t *ex, int64_t i) {
  const program_t *prog = ex->prog;
  const op_t *op = &prog->ops[i];
  if (op->n == 1) return;
  const unsigned char *in = ex->msg[i];
  for (int64_t k = op->first; k < op->first + op->n; k++) {
    const piece_t *pc = &prog->pieces[k];
    size_t bytes = (size_t)(pc->count * prog->element_bytes);
    memcpy(ex->bufs[pc->buf] + pc->offset * prog->element_bytes, in, bytes);
    in += bytes;
  }
}

/* A local copy: walks the source and destination pieces together. */
static void copy(exchange_t *ex, int64_t i) {
  const program_t *prog = ex->prog;
  const op_t *op = &prog->ops[i];
  int64_t eb = prog->element_bytes, s = op->first, d = op->first2, s_used = 0, d_used = 0;
  while (s < op->first + op->n && d < op->first2 + op->n2) {
    const piece_t *sp = &prog->pieces[s], *dp = &prog->pieces[d];
    int64_t n = sp->count - s_used < dp->count - d_used ? sp->count - s_used : dp->count - d_used;
    memmove(ex->bufs[dp->buf] + (dp->offset + d_used) * eb, ex->bufs[sp->buf] + (sp->offset + s_used) * eb,
            (size_t)(n * eb));
    s_used += n, d_used += n;
    if (s_used == sp->count) s++, s_used = 0;
    if (d_used == dp->count) d++, d_used = 0;
  }
}

/* One round [a, b) of a nonblocking program: copies, every receive posted, every send posted, wait, scatter. */
static int run_round(exchange_t *ex, int64_t a, int64_t b) {
  const op_t *ops = ex->prog->ops;
  int nreq = 0, rc;
  for (int64_t i = a; i < b; i++) {
    if (ops[i].kind == OP_COPY) copy(ex, i);
  }
  for (int64_t i = a; i < b; i++) {
    if (ops[i].kind != OP_RECV) continue;
    rc = MPI_Irecv(ex->msg[i], units(ex, i), ex->elem, ops[i].peer, ops[i].tag, MPI_COMM_WORLD, &ex->reqs[nreq++]);
    if (rc != MPI_SUCCESS) return rc;
  }
  for (int64_t i = a; i < b; i++) {
    if (ops[i].kind != OP_SEND) continue;
    gather(ex, i);
    rc = MPI_Isend(ex->msg[i], units(ex, i), ex->elem, ops[i].peer, ops[i].tag, MPI_COMM_WORLD, &ex->reqs[nreq++]);
    if (rc != MPI_SUCCESS) return rc;
  }
  rc = MPI_Waitall(nreq, ex->reqs, MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  for (int64_t i = a; i < b; i++) {
    if (ops[i].kind == OP_RECV) scatter(ex, i);
  }
  return MPI_SUCCESS;
}

/* One operation of a blocking program, in program order. */
static int run_blocking(exchange_t *ex, int64_t i) {
  const op_t *op = &ex->prog->ops[i];
  if (op->kind == OP_COPY) {
    copy(ex, i);
    return MPI_SUCCESS;
  }
  if (op->kind == OP_SEND) {
    gather(ex, i);
    return MPI_Send(ex->msg[i], units(ex, i), ex->elem, op->peer, op->tag, MPI_COMM_WORLD);
  }
  int rc = MPI_Recv(ex->msg[i], units(ex, i), ex->elem, op->peer, op->tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rc == MPI_SUCCESS) scatter(ex, i);
  return rc;
}

/* The ready queues of a dataflow run: receives are posted before anything else that is ready. */
typedef struct {
  int64_t recv_head, recv_tail, other_head, other_tail;
} queues_t;

/* Operation i has completed: every operation waiting for it has one dependency less; those left with none are ready. */
static void dataflow_done(exchange_t *ex, queues_t *q, int64_t i) {
  for (int64_t k = ex->rev_start[i]; k < ex->rev_start[i + 1]; k++) {
    int64_t j = ex->rev[k];
    if (--ex->pending[j] == 0) {
      if (ex->prog->ops[j].kind == OP_RECV) {
        ex->ready_recv[q->recv_tail++] = j;
      } else {
        ex->ready_other[q->other_tail++] = j;
      }
    }
  }
}

static int compare_int_desc(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x < y) - (x > y);
}

/*
 * A dataflow program: every ready operation is posted (receives first, sends gathered when posted, copies done at
 * once), then MPI_Waitsome completes some requests (a receive is scattered), which readies the operations waiting
 * for them. Nothing is allocated here: the tables come from exchange_init.
 */
static int run_dataflow(exchange_t *ex) {
  const program_t *prog = ex->prog;
  const op_t *ops = prog->ops;
  queues_t q = {0, 0, 0, 0};
  int64_t done = 0;
  int active = 0, rc;
  memcpy(ex->pending, ex->pending0, sizeof(int64_t) * at_least_one(prog->nops));
  for (int64_t i = 0; i < prog->nops; i++) {
    if (ex->pending[i] != 0) continue;
    if (ops[i].kind == OP_RECV) {
      ex->ready_recv[q.recv_tail++] = i;
    } else {
      ex->ready_other[q.other_tail++] = i;
    }
  }
  while (done < prog->nops) {
    while (q.recv_head < q.recv_tail || q.other_head < q.other_tail) {
      if (q.recv_head < q.recv_tail) {
        int64_t i = ex->ready_recv[q.recv_head++];
        rc = MPI_Irecv(ex->msg[i], units(ex, i), ex->elem, ops[i].peer, ops[i].tag, MPI_COMM_WORLD,
                       &ex->reqs[active]);
        if (rc != MPI_SUCCESS) return rc;
        ex->req_op[active++] = i;
        continue;
      }
      int64_t i = ex->ready_other[q.other_head++];
      if (ops[i].kind == OP_COPY) {
        copy(ex, i);
        done++;
        dataflow_done(ex, &q, i);
        continue;
      }
      gather(ex, i);
      rc = MPI_Isend(ex->msg[i], units(ex, i), ex->elem, ops[i].peer, ops[i].tag, MPI_COMM_WORLD, &ex->reqs[active]);
      if (rc != MPI_SUCCESS) return rc;
      ex->req_op[active++] = i;
    }
    if (done == prog->nops) break;
    if (active == 0) return MPI_ERR_OTHER; /* nothing in flight and nothing ready: the dependencies form a cycle */
    int outcount = 0;
    rc = MPI_Waitsome(active, ex->reqs, &outcount, ex->indices, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    if (outcount == MPI_UNDEFINED) return MPI_ERR_OTHER;
    /* Highest slot first: each completed slot takes the last active request, which is never a completed one. */
    qsort(ex->indices, (size_t)outcount, sizeof(int), compare_int_desc);
    for (int k = 0; k < outcount; k++) {
      int slot = ex->indices[k];
      int64_t i = ex->req_op[slot];
      if (ops[i].kind == OP_RECV) scatter(ex, i);
      done++;
      dataflow_done(ex, &q, i);
      active--;
      ex->reqs[slot] = ex->reqs[active];
      ex->req_op[slot] = ex->req_op[active];
    }
  }
  return MPI_SUCCESS;
}

int exchange_run(exchange_t *ex) {
  const program_t *prog = ex->prog;
  int rc = MPI_SUCCESS;
  if (prog->variant == VARIANT_DATAFLOW) return run_dataflow(ex);
  if (prog->blocking) {
    for (int64_t i = 0; i < prog->nops && rc == MPI_SUCCESS; i++) rc = run_blocking(ex, i);
    return rc;
  }
  for (int64_t a = 0; a < prog->nops && rc == MPI_SUCCESS;) {
    int64_t b = a;
    while (b < prog->nops && prog->ops[b].round == prog->ops[a].round) b++;
    rc = run_round(ex, a, b);
    a = b;
  }
  return rc;
}

int exchange_alltoallv(exchange_t *ex) {
  return MPI_Alltoallv(ex->bufs[BUF_SEND], ex->scounts, ex->sdispls, ex->elem, ex->bufs[BUF_RECV], ex->rcounts,
                       ex->rdispls, ex->elem, MPI_COMM_WORLD);
}

void exchange_free(exchange_t *ex) {
  if (ex->has_elem) MPI_Type_free(&ex->elem);
  for (int b = 0; b < 3; b++) data_free(ex->bufs[b], ex->shared);
  data_free(ex->staging, ex->shared);
  free(ex->msg);
  free(ex->reqs);
  free(ex->scounts);
  free(ex->sdispls);
  free(ex->rcounts);
  free(ex->rdispls);
  free(ex->pending0);
  free(ex->pending);
  free(ex->rev_start);
  free(ex->rev);
  free(ex->ready_recv);
  free(ex->ready_other);
  free(ex->req_op);
  free(ex->indices);
  memset(ex, 0, sizeof *ex);
}
