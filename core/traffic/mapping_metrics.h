/* mapping_metrics.h - placement metrics beside energy (SPEC 4, mapping
 * strategies): hops, hop_cells, dilation_max, congestion, cardinality. */
#ifndef SM_MAPPING_METRICS_H
#define SM_MAPPING_METRICS_H

#include <stdint.h>
#include "core/model/grid.h"
#include "core/model/topology.h"

typedef struct sm_metrics {
    int64_t hops;          /* sum over cut directed edges of node hops */
    int64_t hop_cells;     /* sum of cells x hops */
    int64_t dilation_max;  /* largest hop count of a cut edge */
    int64_t congestion;    /* most messages on one physical link */
    int64_t cardinality;   /* communicating block pairs on adjacent nodes */
} sm_metrics;

void sm_metrics_compute(const sm_grid *g, const sm_topo *t, const int *map,
                        sm_metrics *out);

#endif
