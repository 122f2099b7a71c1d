/* mpi_halo_exchange.h - one halo exchange of a rank's blocks (MPI): copies within
 * the rank, then the messages, round by round ("rounds": in each round a
 * rank exchanges with the partners the schedule pairs it with, and waits
 * for them before the next round) or all at once ("all": every receive and
 * send posted non-blocking, one wait). */
#ifndef SMR_MPI_HALO_EXCHANGE_H
#define SMR_MPI_HALO_EXCHANGE_H

#include <mpi.h>
#include "rank_halo_plan.h"

typedef struct smr_exchange {
    const smr_plan *pl;
    sm_kblock *blocks;   /* indexed by block id; only mine are allocated */
    double *sendbuf, *recvbuf;
    MPI_Request *req;
    /* Running totals. */
    double wait_s;
    int64_t bytes, messages;
} smr_exchange;

/* Sizes every message from the blocks and allocates the buffers. */
void smr_exchange_init(smr_exchange *x, smr_plan *pl, sm_kblock *blocks);
/* The halos between blocks of this rank: copies. */
void smr_exchange_copies(smr_exchange *x);
/* The halos from other ranks: the messages. */
void smr_exchange_messages(smr_exchange *x, MPI_Comm comm);
void smr_exchange_free(smr_exchange *x);

#endif
