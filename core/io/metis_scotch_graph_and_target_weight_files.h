/* metis_scotch_graph_and_target_weight_files.h - the task graph for METIS (gpmetis), Scotch (gmap) and
 * GraphML readers, and the speed-weighted target parts beside it
 * (graph export -tpwgts, -target). */
#ifndef SM_METIS_SCOTCH_GRAPH_AND_TARGET_WEIGHT_FILES_H
#define SM_METIS_SCOTCH_GRAPH_AND_TARGET_WEIGHT_FILES_H

#include <stddef.h>
#include "core/model/grid.h"
#include "core/model/topology.h"

typedef enum { SM_GFMT_METIS, SM_GFMT_SCOTCH, SM_GFMT_GRAPHML } sm_graph_format;

int sm_graph_format_parse(const char *s, sm_graph_format *out);
/* Text of the graph; map/topo (both or neither) add a processor attribute
 * to GraphML. Caller frees. */
char *sm_graph_export(const sm_grid *g, sm_graph_format f, const int *map,
                      const sm_topo *t, size_t *len);

/* METIS target partition weights (gpmetis -tpwgts): "i = w" a processor,
 * w proportional to its speed (1 / time per cell), printed to 9 decimals,
 * each within 1e-9 of its share and summing to exactly 1. */
char *sm_tpwgts_text(const sm_topo *t, size_t *len);
/* The same weights in units of 1e-9 (nprocs entries summing to 1e9);
 * caller frees. */
long long *sm_tpwgts_units(const sm_topo *t);
/* A Scotch weighted complete-graph target (gmap's target file):
 * "cmpltw P w0 w1 ...", integer weights proportional to speed. */
char *sm_scotch_target_text(const sm_topo *t, size_t *len);

#endif
