/* model.c - model options and the objective order. */
#include "model.h"

#include <math.h>
#include <string.h>

void sm_model_default(sm_model *m)
{
    memset(m, 0, sizeof *m);
    m->rounds = SM_ROUNDS_MAXDEG;
    m->overlap = 1;
    m->round_time = 1e-6;
    m->unused_idle = 1;
}

static const char *rounds_names[] = {"maxdeg", "vizing", "colouring"};

const char *sm_rounds_name(sm_rounds_model r) { return rounds_names[r]; }

int sm_rounds_parse(const char *s, sm_rounds_model *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(s, rounds_names[i]) == 0) {
            *out = (sm_rounds_model)i;
            return 0;
        }
    return -1;
}

int64_t sm_quanta(double delta, double round_time)
{
    double k = ceil(delta / round_time - 1e-9);
    if (!(k >= 1)) return 1;
    if (k > 4e18) return (int64_t)4e18;
    return (int64_t)k;
}

int sm_eval_finite(const sm_eval *ev)
{
    const double v[] = {ev->time, ev->comp_time, ev->comm_time, ev->energy, ev->energy_dynamic,
                        ev->energy_static, ev->energy_idle, ev->energy_comm,
                        ev->energy_comm_intra, ev->energy_comm_inter};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

int sm_model_meets_deadline(const sm_model *m, double time)
{
    return !m->has_deadline || time <= m->deadline * (1 + 1e-9);
}

void sm_eval_judge(sm_eval *ev, const sm_model *m)
{
    ev->feasible = ev->memory_ok && sm_eval_finite(ev) && sm_model_meets_deadline(m, ev->time);
}

int sm_eval_compare(const sm_eval *a, const sm_eval *b)
{
    if (a->feasible != b->feasible) return a->feasible ? -1 : 1;
    double tol = 1e-12 * (fabs(a->energy) + fabs(b->energy));
    if (a->energy < b->energy - tol) return -1;
    if (a->energy > b->energy + tol) return 1;
    if (a->time < b->time) return -1;
    if (a->time > b->time) return 1;
    return 0;
}
