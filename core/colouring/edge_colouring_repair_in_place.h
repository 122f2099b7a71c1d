/* edge_colouring_repair_in_place.h - a schedule repaired in place as multiplicities change
 * (edge_colouring_repair_in_place.c). */
#ifndef SM_EDGE_COLOURING_REPAIR_IN_PLACE_H
#define SM_EDGE_COLOURING_REPAIR_IN_PLACE_H

#include <stdint.h>
#include "edge_colouring.h"

typedef struct sm_isched sm_isched;

sm_isched *sm_isched_new(int nprocs);
void sm_isched_free(sm_isched *s);
/* Make dst (for as many processors) a copy of src: a memory copy, no
 * rebuild of the per-processor and per-round lists. */
void sm_isched_copy(sm_isched *dst, const sm_isched *src);
/* Replace the contents by a full schedule. */
void sm_isched_load(sm_isched *s, const sm_schedule *full);
/* mu(p,q) changed by delta quanta: repair locally. The rounds stay
 * matchings covering the multigraph; the colours may exceed a rebuild's. */
void sm_isched_add(sm_isched *s, int p, int q, int64_t delta);
int64_t sm_isched_colours(const sm_isched *s);
/* Copy out as a schedule (lower left 0); free with sm_schedule_free. */
void sm_isched_export(const sm_isched *s, sm_schedule *out);
/* The same into a schedule an earlier export filled (or a zeroed one),
 * reusing its arrays when they are large enough. */
void sm_isched_refill(const sm_isched *s, sm_schedule *out);

#endif
