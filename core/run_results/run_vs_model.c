/* run_vs_model.c - predicted beside measured (run_vs_model.h). */
#include "run_vs_model.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static sm_acc acc(double predicted, double measured)
{
    sm_acc a = {1, predicted, measured, NAN};
    if (measured > 0) a.accuracy = 1.0 - fabs(predicted - measured) / measured;
    return a;
}

int sm_run_compare(const sm_cost *c, const sm_run *r, sm_run_cmp *out, sm_err *e)
{
    memset(out, 0, sizeof *out);
    const sm_topo *t = c->topo;
    sm_eval ev;
    sm_cost_eval(c, &ev);
    if (r->nranks == 1 && ev.procs_used > 1) {
        sm_err_set_code(e, "RUN MISMATCH",
                        "the run is a one-process reference run (every block in one rank): the mapping uses %d "
                        "processors, so there is nothing to compare per processor",
                        ev.procs_used);
        return -1;
    }
    out->nrows = r->nranks;
    out->rows = sm_xcalloc((size_t)r->nranks, sizeof *out->rows);
    /* Each processor's end of its last round, in quanta. */
    int P = t->nprocs;
    int64_t *end = sm_xcalloc((size_t)(P ? P : 1), sizeof(int64_t));
    int rounds = strcmp(r->exchange, "all") != 0;
    if (rounds) {
        sm_schedule s;
        sm_cost_schedule(c, &s);
        int64_t at = 0;
        for (int k = 0; k < s.nrounds; k++) {
            at += s.rounds[k].duration;
            for (int i = 0; i < s.rounds[k].count; i++) {
                const sm_round_entry *en = &s.entries[s.rounds[k].first + i];
                end[en->p] = at;
                end[en->q] = at;
            }
        }
        sm_schedule_free(&s);
    }
    double theta = c->model.round_time;
    double it = r->iters > 0 ? r->iters : 1;
    double mc = 0, mm = 0, mt = 0, me = 0;
    int all_energy = 1;
    for (int k = 0; k < r->nranks; k++) {
        const sm_run_rank *rk = &r->ranks[k];
        int p = sm_topo_find_proc(t, rk->processor);
        if (p < 0) {
            sm_err_set_code(e, "RUN MISMATCH", "rank %d ran processor \"%s\", which this machine does not have", k,
                            rk->processor);
            sm_run_cmp_free(out);
            free(end);
            return -1;
        }
        sm_proc_eval pe;
        sm_cost_proc(c, &ev, p, &pe);
        sm_run_row *row = &out->rows[k];
        row->proc = p;
        row->compute = acc(pe.comp_time, rk->compute_s / it);
        row->busy = (double)c->deg[p] * theta;
        double comm_p = rounds ? (double)end[p] * theta : row->busy;
        if (comm_p < row->busy) comm_p = row->busy;
        row->wait = comm_p - row->busy;
        row->measured_wait = rk->wait_s / it;
        row->comm = acc(comm_p, rk->comm_s / it);
        row->total = acc(ev.time, rk->wall_s / it);
        if (rk->has_energy) row->energy = acc(pe.energy, rk->energy_j / it);
        else all_energy = 0;
        if (rk->compute_s / it > mc) mc = rk->compute_s / it;
        if (rk->comm_s / it > mm) mm = rk->comm_s / it;
        if (rk->wall_s / it > mt) mt = rk->wall_s / it;
        me += rk->has_energy ? rk->energy_j / it : 0;
    }
    free(end);
    out->overall.proc = -1;
    out->overall.compute = acc(ev.comp_time, mc);
    out->overall.comm = acc(ev.comm_time, mm);
    out->overall.total = acc(ev.time, mt);
    if (all_energy) out->overall.energy = acc(ev.energy, me);
    return 0;
}

void sm_run_cmp_free(sm_run_cmp *c)
{
    free(c->rows);
    memset(c, 0, sizeof *c);
}
