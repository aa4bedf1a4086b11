/*
 * interpose.c: libcommplan-mpi, a PMPI layer over MPI_Alltoallv, MPI_Alltoall and MPI_Neighbor_alltoallv (on a
 * topology whose neighbours are distinct ranks, as an MPI_Alltoallv of its counts). COMMPLAN_CAPTURE=DIR writes each
 * distinct count matrix and call kind (commplan.matrix/v1) with a commplan.capture/v1 record at MPI_Finalize;
 * COMMPLAN_PLANS=STORE runs the stored plan of a call's count matrix (STORE/programs/<key>/), any other call runs the
 * library's own; COMMPLAN_STATS=1 (world rank 0) or all (every rank) prints per-pattern statistics at MPI_Finalize
 * (a plan that fails to load is named in one line unless COMMPLAN_STATS=0);
 * COMMPLAN_REPLAY=all also runs plans the store marks as no faster than the library. When every plan the store holds
 * for a communicator is direct, calls need no key (each rank runs the plan its own rows fit, or a direct exchange);
 * COMMPLAN_LOCAL=0 makes them wait for the key too. COMMPLAN_AGREE=p2p or library: how the key is reduced.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/*
 * The key's reduction by default: the library's MPI_Iallreduce, so that a predicted fallback runs under it; built with
 * -DCOMMPLAN_NONBLOCKING_KEY=0, as for SMPI (whose MPI_Iallreduce sends every rank's data to every rank), a recursive
 * doubling on the interposer's private communicator. COMMPLAN_AGREE=p2p or library chooses at run time.
 */
#ifndef COMMPLAN_NONBLOCKING_KEY
#define NONBLOCKING_KEY 1
#else
#define NONBLOCKING_KEY COMMPLAN_NONBLOCKING_KEY
#endif

/** Why a call ran the library's collective. */
enum {
  WHY_IN_PLACE,
  WHY_DATATYPE,
  WHY_OTHER_RANK,
  WHY_NO_PLAN,
  WHY_NO_FASTER,
  WHY_LOAD_FAILED,
  WHY_RUN_FAILED,
  WHY_NO_STORE,
  WHY_PREDICTED,
  WHY_NONE_HERE,
  WHY_ROWS,
  WHY_NEIGHBOURS,
  WHY_INTER,
  WHY_ELEMENT_SIZES,
  WHY_PROGRAMS_DIFFER,
  WHY_COUNT
};
static const char *why_names[WHY_COUNT] = {"in place",         "datatype not contiguous",
                                           "another rank's call does not fit", "no plan in the store",
                                           "plan no faster than the library",  "plan failed to load",
                                           "plan failed to run",               "capture only",
                                           "a rank predicted a fallback",
                                           "no plan to replay in the store for this communicator",
                                           "this rank's rows fit no direct plan: point-to-point exchange",
                                           "a neighbour repeated or MPI_PROC_NULL, or no topology handled",
                                           "an intercommunicator",
                                           "the ranks' element sizes differ",
                                           "ranks loaded different programs for this key"};

/** A plan's state for a pattern: not looked up yet, loaded, or a reason to fall back. */
enum { PLAN_UNKNOWN = 0, PLAN_LOADED = 1 };

/** One distinct count matrix on one communicator. */
typedef struct pattern {
  uint64_t key[2];
  int64_t eb;
  const char *kind; /* "MPI_Alltoallv", "MPI_Alltoall" or "MPI_Neighbor_alltoallv" */
  long calls, hits, fallbacks[WHY_COUNT];
  double time_hit, time_fallback, time_lookup;
  int status; /* PLAN_UNKNOWN, PLAN_LOADED, or 100 + a WHY_ reason */
  commplan_plan *plan;
  int *matrix; /* on the communicator's rank 0 when capturing: P x P counts */
  char site[256];
  /* a direct plan of the store, run without a key (MODE_LOCAL): its kinds (bit 0 MPI_Alltoallv, bit 1 MPI_Alltoall),
   * this rank's key term, and its sends: peers in program order, each with its group (posted after the sends of the
   * earlier groups completed) */
  int direct_kinds, nsends, *send_peer, *send_group;
  uint64_t local[2];
  struct pattern *next;
} pattern_t;

/**
 * How the calls of one kind on a communicator go: the library's collective at once (the store holds no plan to replay
 * for it), a direct plan or a point-to-point exchange chosen by each rank from its own rows (every plan to replay is
 * direct), or the key's agreement first (capture, or a plan with relays).
 */
enum { MODE_OFF = 0, MODE_LOCAL = 1, MODE_AGREE = 2 };

/** What the interposer keeps per communicator (an attribute). */
typedef struct commstate {
  int id, p, rank, freed;
  int inter; /* an intercommunicator: every call goes to the library (its counts are the remote group's) */
  MPI_Comm priv; /* the point-to-point reductions' and direct exchanges' messages */
  int mode[2];   /* per call kind (MPI_Alltoallv, MPI_Alltoall): a MODE_, agreed by every rank when the state is made */
  MPI_Request *reqs; /* the direct exchanges' (2 P) */
  pattern_t *patterns;
  long unkeyed[WHY_COUNT]; /* calls that fell back before their key was known */
  double unkeyed_time[WHY_COUNT];
  int *scounts, *sdispls, *rcounts, *rdispls; /* MPI_Alltoall's arguments as MPI_Alltoallv's */
  /* the last call's local rows and whether it fell back for its pattern's sake: the next call with the same rows
   * predicts a fallback and runs it while the key's reduction is under way */
  int *last_s, *last_r, have_last, last_fell_back;
  int64_t last_eb;
  const char *last_kind;
  struct nbrstate *nbr; /* MPI_Neighbor_alltoallv's neighbours, made at its first call on the communicator */
  struct commstate *next;
} commstate_t;

static int initialised, keyval = MPI_KEYVAL_INVALID, next_id;
static const char *capture_dir, *plans_dir, *stats_mode;
static int replay_all, agree_p2p = !NONBLOCKING_KEY, local_ok = 1;
static commstate_t *states;

static void init_env(void) {
  if (initialised) return;
  initialised = 1;
  capture_dir = getenv("COMMPLAN_CAPTURE");
  plans_dir = getenv("COMMPLAN_PLANS");
  stats_mode = getenv("COMMPLAN_STATS");
  const char *replay = getenv("COMMPLAN_REPLAY");
  replay_all = replay != NULL && strcmp(replay, "all") == 0;
  const char *local = getenv("COMMPLAN_LOCAL");
  local_ok = local == NULL || strcmp(local, "0") != 0;
  const char *agree = getenv("COMMPLAN_AGREE");
  if (agree != NULL && strcmp(agree, "p2p") == 0) agree_p2p = 1;
  if (agree != NULL && strcmp(agree, "library") == 0) agree_p2p = 0;
  if (capture_dir != NULL && *capture_dir == '\0') capture_dir = NULL;
  if (plans_dir != NULL && *plans_dir == '\0') plans_dir = NULL;
}

static int delete_state(MPI_Comm comm, int kv, void *value, void *extra) {
  (void)comm, (void)kv, (void)extra;
  commstate_t *st = value;
  st->freed = 1;
  if (st->priv != MPI_COMM_NULL) PMPI_Comm_free(&st->priv);
  for (pattern_t *pt = st->patterns; pt != NULL; pt = pt->next) {
    commplan_plan_free(pt->plan);
    pt->plan = NULL;
    if (pt->status == PLAN_LOADED) pt->status = PLAN_UNKNOWN;
  }
  return MPI_SUCCESS;
}

/** The tag of the interposer's point-to-point reductions on a communicator's private duplicate. */
#define REDUCE_TAG 7

/** How reduce_words combines words. */
enum { RED_SUM, RED_MAX, RED_OR };

static void combine(int op, int n, uint64_t *acc, const uint64_t *in) {
  for (int k = 0; k < n; k++) {
    if (op == RED_SUM) acc[k] += in[k];
    else if (op == RED_MAX) acc[k] = in[k] > acc[k] ? in[k] : acc[k];
    else acc[k] |= in[k];
  }
}

/*
 * n (at most 8) words reduced over the communicator (sum mod 2^64, max or or): by recursive doubling on its private
 * duplicate under COMMPLAN_AGREE=p2p (log2(P) exchanges, two more when P is not a power of two: the first 2r ranks
 * pair up, the even one of each pair hands its words to the odd one and gets the result back at the end), else by the
 * library's MPI_Allreduce. The operations are exact, so every rank gets the same words. Collective.
 */
static void reduce_words(const commstate_t *st, MPI_Comm comm, int n, int op, const uint64_t *local, uint64_t *out) {
  if (!agree_p2p) {
    PMPI_Allreduce(local, out, n, MPI_UINT64_T, op == RED_SUM ? MPI_SUM : op == RED_MAX ? MPI_MAX : MPI_BOR, comm);
    return;
  }
  int p = st->p, r = st->rank, pof2 = 1, vrank;
  uint64_t in[8];
  memcpy(out, local, sizeof(uint64_t) * (size_t)n);
  while (pof2 * 2 <= p) pof2 *= 2;
  int rem = p - pof2;
  if (r < 2 * rem && r % 2 == 0) {
    PMPI_Send(out, n, MPI_UINT64_T, r + 1, REDUCE_TAG, st->priv);
    vrank = -1;
  } else if (r < 2 * rem) {
    PMPI_Recv(in, n, MPI_UINT64_T, r - 1, REDUCE_TAG, st->priv, MPI_STATUS_IGNORE);
    combine(op, n, out, in);
    vrank = r / 2;
  } else {
    vrank = r - rem;
  }
  for (int mask = 1; vrank >= 0 && mask < pof2; mask <<= 1) {
    int vpeer = vrank ^ mask, peer = vpeer < rem ? 2 * vpeer + 1 : vpeer + rem;
    PMPI_Sendrecv(out, n, MPI_UINT64_T, peer, REDUCE_TAG, in, n, MPI_UINT64_T, peer, REDUCE_TAG, st->priv,
                  MPI_STATUS_IGNORE);
    combine(op, n, out, in);
  }
  if (r < 2 * rem && r % 2 == 0) {
    PMPI_Recv(out, n, MPI_UINT64_T, r + 1, REDUCE_TAG, st->priv, MPI_STATUS_IGNORE);
  } else if (r < 2 * rem) {
    PMPI_Send(out, n, MPI_UINT64_T, r - 1, REDUCE_TAG, st->priv);
  }
}

/* The kind bit of a call's name: 1 MPI_Alltoallv (or MPI_Neighbor_alltoallv, which runs as one), 2 MPI_Alltoall. */
static int kind_bit(const char *call) {
  if (call != NULL && (strcmp(call, "MPI_Alltoallv") == 0 || strcmp(call, "MPI_Neighbor_alltoallv") == 0)) return 1;
  if (call != NULL && strcmp(call, "MPI_Alltoall") == 0) return 2;
  return 0;
}

/*
 * The call kinds a plan.json names (bit 0 MPI_Alltoallv, bit 1 MPI_Alltoall): those of its `kinds` list (every call
 * its key was captured from), else of its `call`; both when it names neither.
 */
static int kinds_of(json_t *doc) {
  json_t *list = json_object_get(doc, "kinds");
  int kinds = kind_bit(json_string_value(json_object_get(doc, "call")));
  if (json_is_array(list)) {
    kinds = 0;
    for (size_t k = 0; k < json_array_size(list); k++) kinds |= kind_bit(json_string_value(json_array_get(list, k)));
  }
  return kinds == 0 ? 3 : kinds;
}

/* Marks block j moved (side 0 sent, 1 received); 0 when it was already, or is empty. */
static int move_once(unsigned char *moved, const program_t *prog, int side, int j) {
  const int64_t *counts = side == 0 ? prog->send_counts : prog->recv_counts;
  if (counts[j] == 0 || moved[2 * j + side]) return 0;
  moved[2 * j + side] = 1;
  return 1;
}

/* Whether a rank's program moves exactly MPI_Alltoallv's blocks: one message per non-empty block, the whole block. */
static int is_direct(const program_t *prog, int rank) {
  if (prog->scratch != 0) return 0;
  unsigned char *moved = calloc(2 * (size_t)prog->p, 1);
  int ok = moved != NULL;
  int64_t n = 0, expected = 0;
  for (int j = 0; j < prog->p; j++) expected += (prog->send_counts[j] > 0) + (prog->recv_counts[j] > 0);
  for (int64_t i = 0; i < prog->nops && ok; i++) {
    const op_t *op = &prog->ops[i];
    const piece_t *pc = &prog->pieces[op->first];
    if (op->kind == OP_COPY) { /* only the block a rank keeps */
      const piece_t *to = &prog->pieces[op->first2];
      ok = op->n == 1 && op->n2 == 1 && pc->buf == BUF_SEND && to->buf == BUF_RECV && pc->count == to->count &&
           pc->offset == prog->send_displs[rank] && pc->count == prog->send_counts[rank] &&
           to->offset == prog->recv_displs[rank] && to->count == prog->recv_counts[rank] &&
           move_once(moved, prog, 0, rank) && move_once(moved, prog, 1, rank);
      n += 2;
      continue;
    }
    int side = op->kind == OP_SEND ? 0 : 1;
    const int64_t *displs = side == 0 ? prog->send_displs : prog->recv_displs;
    const int64_t *counts = side == 0 ? prog->send_counts : prog->recv_counts;
    ok = op->n == 1 && pc->buf == (side == 0 ? BUF_SEND : BUF_RECV) && pc->offset == displs[op->peer] &&
         pc->count == counts[op->peer] && move_once(moved, prog, side, op->peer);
    n++;
  }
  free(moved);
  return ok && n == expected;
}

/*
 * This rank's sends of a direct program, in program order, and their groups: a nonblocking or blocking program's
 * rounds; in a dataflow program a send that waits for another operation starts a group.
 */
static int direct_sends(pattern_t *pt, const program_t *prog, int rank) {
  pt->send_peer = malloc(sizeof(int) * (size_t)(prog->p > 0 ? prog->p : 1));
  pt->send_group = malloc(sizeof(int) * (size_t)(prog->p > 0 ? prog->p : 1));
  if (pt->send_peer == NULL || pt->send_group == NULL) return -1;
  int group = 0;
  int64_t round = -1;
  for (int64_t i = 0; i < prog->nops; i++) {
    const op_t *op = &prog->ops[i];
    int dataflow = prog->variant == VARIANT_DATAFLOW;
    if (!dataflow && op->round != round && pt->nsends > 0) group++;
    round = op->round;
    if (op->kind == OP_RECV) continue;
    if (dataflow && op->after_n > 0 && pt->nsends > 0) group++;
    pt->send_peer[pt->nsends] = op->kind == OP_COPY ? rank : op->peer;
    pt->send_group[pt->nsends++] = group;
  }
  return 0;
}

/* A direct plan of the store as a pattern of st (MODE_LOCAL); null when it is not direct on this rank. */
static pattern_t *direct_pattern(const commstate_t *st, commplan_plan *plan, const char *hex, int kinds) {
  const program_t *prog = &plan->prog;
  if (!is_direct(prog, st->rank)) return NULL;
  pattern_t *pt = calloc(1, sizeof *pt);
  if (pt == NULL) return NULL;
  if (sscanf(hex, "%16llx%16llx", (unsigned long long *)&pt->key[0], (unsigned long long *)&pt->key[1]) != 2 ||
      direct_sends(pt, prog, st->rank) != 0) {
    free(pt->send_peer), free(pt->send_group), free(pt);
    return NULL;
  }
  int *s = malloc(sizeof(int) * 2 * (size_t)st->p);
  if (s == NULL) {
    free(pt->send_peer), free(pt->send_group), free(pt);
    return NULL;
  }
  for (int j = 0; j < st->p; j++) s[j] = (int)prog->send_counts[j], s[st->p + j] = (int)prog->recv_counts[j];
  commplan_key_local(st->rank, st->p, prog->element_bytes, s, s + st->p, pt->local);
  free(s);
  pt->eb = prog->element_bytes, pt->plan = plan, pt->direct_kinds = kinds, pt->status = PLAN_LOADED;
  pt->kind = kinds == 2 ? "MPI_Alltoall" : "MPI_Alltoallv";
  return pt;
}

static void free_pattern(pattern_t *pt) {
  commplan_plan_free(pt->plan);
  free(pt->matrix), free(pt->send_peer), free(pt->send_group), free(pt);
}

/*
 * How the calls of each kind on a communicator of st->p ranks go (st->mode): MODE_AGREE when capturing (every call's
 * key is needed); under COMMPLAN_PLANS, from the store's plans to replay for this p (STORE/programs/ * /plan.json with
 * replay true, or COMMPLAN_REPLAY=all): none, MODE_OFF; all direct (every rank reads its part of each and checks),
 * MODE_LOCAL, and the direct plans are kept as st's patterns; else MODE_AGREE. One reduction makes the ranks' answers
 * one, so that every rank takes the same mode. Collective (the state is made at MPI_Init or a communicator's first
 * call).
 */
static void catalogue(commstate_t *st, MPI_Comm comm) {
  uint64_t bits[2] = {0, 0}; /* the kinds with a plan to replay; the kinds with one that is not direct (or unread) */
  if (capture_dir != NULL) {
    bits[0] = bits[1] = 3;
  } else if (plans_dir != NULL) {
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/programs", plans_dir);
    DIR *dir = opendir(path);
    for (struct dirent *e = dir == NULL ? NULL : readdir(dir); e != NULL; e = readdir(dir)) {
      if (e->d_name[0] == '.' || strlen(e->d_name) != 32) continue;
      snprintf(path, sizeof path, "%s/programs/%s/plan.json", plans_dir, e->d_name);
      json_error_t jerr;
      json_t *doc = json_load_file(path, 0, &jerr);
      if (doc == NULL) {
        /* a plan.json that exists but does not read: its calls are looked up, and the lookup says it failed to load */
        struct stat sb;
        if (stat(path, &sb) == 0) bits[0] |= 3, bits[1] |= 3;
        continue;
      }
      json_t *p = json_object_get(doc, "p");
      const char *call = json_string_value(json_object_get(doc, "call"));
      int kinds = kinds_of(doc), neighbor = call != NULL && strcmp(call, "MPI_Neighbor_alltoallv") == 0;
      int take = (!json_is_integer(p) || json_integer_value(p) == st->p) &&
                 (replay_all || json_is_true(json_object_get(doc, "replay")) || !json_is_integer(p));
      json_decref(doc);
      if (!take) continue;
      bits[0] |= (uint64_t)kinds;
      snprintf(path, sizeof path, "%s/programs/%s", plans_dir, e->d_name);
      int known = !local_ok || (bits[1] & (uint64_t)kinds) == (uint64_t)kinds; /* MODE_AGREE already */
      commplan_plan *plan = known ? NULL : commplan_plan_read(path, comm, err, sizeof err);
      pattern_t *pt = plan == NULL ? NULL : direct_pattern(st, plan, e->d_name, kinds);
      if (pt == NULL) {
        commplan_plan_free(plan);
        bits[1] |= (uint64_t)kinds;
      } else {
        if (neighbor) pt->kind = "MPI_Neighbor_alltoallv"; /* the statistics' label: the call it was captured from */
        pt->next = st->patterns;
        st->patterns = pt;
      }
    }
    if (dir != NULL) closedir(dir);
  }
  uint64_t all[2] = {0, 0};
  reduce_words(st, comm, 2, RED_OR, bits, all);
  for (int k = 0; k < 2; k++) {
    uint64_t bit = (uint64_t)1 << k;
    st->mode[k] = (all[0] & bit) == 0 ? MODE_OFF : (all[1] & bit) != 0 ? MODE_AGREE : MODE_LOCAL;
  }
  /* the direct patterns of the kinds that do not run them locally: the key finds their plans again */
  for (pattern_t **at = &st->patterns; *at != NULL;) {
    pattern_t *pt = *at;
    int used = ((pt->direct_kinds & 1) && st->mode[0] == MODE_LOCAL) ||
               ((pt->direct_kinds & 2) && st->mode[1] == MODE_LOCAL);
    if (used) {
      at = &pt->next;
    } else {
      *at = pt->next;
      free_pattern(pt);
    }
  }
}

static commstate_t *state_of(MPI_Comm comm) {
  void *value;
  int found = 0;
  if (keyval == MPI_KEYVAL_INVALID) PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &keyval, NULL);
  PMPI_Comm_get_attr(comm, keyval, &value, &found);
  if (found) return value;
  commstate_t *st = calloc(1, sizeof *st);
  if (st == NULL) return NULL;
  st->priv = MPI_COMM_NULL;
  PMPI_Comm_size(comm, &st->p);
  PMPI_Comm_rank(comm, &st->rank);
  st->id = next_id++;
  size_t n = sizeof(int) * (size_t)st->p;
  st->scounts = malloc(n), st->sdispls = malloc(n), st->rcounts = malloc(n), st->rdispls = malloc(n);
  st->last_s = malloc(n), st->last_r = malloc(n), st->reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)st->p);
  if (!st->scounts || !st->sdispls || !st->rcounts || !st->rdispls || !st->last_s || !st->last_r || !st->reqs) {
    free(st->scounts), free(st->sdispls), free(st->rcounts), free(st->rdispls), free(st->last_s), free(st->last_r);
    free(st->reqs), free(st);
    return NULL;
  }
  PMPI_Comm_test_inter(comm, &st->inter);
  if (!st->inter) { /* an intercommunicator keeps MODE_OFF and no duplicate: intercept never plans its calls */
    PMPI_Comm_dup(comm, &st->priv);
    catalogue(st, comm);
  }
  PMPI_Comm_set_attr(comm, keyval, st);
  st->next = states;
  states = st;
  return st;
}

static void site_of(void *addr, char *out, size_t len) {
  Dl_info info;
  if (dladdr(addr, &info) != 0 && info.dli_fname != NULL) {
    const char *file = strrchr(info.dli_fname, '/');
    file = file == NULL ? info.dli_fname : file + 1;
    if (info.dli_sname != NULL) {
      snprintf(out, len, "%s(%s+0x%lx)", file, info.dli_sname,
               (unsigned long)((char *)addr - (char *)info.dli_saddr));
    } else {
      snprintf(out, len, "%s(+0x%lx)", file, (unsigned long)((char *)addr - (char *)info.dli_fbase));
    }
  } else {
    snprintf(out, len, "%p", addr);
  }
}

static void key_hex(const uint64_t key[2], char out[33]) {
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)key[0], (unsigned long long)key[1]);
}

/*
 * Whether this rank's part of a program is for this call: its element size and its send and receive counts are the
 * call's (a program copied under another key, or left from another matrix, is not; running it would misplace bytes).
 */
static int program_fits(const commstate_t *st, const program_t *prog, int64_t eb, const int *scounts,
                        const int *rcounts) {
  if (prog->element_bytes != eb) return 0;
  for (int j = 0; j < st->p; j++) {
    if (prog->send_counts[j] != scounts[j] || prog->recv_counts[j] != rcounts[j]) return 0;
  }
  return 1;
}

/* FNV-1a over n bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *data, size_t n) {
  const unsigned char *b = data;
  for (size_t k = 0; k < n; k++) h = (h ^ b[k]) * 0x100000001b3ULL;
  return h;
}

/*
 * What identifies the program a rank loaded for a key, the same on every rank that read the same store: a hash of
 * plan.json's entry, algorithm, variant and payload and of the program's index.json (its header: algorithm, params,
 * matrix digest, variant, rounds). Node-local copies of a store planned for different targets give different values.
 */
static uint64_t program_identity(json_t *doc, const char *dir) {
  uint64_t h = 0xcbf29ce484222325ULL;
  const char *fields[] = {"entry", "algorithm", "variant", "payload"};
  for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
    char *text = json_dumps(json_object_get(doc, fields[k]), JSON_ENCODE_ANY | JSON_COMPACT);
    h = fnv(h, text == NULL ? "-" : text, text == NULL ? 1 : strlen(text) + 1);
    free(text);
  }
  char path[4200], buf[4096];
  snprintf(path, sizeof path, "%s/index.json", dir);
  FILE *f = fopen(path, "rb");
  for (size_t n; f != NULL && (n = fread(buf, 1, sizeof buf, f)) > 0;) h = fnv(h, buf, n);
  if (f != NULL) fclose(f);
  return h;
}

/** The tag of a lookup's failure message, sent to the communicator's rank 0 on its private duplicate. */
#define LOOKUP_TAG 9
/** The longest such message (a path and a reason). */
#define LOOKUP_MSG 4800

/*
 * One line on stderr for a pattern whose plan did not load: the communicator's rank 0 prints the reason of the lowest
 * rank that had one (`from`, which sends it there), once per pattern, whether or not COMMPLAN_STATS is set; never
 * under COMMPLAN_STATS=0. Collective on the ranks concerned (from and 0).
 */
static void say_once(const commstate_t *st, int from, const char *msg) {
  char text[LOOKUP_MSG];
  if (from != 0 && st->rank == from) PMPI_Send(msg, (int)strlen(msg) + 1, MPI_CHAR, 0, LOOKUP_TAG, st->priv);
  if (st->rank != 0) return;
  if (from != 0) PMPI_Recv(text, sizeof text, MPI_CHAR, from, LOOKUP_TAG, st->priv, MPI_STATUS_IGNORE);
  else snprintf(text, sizeof text, "%s", msg);
  text[sizeof text - 1] = '\0';
  if (stats_mode == NULL || strcmp(stats_mode, "0") != 0) fprintf(stderr, "commplan: %s\n", text);
}

/*
 * Looks up the plan of a new pattern: STORE/programs/<key>/plan.json says whether to replay; each rank reads its part
 * of the program and checks that it is for this call's counts, and one reduction (max) of the ranks' reasons (the
 * highest wins), of their program's identity and its complement (its largest and smallest value) and of the lowest
 * rank with a message makes every rank load it or none: ranks that loaded different programs (node-local copies of a
 * store that differ) all fall back. A plan that failed to load is named in one line (say_once). Collective.
 */
static void look_up(const commstate_t *st, pattern_t *pt, MPI_Comm comm, const int *scounts, const int *rcounts) {
  char hex[33], path[4096], file[4200], err[512], msg[LOOKUP_MSG] = "";
  key_hex(pt->key, hex);
  snprintf(path, sizeof path, "%s/programs/%s", plans_dir, hex);
  snprintf(file, sizeof file, "%s/plan.json", path);
  int local = WHY_NO_PLAN;
  uint64_t id = 0;
  commplan_plan *plan = NULL;
  json_error_t jerr;
  json_t *doc = json_load_file(file, 0, &jerr);
  if (doc != NULL) {
    const char *format = json_string_value(json_object_get(doc, "format"));
    if (format == NULL || strcmp(format, "commplan.libplan/v1") != 0) local = WHY_LOAD_FAILED;
    else if (json_is_true(json_object_get(doc, "replay")) || replay_all) local = -1;
    else local = WHY_NO_FASTER;
    if (local == -1) id = program_identity(doc, path);
    json_decref(doc);
  } else if (access(file, F_OK) == 0) {
    local = WHY_LOAD_FAILED; /* there, but not a plan this library reads (a half-written or damaged plan.json) */
    snprintf(msg, sizeof msg, "%s: %s (line %d)", file, jerr.text, jerr.line);
  }
  if (local == -1 && (plan = commplan_plan_read(path, comm, err, sizeof err)) != NULL &&
      !program_fits(st, &plan->prog, pt->eb, scounts, rcounts)) {
    snprintf(err, sizeof err, "rank %d's program is for another count matrix (its counts are not the call's)",
             st->rank);
    commplan_plan_free(plan);
    plan = NULL;
  }
  if (local == -1 && plan == NULL) {
    local = WHY_LOAD_FAILED;
    if (strncmp(err, path, strlen(path)) == 0) snprintf(msg, sizeof msg, "%s", err);
    else snprintf(msg, sizeof msg, "%s: %s", path, err); /* err names no file */
  }
  /* -1 (replay) is 0; the lowest rank with a message as p - rank */
  uint64_t mine[4] = {(uint64_t)(local + 1), id, ~id, msg[0] != '\0' ? (uint64_t)(st->p - st->rank) : 0}, agreed[4];
  reduce_words(st, comm, 4, RED_MAX, mine, agreed);
  if (agreed[3] != 0) say_once(st, st->p - (int)agreed[3], msg);
  if (agreed[0] == 0 && agreed[1] != ~agreed[2]) {
    agreed[0] = WHY_PROGRAMS_DIFFER + 1;
    snprintf(msg, sizeof msg, "%s: the ranks loaded different programs for this key (copies of the store that differ):"
             " its calls run the library's collective", path);
    say_once(st, 0, msg);
  }
  if (agreed[0] > 0) {
    commplan_plan_free(plan);
    pt->status = 100 + (int)agreed[0] - 1;
    return;
  }
  commplan_plan_attach(plan, comm);
  pt->plan = plan;
  pt->status = PLAN_LOADED;
}

/*
 * The pattern of a key, element size and call kind: the same count matrix through two kinds (MPI_Alltoall and
 * MPI_Alltoallv) is two patterns, each captured with its own `call` and `calls` and looked up on its own.
 */
static pattern_t *find_pattern(commstate_t *st, const uint64_t key[2], int64_t eb, const char *kind) {
  for (pattern_t *pt = st->patterns; pt != NULL; pt = pt->next) { /* a direct pattern runs only without a key */
    if (pt->key[0] == key[0] && pt->key[1] == key[1] && pt->eb == eb && pt->direct_kinds == 0 &&
        strcmp(pt->kind, kind) == 0) {
      return pt;
    }
  }
  return NULL;
}

/*
 * Whether the element sizes of the p ranks differ, from their sum and the sum of their squares (the square's high and
 * low 32 bits summed apart, so that no sum wraps for p < 2^32): p * sum(e^2) - (sum e)^2 is the sum over pairs of
 * (e_i - e_j)^2, zero only when every e is the same. Computed in 128 bits from words every rank has, so every rank
 * answers alike.
 */
static int sizes_differ(int p, const uint64_t w[3]) {
  __extension__ typedef unsigned __int128 u128;
  u128 sum = w[0], squares = ((u128)w[1] << 32) + w[2];
  return (u128)p * squares != sum * sum;
}

/* A new pattern: capture gathers its matrix on rank 0 (collective, as every rank sees the key as new). */
static pattern_t *new_pattern(commstate_t *st, MPI_Comm comm, const uint64_t key[2], int64_t eb, const char *kind,
                              const int *scounts, void *caller) {
  pattern_t *pt = calloc(1, sizeof *pt);
  if (pt == NULL) return NULL;
  pt->key[0] = key[0], pt->key[1] = key[1], pt->eb = eb, pt->kind = kind;
  if (plans_dir == NULL) pt->status = 100 + WHY_NO_STORE;
  site_of(caller, pt->site, sizeof pt->site);
  if (capture_dir != NULL) {
    if (st->rank == 0) pt->matrix = malloc(sizeof(int) * (size_t)st->p * (size_t)st->p);
    PMPI_Gather(scounts, st->p, MPI_INT, pt->matrix, st->p, MPI_INT, 0, comm);
  }
  pt->next = st->patterns;
  st->patterns = pt;
  return pt;
}

typedef int (*fallback_fn)(const void *args);

typedef struct {
  const void *sendbuf;
  const int *scounts, *sdispls;
  MPI_Datatype sendtype;
  void *recvbuf;
  const int *rcounts, *rdispls;
  MPI_Datatype recvtype;
  MPI_Comm comm;
  int scount, rcount; /* MPI_Alltoall's counts (its fallback) */
} call_t;

static int fallback_alltoallv(const void *a) {
  const call_t *c = a;
  return PMPI_Alltoallv(c->sendbuf, c->scounts, c->sdispls, c->sendtype, c->recvbuf, c->rcounts, c->rdispls,
                        c->recvtype, c->comm);
}

static int fallback_alltoall(const void *a) {
  const call_t *c = a;
  return PMPI_Alltoall(c->sendbuf, c->scount, c->sendtype, c->recvbuf, c->rcount, c->recvtype, c->comm);
}

/** The tag of the direct exchanges on a communicator's private duplicate. */
#define DIRECT_TAG 8

/*
 * A direct exchange on the private communicator with the application's datatypes: every non-empty receive posted at
 * once, then the sends of a direct plan in its order and groups (each group posted once the earlier groups' sends
 * have completed), or, without a plan, every non-empty send at once (from rank + 1 on); then every request completed.
 * Whatever each rank chooses, every pair exchanges one message per non-empty block with one tag on one communicator,
 * and a rank waits only for sends whose receives are posted at its partner's entry: the exchange matches and
 * completes on every rank (runtimes.md, "The key").
 */
static int direct_exchange(commstate_t *st, const call_t *c, const pattern_t *pt) {
  MPI_Aint lb, sext, rext;
  int ss, rs, n = 0, rc = MPI_SUCCESS;
  PMPI_Type_get_extent(c->sendtype, &lb, &sext);
  PMPI_Type_get_extent(c->recvtype, &lb, &rext);
  PMPI_Type_size(c->sendtype, &ss);
  PMPI_Type_size(c->recvtype, &rs);
  for (int j = 0; j < st->p && rc == MPI_SUCCESS; j++) {
    if (c->rcounts[j] == 0 || rs == 0) continue;
    rc = PMPI_Irecv((char *)c->recvbuf + (MPI_Aint)c->rdispls[j] * rext, c->rcounts[j], c->recvtype, j, DIRECT_TAG,
                    st->priv, &st->reqs[n++]);
  }
  int first = n; /* the sends of the groups not yet completed: reqs[first .. n) */
  int nsends = pt != NULL ? pt->nsends : st->p;
  for (int k = 0; k < nsends && rc == MPI_SUCCESS; k++) {
    int j = pt != NULL ? pt->send_peer[k] : (st->rank + 1 + k) % st->p;
    if (pt != NULL && k > 0 && pt->send_group[k] != pt->send_group[k - 1] && n > first) {
      rc = PMPI_Waitall(n - first, st->reqs + first, MPI_STATUSES_IGNORE);
      n = first;
    }
    if (c->scounts[j] == 0 || ss == 0 || rc != MPI_SUCCESS) continue;
    rc = PMPI_Isend((const char *)c->sendbuf + (MPI_Aint)c->sdispls[j] * sext, c->scounts[j], c->sendtype, j,
                    DIRECT_TAG, st->priv, &st->reqs[n++]);
  }
  int done = PMPI_Waitall(n, st->reqs, MPI_STATUSES_IGNORE);
  return rc != MPI_SUCCESS ? rc : done;
}

/* Whether this call's rows are the direct pattern's for this rank (its key term first, then every count). */
static int rows_fit(const commstate_t *st, const pattern_t *pt, const call_t *c, const uint64_t local[2]) {
  if (pt->local[0] != local[0] || pt->local[1] != local[1]) return 0;
  const program_t *prog = &pt->plan->prog;
  for (int j = 0; j < st->p; j++) {
    if (c->scounts[j] != prog->send_counts[j] || c->rcounts[j] != prog->recv_counts[j]) return 0;
  }
  return 1;
}

/* A call that fell back before its key was known, for `why`, taking `seconds` since it began. */
static void note_unkeyed(commstate_t *st, int why, double seconds) {
  st->unkeyed[why]++;
  st->unkeyed_time[why] += seconds;
}

/*
 * MODE_LOCAL, every plan to replay direct: no key. A rank whose rows are a direct plan's for it runs that plan's
 * sends in their order; any other rank (rows of no plan, a datatype that is not contiguous) the direct exchange
 * without a plan; MPI_IN_PLACE (on every rank) the library's collective. Statistics are this rank's.
 */
static int run_local(commstate_t *st, const call_t *c, fallback_fn fallback, int kind_index, double t0,
                     void *caller) {
  if (c->sendbuf == MPI_IN_PLACE) {
    int rc = fallback(c);
    note_unkeyed(st, WHY_IN_PLACE, MPI_Wtime() - t0);
    return rc;
  }
  int64_t ss = 0, rs = 0;
  int eligible = commplan_contiguous(c->sendtype, &ss) && commplan_contiguous(c->recvtype, &rs) && ss == rs;
  pattern_t *hit = NULL;
  if (eligible) {
    uint64_t local[2];
    commplan_key_local(st->rank, st->p, ss, c->scounts, c->rcounts, local);
    for (pattern_t *pt = st->patterns; pt != NULL && hit == NULL; pt = pt->next) {
      if ((pt->direct_kinds >> kind_index & 1) && pt->eb == ss && rows_fit(st, pt, c, local)) hit = pt;
    }
  }
  double a = MPI_Wtime();
  int rc = direct_exchange(st, c, hit);
  double b = MPI_Wtime();
  if (hit == NULL) {
    note_unkeyed(st, eligible ? WHY_ROWS : WHY_DATATYPE, b - t0);
    return rc;
  }
  if (hit->calls++ == 0) { /* the site of its first call, as a keyed pattern's */
    site_of(caller, hit->site, sizeof hit->site - 20);
    strcat(hit->site, " (direct, no key)");
  }
  if (rc == MPI_SUCCESS) hit->hits++;
  else hit->fallbacks[WHY_RUN_FAILED]++;
  hit->time_hit += b - a;
  hit->time_lookup += a - t0;
  return rc;
}

/* Keeps this call's rows for the next call's prediction. */
static void remember(commstate_t *st, const call_t *c, int64_t eb, const char *kind, int fell_back) {
  size_t n = sizeof(int) * (size_t)st->p;
  memcpy(st->last_s, c->scounts, n);
  memcpy(st->last_r, c->rcounts, n);
  st->have_last = 1, st->last_fell_back = fell_back, st->last_eb = eb, st->last_kind = kind;
}

/*
 * The common path of both collectives. MODE_OFF: the library's collective; MODE_LOCAL: run_local. MODE_AGREE: one
 * reduction (MPI_Iallreduce, or reduce_words' recursive doubling) sums the ranks' key terms, their ineligibility,
 * their predictions and their element sizes (sizes_differ: ranks whose sizes differ all fall back, uncaptured): under
 * MPI_Iallreduce a rank whose rows are the last call's, when that call fell back for its pattern's sake, predicts a
 * fallback and runs it at once, the reduction under way; when any rank predicted, every rank falls back (the others
 * after the reduction), so all take one path. Then the pattern is found or made (its
 * matrix gathered when capturing), its plan looked up once, and run or not.
 */
static int intercept(const call_t *c, fallback_fn fallback, const char *kind, void *caller) {
  double t0 = MPI_Wtime(), spent = 0; /* spent: time in the plan or the fallback */
  commstate_t *st = state_of(c->comm);
  if (st == NULL) return fallback(c);
  int kind_index = strcmp(kind, "MPI_Alltoall") == 0;
  if (st->inter) { /* counts of the remote group: neither a key nor a plan applies */
    int rc = fallback(c);
    note_unkeyed(st, WHY_INTER, MPI_Wtime() - t0);
    return rc;
  }
  if (st->mode[kind_index] == MODE_LOCAL) return run_local(st, c, fallback, kind_index, t0, caller);
  if (st->mode[kind_index] == MODE_OFF) { /* no plan could run: no key, the library's collective at once */
    int rc = fallback(c);
    note_unkeyed(st, WHY_NONE_HERE, MPI_Wtime() - t0);
    return rc;
  }
  if (c->sendbuf == MPI_IN_PLACE) { /* MPI requires every rank to pass it */
    int rc = fallback(c);
    note_unkeyed(st, WHY_IN_PLACE, MPI_Wtime() - t0);
    return rc;
  }
  int64_t ss = 0, rs = 0;
  int eligible = commplan_contiguous(c->sendtype, &ss) && commplan_contiguous(c->recvtype, &rs) && ss == rs;
  size_t n = sizeof(int) * (size_t)st->p;
  int predict = NONBLOCKING_KEY && !agree_p2p && eligible && st->have_last && st->last_fell_back &&
                st->last_eb == ss && st->last_kind == kind && memcmp(st->last_s, c->scounts, n) == 0 &&
                memcmp(st->last_r, c->rcounts, n) == 0;
  /* words 4-6: the element size, its square's high and low 32 bits (summed exactly), for sizes_differ */
  uint64_t e = eligible ? (uint64_t)ss : 0, local[7] = {0, 0, eligible ? 0 : 1, (uint64_t)predict, e, e * e >> 32,
                                                         e * e & 0xffffffffu};
  uint64_t key[7];
  if (eligible) commplan_key_local(st->rank, st->p, ss, c->scounts, c->rcounts, local);
  int rc = MPI_SUCCESS, done = 0;
  if (agree_p2p) {
    reduce_words(st, c->comm, 7, RED_SUM, local, key);
  } else {
#if NONBLOCKING_KEY
    MPI_Request req;
    PMPI_Iallreduce(local, key, 7, MPI_UINT64_T, MPI_SUM, c->comm, &req);
    if (predict) {
      double a = MPI_Wtime();
      rc = fallback(c);
      spent = MPI_Wtime() - a, done = 1;
    }
    PMPI_Wait(&req, MPI_STATUS_IGNORE);
#else
    PMPI_Allreduce(local, key, 7, MPI_UINT64_T, MPI_SUM, c->comm);
#endif
  }
  int differ = key[2] == 0 && sizes_differ(st->p, key + 4);
  /* a rank cannot take a plan, its element size is not every rank's, or it predicted a fallback: all fall back */
  if (key[2] != 0 || differ || key[3] != 0) {
    if (!done) {
      double a = MPI_Wtime();
      rc = fallback(c);
      spent = MPI_Wtime() - a, done = 1;
    }
    if (key[2] != 0 || differ) { /* no key that means one matrix: nothing captured, nothing looked up */
      note_unkeyed(st, differ ? WHY_ELEMENT_SIZES : eligible ? WHY_OTHER_RANK : WHY_DATATYPE, MPI_Wtime() - t0);
      st->have_last = 0;
      return rc;
    }
  }
  pattern_t *pt = find_pattern(st, key, ss, kind);
  if (pt == NULL) pt = new_pattern(st, c->comm, key, ss, kind, c->scounts, caller);
  if (pt == NULL) return done ? rc : fallback(c);
  pt->calls++;
  if (plans_dir != NULL && pt->status == PLAN_UNKNOWN) look_up(st, pt, c->comm, c->scounts, c->rcounts);
  if (!done && pt->status == PLAN_LOADED) {
    double a = MPI_Wtime();
    rc = commplan_run_agreed(pt->plan, c->sendbuf, c->sdispls, c->recvbuf, c->rdispls);
    spent = MPI_Wtime() - a;
    pt->time_lookup += MPI_Wtime() - t0 - spent;
    remember(st, c, ss, kind, 0);
    if (rc == COMMPLAN_OK) {
      pt->hits++;
      pt->time_hit += spent;
      return MPI_SUCCESS;
    }
    /* a run that failed half-way has no fallback: the exchange's messages may be in flight */
    pt->fallbacks[WHY_RUN_FAILED]++;
    fprintf(stderr, "commplan: rank %d: %s\n", st->rank, commplan_plan_message(pt->plan));
    return MPI_ERR_OTHER;
  }
  if (!done) {
    double a = MPI_Wtime();
    rc = fallback(c);
    spent = MPI_Wtime() - a;
  }
  int own = pt->status >= 100; /* the pattern's own reason, or a prediction that overrode a plan */
  pt->fallbacks[own ? pt->status - 100 : WHY_PREDICTED]++;
  pt->time_fallback += spent;
  pt->time_lookup += MPI_Wtime() - t0 - spent;
  remember(st, c, ss, kind, own);
  return rc;
}

static int active(void) {
  init_env();
  return capture_dir != NULL || plans_dir != NULL;
}

int MPI_Alltoallv(const void *sendbuf, const int scounts[], const int sdispls[], MPI_Datatype sendtype,
                  void *recvbuf, const int rcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (!active()) return PMPI_Alltoallv(sendbuf, scounts, sdispls, sendtype, recvbuf, rcounts, rdispls, recvtype, comm);
  call_t c = {sendbuf, scounts, sdispls, sendtype, recvbuf, rcounts, rdispls, recvtype, comm, 0, 0};
  return intercept(&c, fallback_alltoallv, "MPI_Alltoallv", __builtin_return_address(0));
}

int MPI_Alltoall(const void *sendbuf, int scount, MPI_Datatype sendtype, void *recvbuf, int rcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  if (!active()) return PMPI_Alltoall(sendbuf, scount, sendtype, recvbuf, rcount, recvtype, comm);
  commstate_t *st = state_of(comm);
  if (st == NULL) return PMPI_Alltoall(sendbuf, scount, sendtype, recvbuf, rcount, recvtype, comm);
  for (int j = 0; j < st->p; j++) {
    st->scounts[j] = scount, st->sdispls[j] = j * scount, st->rcounts[j] = rcount, st->rdispls[j] = j * rcount;
  }
  call_t c = {sendbuf, st->scounts, st->sdispls, sendtype, recvbuf, st->rcounts, st->rdispls, recvtype, comm,
              scount, rcount};
  return intercept(&c, fallback_alltoall, "MPI_Alltoall", __builtin_return_address(0));
}

/** A topology communicator's neighbours for MPI_Neighbor_alltoallv (its state's nbr). */
typedef struct nbrstate {
  int fits;           /* agreed at the first call: on every rank the neighbours are distinct ranks */
  int indeg, outdeg;  /* the user's receive and send arrays' lengths */
  int *src, *dst;     /* the source and destination neighbours, in the user's buffer order */
  int *scounts, *sdispls, *rcounts, *rdispls; /* the call as MPI_Alltoallv's: P long, zero but for the neighbours */
} nbrstate_t;

/** An MPI_Neighbor_alltoallv call: its MPI_Alltoallv form first (intercept's call_t), then the user's arrays. */
typedef struct {
  call_t c;
  const int *scounts, *sdispls, *rcounts, *rdispls;
} ncall_t;

static int fallback_neighbor(const void *a) {
  const ncall_t *n = a;
  return PMPI_Neighbor_alltoallv(n->c.sendbuf, n->scounts, n->sdispls, n->c.sendtype, n->c.recvbuf, n->rcounts,
                                 n->rdispls, n->c.recvtype, n->c.comm);
}

/*
 * This rank's neighbours in MPI_Neighbor_alltoallv's order (a distributed graph's MPI_Dist_graph_neighbors; a
 * Cartesian one's shifts by -1 and +1 per dimension, for sources and destinations alike; a graph's
 * MPI_Graph_neighbors); 0 on success, 1 for a communicator without a topology or when memory runs out.
 */
static int read_neighbours(nbrstate_t *nb, MPI_Comm comm, int rank) {
  int topo = MPI_UNDEFINED, weighted = 0, n = 0;
  PMPI_Topo_test(comm, &topo);
  if (topo == MPI_DIST_GRAPH) {
    PMPI_Dist_graph_neighbors_count(comm, &nb->indeg, &nb->outdeg, &weighted);
  } else if (topo == MPI_CART) {
    PMPI_Cartdim_get(comm, &n);
    nb->indeg = nb->outdeg = 2 * n;
  } else if (topo == MPI_GRAPH) {
    PMPI_Graph_neighbors_count(comm, rank, &n);
    nb->indeg = nb->outdeg = n;
  } else {
    return 1;
  }
  nb->src = malloc(sizeof(int) * (size_t)(nb->indeg + 1)), nb->dst = malloc(sizeof(int) * (size_t)(nb->outdeg + 1));
  int *sw = weighted ? malloc(sizeof(int) * (size_t)(nb->indeg + 1)) : NULL;
  int *dw = weighted ? malloc(sizeof(int) * (size_t)(nb->outdeg + 1)) : NULL;
  int ok = nb->src != NULL && nb->dst != NULL && (!weighted || (sw != NULL && dw != NULL));
  if (ok && topo == MPI_DIST_GRAPH) {
    PMPI_Dist_graph_neighbors(comm, nb->indeg, nb->src, weighted ? sw : MPI_UNWEIGHTED, nb->outdeg, nb->dst,
                              weighted ? dw : MPI_UNWEIGHTED);
  } else if (ok && topo == MPI_CART) {
    for (int d = 0; d < n; d++) PMPI_Cart_shift(comm, d, 1, &nb->src[2 * d], &nb->src[2 * d + 1]);
    memcpy(nb->dst, nb->src, sizeof(int) * (size_t)nb->indeg);
  } else if (ok) {
    PMPI_Graph_neighbors(comm, rank, n, nb->src);
    memcpy(nb->dst, nb->src, sizeof(int) * (size_t)n);
  }
  free(sw), free(dw);
  return !ok;
}

/* Whether every one of n neighbours is a distinct rank of 0 .. p-1 (seen: p bytes, cleared here). */
static int distinct(const int *list, int n, int p, unsigned char *seen) {
  memset(seen, 0, (size_t)p);
  for (int k = 0; k < n; k++) {
    if (list[k] < 0 || list[k] >= p || seen[list[k]]) return 0;
    seen[list[k]] = 1;
  }
  return 1;
}

/*
 * The communicator's neighbour state, made at its first MPI_Neighbor_alltoallv (collective: one reduction makes
 * fits every rank's answer); null when memory runs out.
 */
static nbrstate_t *neighbours_of(commstate_t *st, MPI_Comm comm) {
  if (st->nbr != NULL) return st->nbr;
  nbrstate_t *nb = calloc(1, sizeof *nb);
  if (nb == NULL) return NULL;
  size_t n = (size_t)st->p;
  nb->scounts = calloc(n, sizeof(int)), nb->sdispls = calloc(n, sizeof(int));
  nb->rcounts = calloc(n, sizeof(int)), nb->rdispls = calloc(n, sizeof(int));
  unsigned char *seen = malloc(n);
  int bad = nb->scounts == NULL || nb->sdispls == NULL || nb->rcounts == NULL || nb->rdispls == NULL || seen == NULL ||
            read_neighbours(nb, comm, st->rank) != 0;
  bad = bad || !distinct(nb->src, nb->indeg, st->p, seen) || !distinct(nb->dst, nb->outdeg, st->p, seen);
  free(seen);
  int any = 0;
  PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm);
  nb->fits = any == 0;
  st->nbr = nb;
  return nb;
}

/*
 * MPI_Neighbor_alltoallv: where every rank's neighbours are distinct ranks, the MPI_Alltoallv whose counts and
 * displacements are the user's at the neighbours' ranks (so the same count matrix, key and plans), else the library's.
 */
int MPI_Neighbor_alltoallv(const void *sendbuf, const int scounts[], const int sdispls[], MPI_Datatype sendtype,
                           void *recvbuf, const int rcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  if (!active()) {
    return PMPI_Neighbor_alltoallv(sendbuf, scounts, sdispls, sendtype, recvbuf, rcounts, rdispls, recvtype, comm);
  }
  double t0 = MPI_Wtime();
  commstate_t *st = state_of(comm);
  nbrstate_t *nb = st == NULL || st->inter ? NULL : neighbours_of(st, comm); /* no topology on an intercommunicator */
  if (nb == NULL) {
    return PMPI_Neighbor_alltoallv(sendbuf, scounts, sdispls, sendtype, recvbuf, rcounts, rdispls, recvtype, comm);
  }
  ncall_t n = {{sendbuf, nb->scounts, nb->sdispls, sendtype, recvbuf, nb->rcounts, nb->rdispls, recvtype, comm, 0, 0},
               scounts, sdispls, rcounts, rdispls};
  if (!nb->fits) {
    int rc = fallback_neighbor(&n);
    note_unkeyed(st, WHY_NEIGHBOURS, MPI_Wtime() - t0);
    return rc;
  }
  if (sendbuf != MPI_IN_PLACE) { /* the entries of the other ranks stay zero */
    for (int k = 0; k < nb->outdeg; k++) nb->scounts[nb->dst[k]] = scounts[k], nb->sdispls[nb->dst[k]] = sdispls[k];
    for (int k = 0; k < nb->indeg; k++) nb->rcounts[nb->src[k]] = rcounts[k], nb->rdispls[nb->src[k]] = rdispls[k];
  }
  return intercept(&n.c, fallback_neighbor, "MPI_Neighbor_alltoallv", __builtin_return_address(0));
}

/* Writes text to path through a temporary file and a rename, so a reader never sees half of it; 0 when it could not. */
static int write_file(const char *path, const char *text) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = text == NULL ? NULL : fopen(tmp, "w");
  if (f == NULL) {
    fprintf(stderr, "commplan: cannot write %s (%s)\n", tmp, text == NULL ? "out of memory" : strerror(errno));
    return 0;
  }
  int ok = fputs(text, f) >= 0;
  ok = fclose(f) == 0 && ok;
  if (!ok || rename(tmp, path) != 0) {
    fprintf(stderr, "commplan: cannot write %s (%s)\n", path, strerror(errno));
    remove(tmp);
    return 0;
  }
  return 1;
}

/*
 * The capture files of a pattern on its communicator's rank 0: the matrix, then its record (only when the matrix was
 * written, so that a record never names a matrix that is not there).
 */
static void write_capture(const commstate_t *st, const pattern_t *pt, int world_rank) {
  char hex[33], base[4096], path[4200];
  key_hex(pt->key, hex);
  mkdir(capture_dir, 0777);
  char call[32]; /* the call's name in the file name: alltoallv, alltoall or neighbor_alltoallv */
  snprintf(call, sizeof call, "%s", pt->kind + 4);
  for (char *ch = call; *ch != '\0'; ch++) *ch = (char)(*ch >= 'A' && *ch <= 'Z' ? *ch - 'A' + 'a' : *ch);
  snprintf(base, sizeof base, "%s/%s-%d-%d-%s", capture_dir, hex, world_rank, st->id, call);
  json_t *rows = json_array();
  for (int i = 0; i < st->p; i++) {
    json_t *row = json_array();
    for (int j = 0; j < st->p; j++) json_array_append_new(row, json_integer(pt->matrix[(size_t)i * st->p + j]));
    json_array_append_new(rows, row);
  }
  json_t *m = json_pack("{s:s, s:i, s:I, s:o}", "format", "commplan.matrix/v1", "p", st->p, "elementBytes",
                        (json_int_t)pt->eb, "rows", rows);
  char *text = json_dumps(m, JSON_COMPACT);
  snprintf(path, sizeof path, "%s.matrix.json", base);
  int written = write_file(path, text);
  free(text);
  json_decref(m);
  if (!written) return;
  const char *file = strrchr(path, '/') + 1;
  json_t *rec = json_pack("{s:s, s:s, s:i, s:I, s:s, s:s, s:I, s:s}", "format", "commplan.capture/v1", "key", hex,
                          "p", st->p, "elementBytes", (json_int_t)pt->eb, "call", pt->kind, "site", pt->site,
                          "calls", (json_int_t)pt->calls, "matrix", file);
  text = json_dumps(rec, JSON_INDENT(2));
  snprintf(path, sizeof path, "%s.capture.json", base);
  write_file(path, text);
  free(text);
  json_decref(rec);
}

static void print_stats(int world_rank) {
  long calls = 0, hits = 0, fallbacks = 0;
  for (const commstate_t *st = states; st != NULL; st = st->next) {
    for (int w = 0; w < WHY_COUNT; w++) {
      if (st->unkeyed[w] == 0) continue;
      fprintf(stderr, "commplan: rank %d comm %d (P=%d): %ld calls fell back before the lookup: %s; time %.6f s\n",
              world_rank, st->id, st->p, st->unkeyed[w], why_names[w], st->unkeyed_time[w]);
      calls += st->unkeyed[w], fallbacks += st->unkeyed[w];
    }
    for (const pattern_t *pt = st->patterns; pt != NULL; pt = pt->next) {
      if (pt->calls == 0) continue; /* a direct plan no call of this rank fitted */
      char hex[33], why[512] = "";
      size_t used = 0;
      long fb = 0;
      key_hex(pt->key, hex);
      for (int w = 0; w < WHY_COUNT; w++) {
        if (pt->fallbacks[w] == 0) continue;
        used += (size_t)snprintf(why + used, sizeof why - used, "%s%s %ld", used == 0 ? " (" : ", ", why_names[w],
                                 pt->fallbacks[w]);
        if (used >= sizeof why) used = sizeof why - 1;
        fb += pt->fallbacks[w];
      }
      if (used > 0) snprintf(why + used, sizeof why - used, ")");
      fprintf(stderr,
              "commplan: rank %d comm %d (P=%d) %s %s at %s: %ld calls, %ld hits%s%s, %ld fallbacks%s; "
              "time %.6f s in plans, %.6f s in fallbacks, %.6f s in lookups\n",
              world_rank, st->id, st->p, pt->kind, hex, pt->site, pt->calls, pt->hits,
              pt->plan != NULL ? " of " : "", pt->plan != NULL ? commplan_plan_algorithm(pt->plan) : "", fb, why,
              pt->time_hit, pt->time_fallback, pt->time_lookup);
      calls += pt->calls, hits += pt->hits, fallbacks += fb;
    }
  }
  fprintf(stderr, "commplan: rank %d total: %ld calls, %ld hits, %ld fallbacks\n", world_rank, calls, hits, fallbacks);
}

extern char **environ;

/* The interposer's variables (after COMMPLAN_), the values each takes (null: any) and what another value does. */
static const char *const env_names[] = {"CAPTURE", "PLANS", "STATS", "REPLAY", "LOCAL", "AGREE"};
static const char *const env_values[] = {NULL, NULL, "0, 1 or all", "all", "0 or 1", "p2p or library"};
static const char *const env_other[] = {NULL, NULL, "taken as 1", "ignored", "taken as 1", "ignored"};

/* Edit distance of two short strings (at most 31 characters each; longer: a large number). */
static int distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 31 || lb > 31) return 99;
  int d[32][32];
  for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    for (size_t j = 1; j <= lb; j++) {
      int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
      d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
  }
  return d[la][lb];
}

/* Whether value is one of the words of list ("a, b or c"). */
static int one_of(const char *value, const char *list) {
  size_t n = strlen(value);
  for (const char *w = list; *w != '\0';) {
    size_t len = strcspn(w, ", ");
    if (len == n && strncmp(w, value, n) == 0) return 1;
    w += len;
    w += strspn(w, ", ");
    if (strncmp(w, "or ", 3) == 0) w += 3;
  }
  return 0;
}

/*
 * World rank 0 names, one line each, a COMMPLAN_ variable that looks like a misspelt one of the interposer's (which
 * would otherwise be ignored without a word), a value a variable does not take, a COMMPLAN_CAPTURE directory it cannot
 * create (it makes it here) and a COMMPLAN_PLANS store without a programs/ directory. Nothing else changes.
 */
static void check_env(void) {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  size_t nnames = sizeof env_names / sizeof env_names[0];
  for (char **e = environ; e != NULL && *e != NULL; e++) {
    if (strncmp(*e, "COMMPLAN_", 9) != 0) continue;
    char name[64];
    const char *eq = strchr(*e, '=');
    size_t len = eq == NULL ? strlen(*e) : (size_t)(eq - *e);
    if (len - 9 >= sizeof name) continue;
    memcpy(name, *e + 9, len - 9);
    name[len - 9] = '\0';
    const char *value = eq == NULL ? "" : eq + 1;
    int known = -1, near = -1;
    for (size_t k = 0; k < nnames; k++) {
      if (strcmp(name, env_names[k]) == 0) known = (int)k;
      else if (near < 0 && distance(name, env_names[k]) <= 2) near = (int)k;
    }
    if (known < 0 && near >= 0) {
      fprintf(stderr, "commplan: COMMPLAN_%s is not a variable of libcommplan, ignored (did you mean COMMPLAN_%s?)\n",
              name, env_names[near]);
    } else if (known >= 0 && env_values[known] != NULL && *value != '\0' && !one_of(value, env_values[known])) {
      fprintf(stderr, "commplan: COMMPLAN_%s=%s is not a value it takes (%s): %s\n", name, value, env_values[known],
              env_other[known]);
    }
  }
  const char *capture = getenv("COMMPLAN_CAPTURE");
  if (capture != NULL && *capture != '\0') { /* made now (MPI_Finalize writes into it), so that a bad one shows early */
    struct stat sb;
    if (mkdir(capture, 0777) != 0 && errno != EEXIST) {
      fprintf(stderr, "commplan: COMMPLAN_CAPTURE=%s: cannot create the directory (%s): nothing will be captured\n",
              capture, strerror(errno));
    } else if (stat(capture, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
      fprintf(stderr, "commplan: COMMPLAN_CAPTURE=%s: not a directory: nothing will be captured\n", capture);
    }
  }
  const char *plans = getenv("COMMPLAN_PLANS");
  if (plans != NULL && *plans != '\0') {
    char path[4096];
    struct stat sb;
    snprintf(path, sizeof path, "%s/programs", plans);
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
      fprintf(stderr, "commplan: COMMPLAN_PLANS=%s: no directory %s (commplan precompute --from-capture writes it): "
              "every call runs the library's collective\n", plans, path);
    }
  }
}

/*
 * Checks the environment (check_env); makes sure every rank runs with the same settings (whether it captures, whether
 * it has a store, COMMPLAN_REPLAY, COMMPLAN_LOCAL, COMMPLAN_AGREE; not the paths, which may be node-local copies):
 * ranks that differ would enter different collectives and wait for each other forever, so one reduction over
 * MPI_COMM_WORLD finds out, world rank 0 says so in one line and every rank goes straight to the library. Then makes
 * MPI_COMM_WORLD's state at once, so that its one-time agreement is not part of the program's first call.
 * Collective: every rank that loaded the library takes part, with or without COMMPLAN_ variables.
 */
static void world_state(void) {
  check_env();
  init_env();
  uint64_t mine = (uint64_t)(capture_dir != NULL) | (uint64_t)(plans_dir != NULL) << 1 | (uint64_t)replay_all << 2 |
                  (uint64_t)!local_ok << 3 | (uint64_t)agree_p2p << 4;
  uint64_t words[2] = {mine, ~mine}, most[2] = {0, 0}; /* the largest and (complemented) the smallest setting */
  PMPI_Allreduce(words, most, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (most[0] != ~most[1]) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      fprintf(stderr, "commplan: the ranks' COMMPLAN_ settings differ (COMMPLAN_CAPTURE, COMMPLAN_PLANS, "
              "COMMPLAN_REPLAY, COMMPLAN_LOCAL or COMMPLAN_AGREE set on some ranks only: pass them to every rank, "
              "mpirun -x NAME): libcommplan is off for this run\n");
    }
    capture_dir = plans_dir = NULL;
  }
  if (active()) state_of(MPI_COMM_WORLD);
}

int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) world_state();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) world_state();
  return rc;
}

int MPI_Finalize(void) {
  init_env();
  int world_rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  if (capture_dir != NULL) {
    for (const commstate_t *st = states; st != NULL; st = st->next) {
      for (const pattern_t *pt = st->patterns; pt != NULL; pt = pt->next) {
        if (pt->matrix != NULL) write_capture(st, pt, world_rank);
      }
    }
  }
  if (stats_mode != NULL && *stats_mode != '\0' && strcmp(stats_mode, "0") != 0 &&
      (world_rank == 0 || strcmp(stats_mode, "all") == 0)) {
    print_stats(world_rank);
  }
  return PMPI_Finalize();
}
