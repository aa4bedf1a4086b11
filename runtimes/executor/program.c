/* program.c: reads one rank's commplan.program/v1 program with jansson and checks what the executor relies on. */
#define _XOPEN_SOURCE 700 /* POSIX 2008 and realpath */
#include "program.h"

#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FORMAT "commplan.program/v1"

static int errorf(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* An integer member >= 0 (JSON integers only), or -1 when missing or not one. */
static int64_t get_count(const json_t *obj, const char *key) {
  const json_t *v = json_object_get(obj, key);
  if (!json_is_integer(v) || json_integer_value(v) < 0) return -1;
  return (int64_t)json_integer_value(v);
}

static json_t *load_json(const char *path, char *err, size_t errlen) {
  json_error_t jerr;
  struct stat st;
  if (stat(path, &st) != 0) { /* jansson would say "line -1: unable to open <path>: ..." */
    errorf(err, errlen, "%s: no such file", path);
    return NULL;
  }
  json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
  if (doc == NULL) {
    if (jerr.line < 1) errorf(err, errlen, "%s: %s", path, jerr.text); /* not a parse error: no line */
    else errorf(err, errlen, "%s:line %d: %s", path, jerr.line, jerr.text);
    return NULL;
  }
  if (!json_is_object(doc)) {
    json_decref(doc);
    errorf(err, errlen, "%s: not a JSON object", path);
    return NULL;
  }
  const char *format = json_string_value(json_object_get(doc, "format"));
  if (format == NULL || strcmp(format, FORMAT) != 0) {
    json_decref(doc);
    errorf(err, errlen, "%s: /format is not '" FORMAT "'", path);
    return NULL;
  }
  return doc;
}

/* Reads a p-entry array of counts into a new array. */
static int64_t *get_counts(const json_t *obj, const char *key, int p, const char *file, char *err, size_t errlen) {
  const json_t *arr = json_object_get(obj, key);
  if (!json_is_array(arr) || json_array_size(arr) != (size_t)p) {
    errorf(err, errlen, "%s: /%s must be an array of %d counts", file, key, p);
    return NULL;
  }
  int64_t *out = malloc(sizeof(int64_t) * (size_t)(p > 0 ? p : 1));
  if (out == NULL) {
    errorf(err, errlen, "%s: out of memory", file);
    return NULL;
  }
  for (int i = 0; i < p; i++) {
    const json_t *v = json_array_get(arr, (size_t)i);
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
      free(out);
      errorf(err, errlen, "%s: /%s/%d must be an integer >= 0", file, key, i);
      return NULL;
    }
    out[i] = (int64_t)json_integer_value(v);
  }
  return out;
}

/*
 * Reads one side's counts and displacements into p-entry arrays (zero for the peers a rank has no
 * block with): the full form holds p of each; the peer form ("sendPeers" / "recvPeers") lists the
 * peers, ascending, with a count >= 1 and a displacement each.
 */
static int read_side(const json_t *entry, const char *side, int p, int64_t **counts, int64_t **displs,
                     const char *file, char *err, size_t errlen) {
  char kp[16], kc[16], kd[16];
  snprintf(kp, sizeof kp, "%sPeers", side);
  snprintf(kc, sizeof kc, "%sCounts", side);
  snprintf(kd, sizeof kd, "%sDispls", side);
  const json_t *peers = json_object_get(entry, kp);
  if (peers == NULL) {
    if (!(*counts = get_counts(entry, kc, p, file, err, errlen))) return -1;
    if (!(*displs = get_counts(entry, kd, p, file, err, errlen))) return -1;
    return 0;
  }
  const json_t *jc = json_object_get(entry, kc), *jd = json_object_get(entry, kd);
  size_t n = json_array_size(peers);
  if (!json_is_array(peers) || !json_is_array(jc) || !json_is_array(jd) || json_array_size(jc) != n ||
      json_array_size(jd) != n || n > (size_t)p) {
    return errorf(err, errlen, "%s: /%s, /%s and /%s must be arrays of one length, at most %d", file, kp, kc, kd, p);
  }
  *counts = calloc((size_t)(p > 0 ? p : 1), sizeof(int64_t));
  *displs = calloc((size_t)(p > 0 ? p : 1), sizeof(int64_t));
  if (*counts == NULL || *displs == NULL) return errorf(err, errlen, "%s: out of memory", file);
  int64_t last = -1;
  for (size_t k = 0; k < n; k++) {
    const json_t *pv = json_array_get(peers, k), *cv = json_array_get(jc, k), *dv = json_array_get(jd, k);
    if (!json_is_integer(pv) || json_integer_value(pv) <= last || json_integer_value(pv) >= p || !json_is_integer(cv) ||
        json_integer_value(cv) < 1 || !json_is_integer(dv) || json_integer_value(dv) < 0) {
      return errorf(err, errlen, "%s: /%s/%zu must be a peer above the one before it and below %d, with a count >= 1 and a displacement >= 0",
                    file, kp, k, p);
    }
    last = (int64_t)json_integer_value(pv);
    (*counts)[last] = (int64_t)json_integer_value(cv);
    (*displs)[last] = (int64_t)json_integer_value(dv);
  }
  return 0;
}

static int64_t buffer_size(const program_t *prog, int buf) {
  return buf == BUF_SEND ? prog->send_size : buf == BUF_RECV ? prog->recv_size : prog->scratch;
}

static const char *buffer_names[] = {"send", "recv", "scratch"};

/*
 * Appends the pieces of `arr` to prog->pieces; returns their element total, or -1. `writes`: the pieces are written (a
 * receive's, a copy's destination), so none may be in the send buffer (nothing is ever written there).
 */
static int64_t read_pieces(program_t *prog, const json_t *arr, int writes, const char *file, int64_t opi, char *err,
                           size_t errlen) {
  if (!json_is_array(arr) || json_array_size(arr) == 0) {
    return errorf(err, errlen, "%s: ops[%lld]: pieces must be a non-empty array", file, (long long)opi);
  }
  int64_t total = 0;
  for (size_t k = 0; k < json_array_size(arr); k++) {
    const json_t *pc = json_array_get(arr, k);
    const char *name = json_string_value(json_array_get(pc, 0));
    const json_t *off = json_array_get(pc, 1), *cnt = json_array_get(pc, 2);
    int buf = -1;
    for (int b = 0; b < 3 && name != NULL; b++) {
      if (strcmp(name, buffer_names[b]) == 0) buf = b;
    }
    if (!json_is_array(pc) || json_array_size(pc) != 3 || buf < 0 || !json_is_integer(off) || !json_is_integer(cnt) ||
        json_integer_value(off) < 0 || json_integer_value(cnt) < 1) {
      return errorf(err, errlen, "%s: ops[%lld]: piece %zu must be [send|recv|scratch, offset >= 0, count >= 1]",
                    file, (long long)opi, k);
    }
    int64_t o = (int64_t)json_integer_value(off), c = (int64_t)json_integer_value(cnt);
    if (writes && buf == BUF_SEND) {
      return errorf(err, errlen, "%s: ops[%lld]: piece %zu [send, %lld, %lld] is in the send buffer, which is never written",
                    file, (long long)opi, k, (long long)o, (long long)c);
    }
    if (o > buffer_size(prog, buf) - c) {
      return errorf(err, errlen, "%s: ops[%lld]: piece [%s, %lld, %lld] is outside the %s buffer (%lld elements)",
                    file, (long long)opi, name, (long long)o, (long long)c, name, (long long)buffer_size(prog, buf));
    }
    if (prog->npieces == INT64_MAX) return errorf(err, errlen, "%s: too many pieces", file);
    prog->pieces[prog->npieces++] = (piece_t){buf, o, c};
    total += c;
  }
  return total;
}

/* Reads operation i's list of the operations it waits for (dataflow), at item `at` of its array. */
static int read_after(program_t *prog, const json_t *jop, size_t at, int64_t i, const char *file, char *err,
                      size_t errlen) {
  op_t *op = &prog->ops[i];
  const json_t *arr = json_array_get(jop, at);
  op->after_first = prog->nafter;
  op->after_n = 0;
  if (!(prog->variant == VARIANT_DATAFLOW)) return 0;
  if (!json_is_array(arr)) {
    return errorf(err, errlen, "%s: ops[%lld]: a dataflow operation ends with the list of operations it waits for", file,
                  (long long)i);
  }
  int64_t prev = -1;
  for (size_t k = 0; k < json_array_size(arr); k++) {
    const json_t *v = json_array_get(arr, k);
    if (!json_is_integer(v) || json_integer_value(v) <= prev || json_integer_value(v) >= i) {
      return errorf(err, errlen, "%s: ops[%lld]: waits-for entry %zu must be an earlier operation, ascending", file,
                    (long long)i, k);
    }
    prev = (int64_t)json_integer_value(v);
    prog->after[prog->nafter++] = prev;
  }
  op->after_n = prog->nafter - op->after_first;
  return 0;
}

/* The entries of every operation's waits-for list (dataflow): item 5 of a copy, item 6 of a message. */
static int64_t count_after(const json_t *ops) {
  int64_t n = 0;
  for (size_t i = 0; i < json_array_size(ops); i++) {
    const json_t *op = json_array_get(ops, i);
    const char *kind = json_string_value(json_array_get(op, 1));
    n += (int64_t)json_array_size(json_array_get(op, kind != NULL && strcmp(kind, "copy") == 0 ? 5 : 6));
  }
  return n;
}

static int64_t count_pieces(const json_t *ops) {
  int64_t n = 0;
  for (size_t i = 0; i < json_array_size(ops); i++) {
    const json_t *op = json_array_get(ops, i);
    const char *kind = json_string_value(json_array_get(op, 1));
    if (kind != NULL && strcmp(kind, "copy") == 0) {
      n += (int64_t)json_array_size(json_array_get(op, 3)) + (int64_t)json_array_size(json_array_get(op, 4));
    } else {
      n += (int64_t)json_array_size(json_array_get(op, 5));
    }
  }
  return n;
}

/* Reads one operation at index i of ops. */
static int read_op(program_t *prog, const json_t *jop, int64_t i, int64_t prev_round, const char *file, char *err,
                   size_t errlen) {
  op_t *op = &prog->ops[i];
  const char *kind = json_string_value(json_array_get(jop, 1));
  const json_t *round = json_array_get(jop, 0);
  if (!json_is_array(jop) || kind == NULL || !json_is_integer(round) || json_integer_value(round) < prev_round ||
      json_integer_value(round) >= prog->rounds) {
    return errorf(err, errlen, "%s: ops[%lld] must start with a round in %lld..%lld and a kind", file,
                  (long long)i, (long long)prev_round, (long long)prog->rounds - 1);
  }
  op->round = (int64_t)json_integer_value(round);
  op->first = prog->npieces;
  if (strcmp(kind, "copy") == 0) {
    const json_t *cnt = json_array_get(jop, 2);
    if (json_array_size(jop) != (size_t)((prog->variant == VARIANT_DATAFLOW) ? 6 : 5) || !json_is_integer(cnt) ||
        json_integer_value(cnt) < 1) {
      return errorf(err, errlen, "%s: ops[%lld]: a copy is [round, \"copy\", count, pieces, pieces%s]", file,
                    (long long)i, (prog->variant == VARIANT_DATAFLOW) ? ", after" : "");
    }
    if (read_after(prog, jop, 5, i, file, err, errlen) != 0) return -1;
    op->kind = OP_COPY;
    op->peer = prog->rank;
    op->tag = 0;
    op->count = (int64_t)json_integer_value(cnt);
    int64_t a = read_pieces(prog, json_array_get(jop, 3), 0, file, i, err, errlen);
    if (a < 0) return -1;
    op->n = prog->npieces - op->first;
    op->first2 = prog->npieces;
    int64_t b = read_pieces(prog, json_array_get(jop, 4), 1, file, i, err, errlen);
    if (b < 0) return -1;
    op->n2 = prog->npieces - op->first2;
    if (a != op->count || b != op->count) {
      return errorf(err, errlen, "%s: ops[%lld]: pieces add up to %lld and %lld, not the count %lld", file,
                    (long long)i, (long long)a, (long long)b, (long long)op->count);
    }
    return 0;
  }
  const json_t *peer = json_array_get(jop, 2), *tag = json_array_get(jop, 3), *cnt = json_array_get(jop, 4);
  int is_send = strcmp(kind, "send") == 0;
  if ((!is_send && strcmp(kind, "recv") != 0) || json_array_size(jop) != (size_t)((prog->variant == VARIANT_DATAFLOW) ? 7 : 6) ||
      !json_is_integer(peer) ||
      json_integer_value(peer) < 0 || json_integer_value(peer) >= prog->p || !json_is_integer(tag) ||
      json_integer_value(tag) < 0 || json_integer_value(tag) > 32767 || !json_is_integer(cnt) ||
      json_integer_value(cnt) < 1 || json_integer_value(cnt) > INT_MAX) {
    return errorf(err, errlen,
                  "%s: ops[%lld]: a message is [round, send|recv, peer < %d, tag 0..32767, count 1..%d, pieces%s]",
                  file, (long long)i, prog->p, INT_MAX, (prog->variant == VARIANT_DATAFLOW) ? ", after" : "");
  }
  if (json_integer_value(peer) == prog->rank) {
    return errorf(err, errlen, "%s: ops[%lld]: %s peer %d is the rank itself (use copy)", file, (long long)i, kind,
                  prog->rank);
  }
  if (read_after(prog, jop, 6, i, file, err, errlen) != 0) return -1;
  op->kind = is_send ? OP_SEND : OP_RECV;
  op->peer = (int)json_integer_value(peer);
  op->tag = (int)json_integer_value(tag);
  op->count = (int64_t)json_integer_value(cnt);
  int64_t a = read_pieces(prog, json_array_get(jop, 5), !is_send, file, i, err, errlen);
  if (a < 0) return -1;
  op->n = prog->npieces - op->first;
  op->first2 = op->n2 = 0;
  if (a != op->count) {
    return errorf(err, errlen, "%s: ops[%lld]: pieces add up to %lld, not the count %lld", file, (long long)i,
                  (long long)a, (long long)op->count);
  }
  return 0;
}

/* Fills prog from the header of doc and its rank entry. */
static int read_rank(program_t *prog, const json_t *doc, const json_t *entry, const char *file, char *err,
                     size_t errlen) {
  int64_t p = get_count(doc, "p"), eb = get_count(doc, "elementBytes"), rounds = get_count(doc, "rounds");
  const char *variant = json_string_value(json_object_get(doc, "variant"));
  const char *algorithm = json_string_value(json_object_get(doc, "algorithm"));
  if (p < 1 || p > INT_MAX || eb < 1 || rounds < 0 || variant == NULL || algorithm == NULL ||
      (strcmp(variant, "blocking") != 0 && strcmp(variant, "nonblocking") != 0 && strcmp(variant, "dataflow") != 0)) {
    return errorf(err, errlen, "%s: the header needs p >= 1, elementBytes >= 1, rounds >= 0, variant, algorithm", file);
  }
  if (p != prog->p) return errorf(err, errlen, "%s: /p is %lld but the job has %d ranks", file, (long long)p, prog->p);
  prog->element_bytes = eb;
  prog->rounds = rounds;
  prog->blocking = strcmp(variant, "blocking") == 0;
  prog->variant = prog->blocking ? VARIANT_BLOCKING
                  : strcmp(variant, "dataflow") == 0 ? VARIANT_DATAFLOW
                                                     : VARIANT_NONBLOCKING;
  snprintf(prog->algorithm, sizeof prog->algorithm, "%s", algorithm);
  prog->send_size = get_count(entry, "sendSize");
  prog->recv_size = get_count(entry, "recvSize");
  prog->scratch = get_count(entry, "scratch");
  if (prog->send_size < 0 || prog->recv_size < 0 || prog->scratch < 0) {
    return errorf(err, errlen, "%s: sendSize, recvSize and scratch must be integers >= 0", file);
  }
  if (read_side(entry, "send", prog->p, &prog->send_counts, &prog->send_displs, file, err, errlen) != 0) return -1;
  if (read_side(entry, "recv", prog->p, &prog->recv_counts, &prog->recv_displs, file, err, errlen) != 0) return -1;
  for (int j = 0; j < prog->p; j++) {
    if (prog->send_displs[j] > prog->send_size - prog->send_counts[j] ||
        prog->recv_displs[j] > prog->recv_size - prog->recv_counts[j]) {
      return errorf(err, errlen, "%s: the block of rank %d is outside the send or receive buffer", file, j);
    }
  }
  const json_t *ops = json_object_get(entry, "ops");
  if (!json_is_array(ops)) return errorf(err, errlen, "%s: ops must be an array", file);
  prog->nops = (int64_t)json_array_size(ops);
  int64_t npieces = count_pieces(ops), nafter = (prog->variant == VARIANT_DATAFLOW) ? count_after(ops) : 0;
  prog->ops = malloc(sizeof(op_t) * (size_t)(prog->nops > 0 ? prog->nops : 1));
  prog->pieces = malloc(sizeof(piece_t) * (size_t)(npieces > 0 ? npieces : 1));
  prog->after = malloc(sizeof(int64_t) * (size_t)(nafter > 0 ? nafter : 1));
  if (prog->ops == NULL || prog->pieces == NULL || prog->after == NULL) {
    return errorf(err, errlen, "%s: out of memory", file);
  }
  int64_t prev = 0;
  for (int64_t i = 0; i < prog->nops; i++) {
    if (read_op(prog, json_array_get(ops, (size_t)i), i, prev, file, err, errlen) != 0) return -1;
    prev = prog->ops[i].round;
  }
  return 0;
}

/* Directory part of path (with the trailing slash), or "" when it has none. */
static void dir_of(const char *path, char *dir, size_t len) {
  const char *slash = strrchr(path, '/');
  size_t n = slash == NULL ? 0 : (size_t)(slash - path) + 1;
  if (n >= len) n = len - 1;
  memcpy(dir, path, n);
  dir[n] = '\0';
}

/* False when the entry `name` of a split index is absolute or has a ".." component (not inside the index's directory). */
static int relative_inside(const char *name) {
  if (name[0] == '/') return 0;
  for (const char *c = name; *c != '\0';) {
    size_t n = strcspn(c, "/");
    if (n == 2 && c[0] == '.' && c[1] == '.') return 0;
    c += n;
    if (*c == '/') c++;
  }
  return 1;
}

/*
 * False when `path` (a rank file named relative to `dir`) resolves, through a symbolic link, outside `dir`; true when
 * either cannot be resolved (reading the file then names the problem).
 */
static int resolves_inside(const char *dir, const char *path) {
  char *base = realpath(dir[0] == '\0' ? "." : dir, NULL), *real = realpath(path, NULL);
  int ok = 1;
  if (base != NULL && real != NULL) {
    size_t n = strlen(base);
    if (n > 0 && base[n - 1] == '/') n--; /* the root directory */
    ok = strncmp(real, base, n) == 0 && (real[n] == '\0' || real[n] == '/');
  }
  free(base);
  free(real);
  return ok;
}

int program_load(const char *path, int rank, program_t *out, char *err, size_t errlen) {
  int p = out->p;
  memset(out, 0, sizeof *out);
  out->p = p;
  out->rank = rank;
  char file[8192];
  struct stat st;
  if (stat(path, &st) != 0) return errorf(err, errlen, "%s: no such file or directory", path);
  if (S_ISDIR(st.st_mode)) {
    snprintf(file, sizeof file, "%s/index.json", path);
  } else {
    snprintf(file, sizeof file, "%s", path);
  }
  json_t *doc = load_json(file, err, errlen);
  if (doc == NULL) return -1;
  if (get_count(doc, "p") != p) {
    json_decref(doc);
    return errorf(err, errlen, "%s: /p is not the job's %d ranks", file, p);
  }
  const json_t *files = json_object_get(doc, "files");
  if (files != NULL) {
    const char *name = json_string_value(json_array_get(files, (size_t)rank));
    if (!json_is_array(files) || json_array_size(files) != (size_t)p || name == NULL) {
      json_decref(doc);
      return errorf(err, errlen, "%s: /files must list %d file names", file, p);
    }
    char dir[4096], rank_file[8192];
    dir_of(file, dir, sizeof dir);
    snprintf(rank_file, sizeof rank_file, "%s%s", dir, name);
    int inside = relative_inside(name), resolved = inside && resolves_inside(dir, rank_file);
    if (!resolved) {
      char *quoted = json_dumps(json_array_get(files, (size_t)rank), JSON_ENCODE_ANY); /* escaped: one line */
      errorf(err, errlen, "%s: /files/%d %s %s", file, rank, quoted != NULL ? quoted : "entry",
             inside ? "leads out of the index's directory (a symbolic link)"
                    : "is not inside the index's directory (give a path relative to it, without '..')");
      free(quoted);
      json_decref(doc);
      return -1;
    }
    json_decref(doc);
    snprintf(file, sizeof file, "%s", rank_file);
    doc = load_json(file, err, errlen);
    if (doc == NULL) return -1;
  }
  const json_t *ranks = json_object_get(doc, "ranks"), *entry = NULL;
  for (size_t i = 0; i < json_array_size(ranks); i++) {
    const json_t *e = json_array_get(ranks, i);
    if (get_count(e, "rank") == rank) entry = e;
  }
  if (entry == NULL) {
    json_decref(doc);
    return errorf(err, errlen, "%s: /ranks has no program of rank %d", file, rank);
  }
  int rc = read_rank(out, doc, entry, file, err, errlen);
  json_decref(doc);
  return rc;
}

void program_free(program_t *prog) {
  free(prog->send_counts);
  free(prog->send_displs);
  free(prog->recv_counts);
  free(prog->recv_displs);
  free(prog->ops);
  free(prog->pieces);
  free(prog->after);
  memset(prog, 0, sizeof *prog);
}
