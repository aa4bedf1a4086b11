/* main.c: commplan-exec, the reference MPI executor of commplan.program/v1 programs (and the MPI_Alltoallv baseline). */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <time.h>
#include <mpi.h>
#ifdef SMPI_H /* built with smpicc: SimGrid's own sleep, in simulated seconds */
#include <simgrid/actor.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exchange.h"
#include "pattern.h"
#include "program.h"

#define USAGE "usage: commplan-exec <program: split directory, index.json or whole document> [--iterations N] [--baseline | --baseline-only] [--sync-start] " \
              "[--shared-buffers]\n"

#define HELP                                                                                                           \
  "  --iterations N     exchanges timed (default 5); rank 0 prints the min, median and max of their max over ranks\n"  \
  "  --baseline         also time MPI_Alltoallv on the program's layout; --baseline-only: it alone\n"                \
  "  --sync-start       start every exchange on all ranks at one instant of a global clock, not after a barrier\n"   \
  "  --shared-buffers   built with smpicc only: the data buffers (send, receive, scratch, staging) from\n"           \
  "                     SMPI_SHARED_MALLOC, shared by all ranks; the data is NOT checked (SMPI's times unchanged)\n"

static const char *variant_names[] = {"nonblocking", "blocking", "dataflow"};

typedef struct {
  const char *path;
  int iterations;
  int baseline;
  int program; /* 0 with --baseline-only: MPI_Alltoallv on the program's layout, the program itself not run */
  int sync_start;
  int shared_buffers; /* built with smpicc only: data buffers from SMPI_SHARED_MALLOC, the data not checked */
} args_t;

/* Reads the flags: 0, 1 for --help, or -1 with a message in err. */
static int parse_args(int argc, char **argv, args_t *args, char *err, size_t errlen) {
  args->path = NULL;
  args->iterations = 5;
  args->baseline = 0;
  args->program = 1;
  args->sync_start = 0;
  args->shared_buffers = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      return 1;
    } else if (strcmp(argv[i], "--baseline") == 0) {
      args->baseline = 1;
    } else if (strcmp(argv[i], "--baseline-only") == 0) {
      args->baseline = 1;
      args->program = 0;
    } else if (strcmp(argv[i], "--sync-start") == 0) {
      args->sync_start = 1;
    } else if (strcmp(argv[i], "--shared-buffers") == 0) {
      args->shared_buffers = 1;
    } else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
      char *end;
      long n = strtol(argv[++i], &end, 10);
      if (*end != '\0' || n < 1 || n > 1000000) {
        snprintf(err, errlen, "--iterations must be an integer in 1..1000000, got '%s'", argv[i]);
        return -1;
      }
      args->iterations = (int)n;
    } else if (argv[i][0] == '-' || args->path != NULL) {
      snprintf(err, errlen, "unexpected argument '%s'", argv[i]);
      return -1;
    } else {
      args->path = argv[i];
    }
  }
  if (args->path == NULL) {
    snprintf(err, errlen, "no program given");
    return -1;
  }
  return 0;
}

/* True on every rank when ok is true on every rank; otherwise the lowest failing rank prints its message. */
static int all_ok(int ok, int rank, const char *err) {
  int first = ok ? INT_MAX : rank, lowest;
  MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (lowest == rank) fprintf(stderr, "executor: rank %d: %s\n", rank, err);
  return lowest == INT_MAX;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/*
 * Starts an exchange on every rank at one instant of a global clock (SMPI's simulated time, or one node's clock) and
 * returns that instant: after a barrier, the ranks agree on the latest exit and on the longest agreement time d, and
 * sleep until latest + max(1 ms, 4 d). A barrier alone lets the ranks leave microseconds apart, and each rank's own
 * start then charges that skew to the exchange. *late is set when this rank woke after the instant.
 *
 * Under SMPI the ranks wake at that instant in rank order: nanosleep's whole nanoseconds made each rank wake up to
 * 1 ns early, in an order set by rounding, and SimGrid then ran each rank's posts before the next woke; on a fat tree
 * the flows' start order changes SimGrid's max-min rates (its selective update), so the same program took 31.43 or
 * 37.12 us (P = 8, every message at once) by that order alone. sg_actor_sleep_until to at + r d, r d below SimGrid's
 * 1 ns timing precision, wakes every rank in one step, rank 0 first, each posting in turn as SMPI's trace replay and
 * commplan's program replay do.
 */
static double start_together(int *late) {
  MPI_Barrier(MPI_COMM_WORLD);
  double exit_time = MPI_Wtime(), latest, took, longest;
  MPI_Allreduce(&exit_time, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  took = MPI_Wtime() - exit_time;
  MPI_Allreduce(&took, &longest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double at = latest + (4 * longest > 1e-3 ? 4 * longest : 1e-3), wait = at - MPI_Wtime();
  if (wait < 0) {
    *late = 1;
    return at;
  }
#ifdef SMPI_H
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  sg_actor_sleep_until(at + 0.5e-9 * rank / p);
  return at;
#else
  struct timespec ts;
  ts.tv_sec = (time_t)wait;
  ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
  nanosleep(&ts, NULL);
  return at;
#endif
}

/*
 * Runs one kind of exchange N times (barrier, time, check) and prints its line on rank 0; returns the wrong bytes of all
 * ranks. With shared buffers (covered NULL) nothing is poisoned or checked, and the line says so.
 */
static long long measure(exchange_t *ex, int alltoallv, int iterations, int sync_start, const unsigned char *covered,
                         const char *label) {
  const program_t *prog = ex->prog;
  int rank = prog->rank;
  double *times = malloc(sizeof(double) * (size_t)iterations), *worst = malloc(sizeof(double) * (size_t)iterations);
  mismatch_t first = {0, 0, 0, 0, 0, 0}, here;
  long long wrong = 0;
  int first_exchange = 0, late = 0, any_late = 0;
  for (int it = 0; it < iterations; it++) {
    if (covered != NULL) pattern_poison_recv(prog, ex->bufs[BUF_RECV], covered);
    double t0;
    if (sync_start) {
      t0 = start_together(&late);
    } else {
      MPI_Barrier(MPI_COMM_WORLD);
      t0 = MPI_Wtime();
    }
    if (alltoallv) {
      exchange_alltoallv(ex);
    } else {
      exchange_run(ex);
    }
    times[it] = MPI_Wtime() - t0;
    int64_t w = covered != NULL ? pattern_check_recv(prog, ex->bufs[BUF_RECV], covered, &here) : 0;
    if (w > 0 && wrong == 0) first = here, first_exchange = it + 1;
    wrong += w;
  }
  MPI_Reduce(times, worst, iterations, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&late, &any_late, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  long long total_wrong = 0, bytes = (long long)(prog->recv_size * prog->element_bytes), total_bytes = 0;
  MPI_Reduce(&wrong, &total_wrong, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&bytes, &total_bytes, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  /* The lowest rank with a wrong byte sends its first one to rank 0. */
  int mine = wrong > 0 ? rank : INT_MAX, culprit;
  MPI_Allreduce(&mine, &culprit, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  long long info[6] = {first.origin, first.offset, first.byte, first.expected, first.got, first_exchange};
  if (culprit != INT_MAX && culprit != 0) {
    if (rank == culprit) MPI_Send(info, 6, MPI_LONG_LONG, 0, 0, MPI_COMM_WORLD);
    if (rank == 0) MPI_Recv(info, 6, MPI_LONG_LONG, culprit, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == 0) {
    qsort(worst, (size_t)iterations, sizeof(double), compare_double);
    double median = iterations % 2 ? worst[iterations / 2] : (worst[iterations / 2 - 1] + worst[iterations / 2]) / 2;
    printf("%s P=%d: %d exchange(s), time per exchange (max over ranks%s) min %.6g s, median %.6g s, max %.6g s; ", label,
           prog->p, iterations, sync_start ? (any_late ? ", from a common start: a rank woke late" : ", from a common start") : "",
           worst[0], median, worst[iterations - 1]);
    if (covered == NULL) {
      printf("data NOT checked (--shared-buffers: the ranks share their buffers' pages; %lld bytes per exchange)\n",
             total_bytes);
    } else if (total_wrong == 0) {
      printf("every byte ok (%lld bytes per exchange)\n", total_bytes);
    } else if (info[0] < 0) {
      printf("FAIL: %lld wrong byte(s); first: rank %d, receive-buffer element %lld (outside every block) written: "
             "0x%02llx (exchange %lld)\n",
             total_wrong, culprit, info[1], info[4], info[5]);
    } else {
      printf("FAIL: %lld wrong byte(s); first: rank %d, origin %lld, offset %lld, byte %lld: expected 0x%02llx, got "
             "0x%02llx (exchange %lld)\n",
             total_wrong, culprit, info[0], info[1], info[2], info[3], info[4], info[5]);
    }
    fflush(stdout);
  }
  free(times);
  free(worst);
  return culprit == INT_MAX ? 0 : 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, code = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char err[1024] = "";
  args_t args;
  program_t prog;
  exchange_t ex;
  memset(&prog, 0, sizeof prog);
  memset(&ex, 0, sizeof ex);
  int parsed = parse_args(argc, argv, &args, err, sizeof err);
  if (parsed == 1) {
    if (rank == 0) printf(USAGE HELP);
    MPI_Finalize();
    return 0;
  }
  if (parsed != 0) {
    if (rank == 0) fprintf(stderr, "executor: %s\n" USAGE, err);
    MPI_Finalize();
    return 2;
  }
  if (args.shared_buffers && !EXCHANGE_SHARED_BUFFERS) {
    if (rank == 0) fprintf(stderr, "executor: --shared-buffers needs the executor built with smpicc (SMPI_SHARED_MALLOC)\n");
    MPI_Finalize();
    return 2;
  }
  prog.p = size;
  int ok = program_load(args.path, rank, &prog, err, sizeof err) == 0;
  if (!all_ok(ok, rank, err)) {
    code = 2;
    goto done;
  }
  ok = exchange_init(&ex, &prog, args.shared_buffers, err, sizeof err) == 0;
  if (!all_ok(ok, rank, err)) {
    code = 2;
    goto done;
  }
  /* Shared buffers: every rank writes the same pages, so there is no pattern to fill or check (covered stays NULL). */
  unsigned char *covered = args.shared_buffers ? NULL : pattern_coverage(&prog);
  if (!all_ok(args.shared_buffers || covered != NULL, rank, "out of memory")) {
    code = 2;
    goto done;
  }
  if (!args.shared_buffers) pattern_fill_send(&prog, ex.bufs[BUF_SEND]);
  int64_t nops = prog.nops, max_ops = 0;
  MPI_Reduce(&nops, &max_ops, 1, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("executor: %s, %s, P = %d, %lld rounds, elementBytes %lld, up to %lld operations per rank\n",
           prog.algorithm, variant_names[prog.variant], size, (long long)prog.rounds,
           (long long)prog.element_bytes, (long long)max_ops);
    if (args.shared_buffers) {
      printf("executor: --shared-buffers: every rank's data buffers share the same pages (SMPI_SHARED_MALLOC); the "
             "delivered data is NOT checked\n");
    }
  }
  char label[128];
  snprintf(label, sizeof label, "program %s %s", prog.algorithm, variant_names[prog.variant]);
  if (args.program && measure(&ex, 0, args.iterations, args.sync_start, covered, label) != 0) code = 1;
  if (args.baseline) {
    if (!all_ok(ex.baseline_ok, rank, "a count or displacement is above INT_MAX: no MPI_Alltoallv baseline")) {
      code = code ? code : 2;
    } else if (measure(&ex, 1, args.iterations, args.sync_start, covered, "alltoallv") != 0) {
      code = 1;
    }
  }
  free(covered);
done:
  exchange_free(&ex);
  program_free(&prog);
  MPI_Finalize();
  return code;
}
