/* consolidate.h - starts that empty processors at loose deadlines. */
#ifndef SM_CONSOLIDATE_H
#define SM_CONSOLIDATE_H

#include "solvers/stepper/solver.h"

/* Offer (sm_solver_offer) mappings that fill processors, most
 * energy-efficient first, up to what the model's deadline lets each
 * compute. Needs a deadline; returns the number offered. */
int sm_consolidation_starts(sm_solver *s);

#endif
