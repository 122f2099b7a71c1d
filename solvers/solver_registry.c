/* solver_registry.c - every solver by its Tcl name (SPEC 4), in the order the
 * Solver pane lists them. A new solver is one more row here. */
#include "solver_registry.h"

#include <string.h>

static const sm_solver_ops *const registry[] = {
    &sm_solver_lb,
    &sm_solver_dm,
    &sm_solver_mm,
    &sm_solver_na,
    &sm_solver_proportional,
    &sm_solver_rcb,
    &sm_solver_ilp,
    &sm_solver_tabu,
    &sm_solver_popta,
    &sm_solver_sfc,
    &sm_solver_bokhari,
    &sm_solver_random,
    &sm_solver_minmd,
    &sm_solver_ga,
    NULL,
};

const sm_solver_ops *const *sm_solver_list(void) { return registry; }

const sm_solver_ops *sm_solver_find(const char *name)
{
    for (int i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}
