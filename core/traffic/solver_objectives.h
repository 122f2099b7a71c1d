/* solver_objectives.h - the mapping objectives of SPEC 4 (energy, time, hops,
 * hop_cells, congestion, cardinality) kept incrementally: a move or swap
 * updates the value in time proportional to the blocks' degree (times the
 * route length for congestion, log P for energy and time), so every
 * improving solver scores candidates the same way. */
#ifndef SM_SOLVER_OBJECTIVES_H
#define SM_SOLVER_OBJECTIVES_H

#include "core/model/cost_incremental.h"
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"
#include "core/net/adjacent_nodes_bitset.h"

typedef enum { SM_OBJ_ENERGY, SM_OBJ_TIME, SM_OBJ_HOPS, SM_OBJ_HOP_CELLS,
               SM_OBJ_CONGESTION, SM_OBJ_CARDINALITY } sm_objective_kind;

#define SM_OBJ_NAMES "energy|time|hops|hop_cells|congestion|cardinality"

int sm_objective_parse(const char *name, sm_objective_kind *out);
const char *sm_objective_name(sm_objective_kind k);

typedef struct sm_objective sm_objective;

/* Built for a mapping (copied). */
sm_objective *sm_objective_new(const sm_grid *g, const sm_topo *t, const sm_model *m,
                               sm_objective_kind k, const int *map);
void sm_objective_free(sm_objective *o);

/* Lower is better (cardinality is negated here). */
double sm_objective_score(const sm_objective *o);
/* The metric as users read it (cardinality positive). */
double sm_objective_value(const sm_objective *o);
const int *sm_objective_map(const sm_objective *o);

void sm_objective_move(sm_objective *o, int block, int proc);
void sm_objective_swap(sm_objective *o, int b1, int b2);
/* Score change of a move or swap, the state left unchanged. Cardinality
 * is fastest when b1 stays the same over many calls (the block whose
 * partners are scored). */
double sm_objective_move_delta(sm_objective *o, int block, int proc);
double sm_objective_swap_delta(sm_objective *o, int b1, int b2);
/* out[i] = sm_objective_swap_delta(o, b1, b2s[i]) for i < n, in one call
 * (bokhari's partners of a step: no call and no objective test per
 * partner). */
void sm_objective_swap_deltas(sm_objective *o, int b1, const int *b2s, int n, double *out);

/* The distance-1 table the cardinality objective reads (NULL: another
 * objective, or a network too large for one). */
const sm_node_adjacency *sm_objective_node_adjacency(const sm_objective *o);

#endif
