/* list_pane_rows.h - the rows of the list panes, in display order: processors
 * sorted, filtered and grouped; processor pairs of the multigraph. Shared
 * by drawing, key actions and mouse clicks; no curses. */
#ifndef SM_LIST_PANE_ROWS_H
#define SM_LIST_PANE_ROWS_H

#include "app.h"

typedef struct sm_proc_row {
    int proc;       /* -1: a group heading */
    int group;      /* node, or network group */
    sm_proc_eval pe;
} sm_proc_row;

/* Rows for the Processors pane: cost and ev of the mapping shown;
 * caller frees. */
sm_proc_row *sm_proc_rows(const sm_app *app, const sm_cost *cost, const sm_eval *ev, int *n);

typedef struct sm_pair_row {
    int p, q;
    int64_t mu;           /* messages p <-> q */
    int inter;            /* different nodes */
    int slot;             /* the pair's slot in the cost state */
} sm_pair_row;

/* Pairs of the mapping a cost holds, by multiplicity, largest first;
 * from the cost's pair table, never a walk over the grid's edges; caller
 * frees. */
sm_pair_row *sm_pair_rows(const sm_app *app, const sm_cost *cost, int *n);

/* The same rows kept in order across the moves of one cost state: a move
 * changes the multiplicity of a few pairs, and putting those back in
 * place is much cheaper than sorting every pair again (a whole machine
 * has 10^5 - 10^6 pairs). Rebuilt whole for another cost state or when
 * many pairs changed. */
typedef struct sm_pair_list {
    sm_pair_row *rows;
    int n;
    unsigned long long serial; /* the cost state's (sm_cost.serial), 0: none */
    int64_t *seen;             /* per pair slot, the multiplicity listed */
    int nseen;
} sm_pair_list;
void sm_pair_list_update(sm_pair_list *l, const sm_app *app, const sm_cost *cost);
void sm_pair_list_free(sm_pair_list *l);

/* The Communication pane draws the rounds schedule (each pair's rounds,
 * one chip per round) while the mapping sends at most this many quanta
 * (Sum k_e, the eval's edges): the schedule has up to that many entries
 * and is walked per frame. A whole machine's mapping sends 10^7 - 10^8
 * (gigabytes of schedule); the pane then lists the pairs and gives the
 * model's rounds, and `model rounds` still builds the schedule. */
#define SM_SCHEDULE_DRAW_MAX 4000000
static inline int sm_schedule_drawable(const sm_cost *c) { return c->edges <= SM_SCHEDULE_DRAW_MAX; }

/* Is block b next to the highlighted pair's other processor? */
int sm_block_in_pair(const sm_app *app, const int *map, int b);

#endif
