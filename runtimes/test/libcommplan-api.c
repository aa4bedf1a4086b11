/*
 * libcommplan-api.c: commplan.h used directly. Loads a split program made for MATRIX, then checks against
 * PMPI_Alltoallv on the same data: commplan_alltoallv with unpacked displacements, the persistent form (init once,
 * start / wait three times), a call whose counts differ from the plan's (COMMPLAN_FALLBACK, still exact), a
 * non-contiguous datatype and one without holes that reverses its bytes (COMMPLAN_FALLBACK, still exact), the wrong
 * communicator (COMMPLAN_ERR_ARG), a missing plan (COMMPLAN_ERR_LOAD on every rank), no directory on one rank (refused
 * there, COMMPLAN_ERR_LOAD on the others, no hang) and an intercommunicator (COMMPLAN_ERR_ARG on every rank). Prints
 * "api ok" on rank 0 when every byte matched.
 * Usage: libcommplan-api MATRIX.json PROGRAM_DIR
 */
#include <jansson.h>
#include <string.h>

#include "../libcommplan/commplan.h"

static int fails;

static void check(int cond, const char *what, int rank) {
  if (!cond) {
    fprintf(stderr, "rank %d: %s\n", rank, what);
    fails++;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  json_error_t jerr;
  json_t *m = json_load_file(argv[1], 0, &jerr);
  int eb = (int)json_integer_value(json_object_get(m, "elementBytes"));
  json_t *rows = json_object_get(m, "rows");
  int *sc = malloc(sizeof(int) * (size_t)p), *sd = malloc(sizeof(int) * (size_t)p);
  int *rc = malloc(sizeof(int) * (size_t)p), *rd = malloc(sizeof(int) * (size_t)p);
  int st = 0, rt = 0;
  for (int j = p - 1; j >= 0; j--) { /* reverse order with gaps: nothing like the packed layout */
    sc[j] = (int)json_integer_value(json_array_get(json_array_get(rows, (size_t)rank), (size_t)j));
    rc[j] = (int)json_integer_value(json_array_get(json_array_get(rows, (size_t)j), (size_t)rank));
    sd[j] = st + 2, st += sc[j] + 2;
    rd[j] = rt + 1, rt += rc[j] + 1;
  }
  MPI_Datatype elem;
  MPI_Type_contiguous(eb, MPI_BYTE, &elem);
  MPI_Type_commit(&elem);
  size_t sbytes = (size_t)(st + 2) * (size_t)eb, rbytes = (size_t)(rt + 2) * (size_t)eb; /* room for the vector type */
  unsigned char *sendbuf = malloc(sbytes), *want = malloc(rbytes), *got = malloc(rbytes);
  for (size_t k = 0; k < sbytes; k++) sendbuf[k] = (unsigned char)(k * 31 + (size_t)rank * 7);
  memset(want, 0xee, rbytes);
  PMPI_Alltoallv(sendbuf, sc, sd, elem, want, rc, rd, elem, MPI_COMM_WORLD);

  char err[512];
  commplan_plan *plan;
  int r = commplan_plan_load(argv[2], MPI_COMM_WORLD, &plan, err, sizeof err);
  check(r == COMMPLAN_OK, err, rank);
  if (r != COMMPLAN_OK) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(got, 0xee, rbytes);
  r = commplan_alltoallv(plan, sendbuf, sc, sd, elem, got, rc, rd, elem, MPI_COMM_WORLD);
  check(r == COMMPLAN_OK && memcmp(got, want, rbytes) == 0, "commplan_alltoallv", rank);

  commplan_request *req;
  r = commplan_alltoallv_init(plan, sendbuf, sc, sd, elem, got, rc, rd, elem, MPI_COMM_WORLD, &req);
  check(r == COMMPLAN_OK, "commplan_alltoallv_init", rank);
  for (int it = 0; it < 3 && r == COMMPLAN_OK; it++) {
    memset(got, 0xee, rbytes);
    check(commplan_start(req) == COMMPLAN_OK && commplan_wait(req) == COMMPLAN_OK && memcmp(got, want, rbytes) == 0,
          "persistent start / wait", rank);
  }
  commplan_request_free(req);

  /* rank 0 sends one element less to the last rank: every rank falls back */
  int *sc2 = malloc(sizeof(int) * (size_t)p), *rc2 = malloc(sizeof(int) * (size_t)p);
  memcpy(sc2, sc, sizeof(int) * (size_t)p), memcpy(rc2, rc, sizeof(int) * (size_t)p);
  if (rank == 0 && sc2[p - 1] > 0) sc2[p - 1]--;
  if (rank == p - 1 && rc2[0] > 0 && sc[p - 1] > 0) rc2[0]--;
  unsigned char *want2 = malloc(rbytes);
  memset(want2, 0xee, rbytes), memset(got, 0xee, rbytes);
  PMPI_Alltoallv(sendbuf, sc2, sd, elem, want2, rc2, rd, elem, MPI_COMM_WORLD);
  r = commplan_alltoallv(plan, sendbuf, sc2, sd, elem, got, rc2, rd, elem, MPI_COMM_WORLD);
  int changed = 0, any = 0;
  if (rank == 0) changed = sc[p - 1] > 0;
  MPI_Allreduce(&changed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  check(r == (any ? COMMPLAN_FALLBACK : COMMPLAN_OK) && memcmp(got, want2, rbytes) == 0, "changed counts", rank);

  MPI_Datatype vec; /* eb bytes spread with holes: not contiguous */
  MPI_Type_vector(eb, 1, 2, MPI_BYTE, &vec);
  MPI_Type_commit(&vec);
  MPI_Datatype vr;
  MPI_Type_create_resized(vec, 0, eb, &vr);
  MPI_Type_commit(&vr);
  r = commplan_alltoallv(plan, sendbuf, sc, sd, vr, got, rc, rd, vr, MPI_COMM_WORLD);
  check(r == COMMPLAN_FALLBACK && strstr(commplan_plan_message(plan), "contiguous") != NULL, "non-contiguous", rank);
  if (eb >= 2) { /* eb bytes in reverse order: no holes, lower bound 0, extent eb, but MPI moves them reversed */
    int *ones = malloc(sizeof(int) * (size_t)eb), *back = malloc(sizeof(int) * (size_t)eb);
    for (int k = 0; k < eb; k++) ones[k] = 1, back[k] = eb - 1 - k;
    MPI_Datatype rev;
    MPI_Type_indexed(eb, ones, back, MPI_BYTE, &rev);
    MPI_Type_commit(&rev);
    memset(want2, 0xee, rbytes), memset(got, 0xee, rbytes);
    PMPI_Alltoallv(sendbuf, sc, sd, rev, want2, rc, rd, elem, MPI_COMM_WORLD);
    r = commplan_alltoallv(plan, sendbuf, sc, sd, rev, got, rc, rd, elem, MPI_COMM_WORLD);
    check(r == COMMPLAN_FALLBACK && memcmp(got, want2, rbytes) == 0, "a type that reverses its bytes", rank);
    MPI_Type_free(&rev), free(ones), free(back);
  }
  check(commplan_alltoallv(plan, sendbuf, sc, sd, elem, got, rc, rd, elem, MPI_COMM_SELF) == COMMPLAN_ERR_ARG ||
            p == 1,
        "wrong communicator", rank);
  commplan_plan_free(plan);
  commplan_plan *none;
  r = commplan_plan_load("/nonexistent/commplan-plan", MPI_COMM_WORLD, &none, err, sizeof err);
  check(r == COMMPLAN_ERR_LOAD && none == NULL && strlen(err) > 0, "a missing plan", rank);
  /* no directory on rank 0 only: that rank is refused (COMMPLAN_ERR_ARG), the others return too (no hang) */
  err[0] = '\0';
  r = commplan_plan_load(rank == 0 ? NULL : argv[2], MPI_COMM_WORLD, &none, err, sizeof err);
  check(none == NULL && (rank == 0 ? r == COMMPLAN_ERR_ARG && strstr(err, "directory") != NULL
                                   : r == COMMPLAN_ERR_LOAD && strstr(err, "another rank") != NULL),
        "no directory on one rank", rank);
  if (p >= 2) { /* an intercommunicator (ranks below p / 2 and the rest) is refused on every rank */
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank < p / 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank < p / 2 ? p / 2 : 0, 5, &inter);
    err[0] = '\0';
    r = commplan_plan_load(argv[2], inter, &none, err, sizeof err);
    check(r == COMMPLAN_ERR_ARG && none == NULL && strstr(err, "intercommunicator") != NULL, "an intercommunicator",
          rank);
    MPI_Comm_free(&inter), MPI_Comm_free(&half);
  }
  int all = 0;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("api ok (%s)\n", argv[2]);
  MPI_Type_free(&vr), MPI_Type_free(&vec), MPI_Type_free(&elem);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
