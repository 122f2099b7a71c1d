/* metis_scotch_graph_export.h - the task graph for METIS (gpmetis), Scotch (gmap) and
 * GraphML readers. */
#ifndef SM_METIS_SCOTCH_GRAPH_EXPORT_H
#define SM_METIS_SCOTCH_GRAPH_EXPORT_H

#include "core/model/grid.h"
#include "core/model/topology.h"

typedef enum { SM_GFMT_METIS, SM_GFMT_SCOTCH, SM_GFMT_GRAPHML } sm_graph_format;

int sm_graph_format_parse(const char *s, sm_graph_format *out);
/* Text of the graph; map/topo (both or neither) add a processor attribute
 * to GraphML. Caller frees. */
char *sm_graph_export(const sm_grid *g, sm_graph_format f, const int *map,
                      const sm_topo *t, size_t *len);

#endif
