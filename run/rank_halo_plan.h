/* rank_halo_plan.h - who owns which block and how every halo moves (no MPI here):
 * the ranks are the processors that hold blocks, in processor order (the
 * order of the rankfile core/io/rankfile.c writes); a halo between two
 * blocks of one rank is a copy, between ranks a message. A message carries
 * every halo one block sends another (all directions, in the kernel's
 * direction order), so messages are the model's cut task edges, and in
 * rounds mode each goes in the round the schedule (core/rounds) gives its
 * processor pair. */
#ifndef SMR_RANK_HALO_PLAN_H
#define SMR_RANK_HALO_PLAN_H

#include <stdint.h>
#include "core/kernel/jacobi_stencil_kernel.h"
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"

typedef struct smr_msg {
    int peer;            /* the other rank */
    int src, dst;        /* blocks: src's halos go to dst */
    int round;           /* communication round, 0 in "all" mode */
    int ndirs;
    int dirs[SM_K_MAX_DIRS]; /* d with neighbour(src, d) == dst, in kernel order */
    int64_t cells;
    int64_t offset;      /* into the send or receive buffer, in doubles */
} smr_msg;

typedef struct smr_copy {
    int dst, src, dir;   /* src is dst's neighbour in direction dir */
} smr_copy;

typedef struct smr_plan {
    int nranks, rank;
    int *rank_of_proc;   /* nprocs, -1 for a processor without blocks */
    int *proc_of_rank;   /* nranks */
    int *owner;          /* block -> rank */
    int nmine;
    int *mine;           /* my blocks, ascending */
    int ncopies;
    smr_copy *copies;
    int nsend, nrecv;
    smr_msg *send, *recv;  /* sorted by (round, peer, src, dst) */
    int64_t send_cells, recv_cells;
    int nrounds;         /* 1 + the highest round of any message */
    int dirs[SM_K_MAX_DIRS][3];
    int ndir;
} smr_plan;

/* Ranks from the mapping: nranks must be the processors that hold blocks,
 * or 1 (every block in one process: the reference run). 0, or -1 and a
 * sentence in why. */
int smr_ranks(const sm_topo *t, const int *map, int nblocks, int nranks, smr_plan *pl,
              char *why, size_t whylen);
/* The round of every task edge between two processors (-1 within one),
 * from the schedule of the scenario's communication multigraph: the
 * messages of a processor pair fill its schedule entries in edge order,
 * each message taking its quanta. Returns the number of rounds; *out is
 * grid->nedges entries, caller frees. */
int smr_edge_rounds(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map,
                    int **out);
/* Copies and messages of this rank (pl->rank); round_of_edge NULL puts
 * every message in round 0 ("all"). */
void smr_plan_build(smr_plan *pl, const sm_kgrid *kg, const sm_grid *g, const int *map,
                    const int *round_of_edge);
void smr_plan_free(smr_plan *pl);

/* The kernel's grid for a stencilmap grid. */
void smr_kgrid(const sm_grid *g, sm_kgrid *kg);

#endif
