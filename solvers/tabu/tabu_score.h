/* tabu_score.h - how the tabu search ranks mappings (tabu_task_movement.c
 * and the compound step of tabu_rounds_descent.c): deadline and memory
 * violation first, then the objective, then energy, then time. */
#ifndef SM_TABU_SCORE_H
#define SM_TABU_SCORE_H

#include <math.h>

typedef struct {
    double violation, objective, energy, time;
} tabu_score;

/* a strictly better than b (objective and energy within 1e-12 relative
 * are equal: running sums differ in their last bits by the order of the
 * moves that made them). */
static inline int tabu_better(const tabu_score *a, const tabu_score *b)
{
    if (a->violation != b->violation) return a->violation < b->violation;
    double otol = 1e-12 * (fabs(a->objective) + fabs(b->objective));
    if (a->objective < b->objective - otol) return 1;
    if (a->objective > b->objective + otol) return 0;
    double tol = 1e-12 * (fabs(a->energy) + fabs(b->energy));
    if (a->energy < b->energy - tol) return 1;
    if (a->energy > b->energy + tol) return 0;
    return a->time < b->time;
}

#endif
