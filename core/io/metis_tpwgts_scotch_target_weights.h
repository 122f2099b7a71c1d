/* metis_tpwgts_scotch_target_weights.h - speed-weighted target parts for METIS and Scotch
 * (graph export -tpwgts, -target). */
#ifndef SM_METIS_TPWGTS_SCOTCH_TARGET_WEIGHTS_H
#define SM_METIS_TPWGTS_SCOTCH_TARGET_WEIGHTS_H

#include <stddef.h>
#include "core/model/topology.h"

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
