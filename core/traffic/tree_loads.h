/* tree_loads.h - a tree network's uplink loads (fat-tree levels,
 * dragonfly ranks), kept up to date move by move: what the Network pane
 * shows of a tree. Counting every task edge again after each move costs
 * O(edges) - a second at 10^8 edges - so the loads remember the mapping
 * they are for, and an update takes the changed blocks' edges away as
 * they were and adds them as they are. */
#ifndef SM_TREE_LOADS_H
#define SM_TREE_LOADS_H

#include <stdint.h>
#include "core/model/grid.h"
#include "core/model/topo.h"

typedef struct sm_tree_loads {
    int nlevels;                   /* levels with more than one group */
    int *groups;                   /* per level */
    int64_t **up_m, **up_c;        /* [level][group]: messages, cells going up */
    int64_t **dn_m, **dn_c;        /* ... coming down */
    /* The mapping they are for, and the grid and machine it was on. */
    int *map, n;
    const sm_grid *grid;
    sm_grid_spec spec;
    const sm_topo *topo;
    unsigned long long procs_sum;
    /* Bumped by every init and update; after an update (incremental set)
     * the task edges it counted again and their processors before it:
     * edges[k], from[k] -> to[k], k < nmoved - so a caller keeping its
     * own per-link lists can follow the same moves. */
    unsigned long long gen;
    int incremental;
    int *moved, *moved_from, *moved_to, nmoved, moved_cap;
} sm_tree_loads;

/* Counts every task edge of map (g and t: a tree network). */
void sm_tree_loads_init(sm_tree_loads *tl, const sm_grid *g, const sm_topo *t, const int *map);
/* The loads of map from the last ones: 1 when updated, 0 when they are
 * for another grid or machine or more than max_changed blocks moved
 * (then call init). */
int sm_tree_loads_update(sm_tree_loads *tl, const sm_grid *g, const sm_topo *t, const int *map,
                         int max_changed);
void sm_tree_loads_free(sm_tree_loads *tl);

#endif
