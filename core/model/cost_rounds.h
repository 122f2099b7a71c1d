/* cost_rounds.h - the incremental colouring behind sm_cost (cost_rounds.c);
 * for cost.c only. */
#ifndef SM_COST_COLOUR_H
#define SM_COST_COLOUR_H

#include <stdint.h>

struct sm_cost_colouring;
struct sm_cost_colouring *sm_cost_colouring_new(int nprocs);
void sm_cost_colouring_free(struct sm_cost_colouring *h);
/* A cut edge of processor-pair slot (sm_cost's pairmap) came (+) or went
 * (-): quanta dk on M, dm messages on M1. Noted until the next evaluation;
 * nothing at all until the colouring is first asked for. */
void sm_cost_colouring_edge(struct sm_cost_colouring *h, int slot, int64_t dk, int64_t dm);

#endif
