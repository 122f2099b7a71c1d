/* cost_rounds_term.h - the rounds of the colouring model kept up to date as
 * blocks move (cost_rounds_term.c): the incremental schedules behind sm_cost.
 * It sees the cost state only through an sm_colouring_view, so it does not
 * include cost_incremental.h (cost_incremental.c includes this, never the other way). */
#ifndef SM_COST_ROUNDS_TERM_H
#define SM_COST_ROUNDS_TERM_H

#include <stdint.h>
#include "core/colouring/edge_colouring.h"
#include "core/colouring/edge_colouring.h"

/* What the colouring needs of the cost state at one evaluation. */
typedef struct sm_colouring_view {
    const int *pair_p, *pair_q;  /* pair slot -> its two processors */
    int nprocs;
    int64_t delta[2];            /* the maximum degree of M and of M1 */
    int active[2];               /* processors of degree > 0 in M, M1 (counted up to 5) */
    /* M (msg 0) or M1 (msg 1) as a pair list for a full rebuild; caller frees. */
    sm_pairmu *(*pairs)(const void *ctx, int msg, int *n);
    const void *ctx;
} sm_colouring_view;

struct sm_cost_colouring;
struct sm_cost_colouring *sm_cost_colouring_new(int nprocs);
void sm_cost_colouring_free(struct sm_cost_colouring *h);
/* A cut edge of processor-pair slot (sm_cost's pairmap) came (+) or went
 * (-): quanta dk on M, dm messages on M1. Noted until the next evaluation;
 * nothing at all until the colouring is first asked for. */
void sm_cost_colouring_edge(struct sm_cost_colouring *h, int slot, int64_t dk, int64_t dm);
/* Whether the colouring is kept (it holds pair slots: they must stay). */
int sm_cost_colouring_live(const struct sm_cost_colouring *h);
/* Rounds and their certified lower bound for M (0) or M1 (1). */
void sm_colouring_rounds(struct sm_cost_colouring *h, const sm_colouring_view *v, int messages,
                         int64_t *rounds, int64_t *lower);
/* The schedule of M into s, reusing s's arrays. */
void sm_colouring_refill(struct sm_cost_colouring *h, const sm_colouring_view *v, sm_schedule *s);
long sm_colouring_rebuilds(const struct sm_cost_colouring *h);
/* h takes src's schedules (brought up to date through src_view first). */
void sm_colouring_adopt(struct sm_cost_colouring *h, struct sm_cost_colouring *src,
                        const sm_colouring_view *src_view);

#endif
