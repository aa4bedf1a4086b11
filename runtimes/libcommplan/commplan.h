/*
 * commplan.h: runs a commplan.program/v1 plan (as `commplan precompute` stores it) on an application's own
 * MPI_Alltoallv buffers, counts and displacements. C11 + MPI-3. Errors are return codes with a message.
 */
#ifndef COMMPLAN_H
#define COMMPLAN_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Return codes: the plan ran; the call ran the library's MPI_Alltoallv instead (the reason in the message); errors. */
enum {
  COMMPLAN_OK = 0,
  COMMPLAN_FALLBACK = 1,
  COMMPLAN_ERR_ARG = -1, /* a bad argument (null plan, wrong communicator, ...) */
  COMMPLAN_ERR_LOAD = -2, /* the plan could not be read or is not for this communicator */
  COMMPLAN_ERR_MPI = -3, /* an MPI call failed; the message holds its error string */
  COMMPLAN_ERR_NOMEM = -4
};

/** A plan loaded for one communicator (opaque). */
typedef struct commplan_plan commplan_plan;

/** A persistent exchange: a plan bound to fixed buffers, counts, displacements and datatypes (opaque). */
typedef struct commplan_request commplan_request;

/**
 * Loads the plan in directory `dir` (a split commplan.program/v1 program of any variant: nonblocking, blocking or
 * dataflow; index.json and rank files, each rank reads only its own file) for `comm`. Collective over comm: every rank
 * returns COMMPLAN_OK or every rank returns COMMPLAN_ERR_LOAD (a rank's own reason in err, or "another rank could not
 * load the plan"). A rank that passes no directory (NULL) gets COMMPLAN_ERR_ARG and the others COMMPLAN_ERR_LOAD, so
 * none waits. The plan keeps a duplicate of comm for its messages, so they never match the application's. An
 * intercommunicator is refused (COMMPLAN_ERR_ARG on every rank).
 */
int commplan_plan_load(const char *dir, MPI_Comm comm, commplan_plan **out, char *err, size_t errlen);

/** Frees a plan (collective over its communicator: it frees the duplicate). Null is accepted. */
void commplan_plan_free(commplan_plan *plan);

/** The plan's message of its last call that did not return COMMPLAN_OK ("" when none). */
const char *commplan_plan_message(const commplan_plan *plan);

/** The algorithm the plan was made with (the program header's `algorithm`). */
const char *commplan_plan_algorithm(const commplan_plan *plan);

/**
 * MPI_Alltoallv through the plan: every byte lands where MPI_Alltoallv puts it (displacements need not be packed).
 * Collective over comm (the plan's communicator). When any rank's counts differ from the plan's, a datatype is not
 * contiguous or their sizes differ from the plan's element, or sendbuf is MPI_IN_PLACE, every rank runs
 * PMPI_Alltoallv and returns COMMPLAN_FALLBACK (one small MPI_Allreduce decides that together).
 */
int commplan_alltoallv(commplan_plan *plan, const void *sendbuf, const int *scounts, const int *sdispls,
                       MPI_Datatype sendtype, void *recvbuf, const int *rcounts, const int *rdispls,
                       MPI_Datatype recvtype, MPI_Comm comm);

/**
 * The persistent form (in the spirit of MPI_Alltoallv_init): checks the arguments once (collectively, as
 * commplan_alltoallv) and binds them; start / wait then run the plan with no allocation. Returns COMMPLAN_OK with
 * *req set, COMMPLAN_FALLBACK with *req set to a request whose start / wait run PMPI_Alltoallv, or an error.
 */
int commplan_alltoallv_init(commplan_plan *plan, const void *sendbuf, const int *scounts, const int *sdispls,
                            MPI_Datatype sendtype, void *recvbuf, const int *rcounts, const int *rdispls,
                            MPI_Datatype recvtype, MPI_Comm comm, commplan_request **req);

/**
 * Starts a persistent exchange: local copies and the first round's messages are posted (a dataflow program: every
 * operation that waits for none, receives first).
 */
int commplan_start(commplan_request *req);

/** Completes a started exchange (the remaining rounds run here; a dataflow program's rest by MPI_Waitsome). */
int commplan_wait(commplan_request *req);

/** Frees a persistent request (not started, or waited for). Null is accepted. */
void commplan_request_free(commplan_request *req);

/**
 * The lookup key of a call's counts: every rank hashes its rank, P, the element size and its send and receive count
 * rows; the key is the sum over ranks of two mixes of that hash (mod 2^64). `commplan_key_local` gives one rank's
 * two terms; an MPI_Allreduce (MPI_SUM, MPI_UINT64_T) of them gives the key. The TypeScript side
 * (src/cli/capture-key.ts) computes the same key from a matrix.
 */
void commplan_key_local(int rank, int p, int64_t element_bytes, const int *scounts, const int *rcounts,
                        uint64_t out[2]);

#ifdef __cplusplus
}
#endif

#endif
