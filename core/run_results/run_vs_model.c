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
    /* The run's iteration: every rank computes, then exchanges; in a
     * bulk-synchronous exchange it waits for its neighbours, and they for
     * theirs, so every rank of the (connected) mapping goes at the pace
     * of the whole: T_run = the model's T with the exchange the run
     * made: the colouring's rounds (comm_time), or, all messages posted at
     * once, the busiest processor's own transfers. A rank's time outside
     * its compute is then T_run - comp_p (the model's idle_p): its own
     * transfers (busy_p) and the wait for the slowest neighbour. */
    int P = t->nprocs;
    double theta = c->model.round_time;
    int rounds = strcmp(r->exchange, "all") != 0;
    double comm_run = ev.comm_time;
    if (!rounds) {
        comm_run = 0;
        for (int p = 0; p < P; p++)
            if ((double)c->deg[p] * theta > comm_run) comm_run = (double)c->deg[p] * theta;
    }
    double t_run = c->model.overlap ? fmax(ev.comp_time, comm_run) : ev.comp_time + comm_run;
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
            return -1;
        }
        sm_proc_eval pe;
        sm_cost_proc(c, &ev, p, &pe);
        sm_run_row *row = &out->rows[k];
        row->proc = p;
        row->compute = acc(pe.comp_time, rk->compute_s / it);
        row->busy = (double)c->deg[p] * theta;
        /* Under -overlap 1 the model hides messages behind compute, which
         * the run does not: a rank still spends its own transfers. */
        double comm_p = fmax(row->busy, t_run - pe.comp_time);
        row->wait = comm_p - row->busy;
        row->measured_wait = rk->wait_s / it;
        row->comm = acc(comm_p, rk->comm_s / it);
        row->total = acc(t_run, rk->wall_s / it);
        if (rk->has_energy) row->energy = acc(pe.energy, rk->energy_j / it);
        else all_energy = 0;
        if (rk->compute_s / it > mc) mc = rk->compute_s / it;
        if (rk->comm_s / it > mm) mm = rk->comm_s / it;
        if (rk->wall_s / it > mt) mt = rk->wall_s / it;
        me += rk->has_energy ? rk->energy_j / it : 0;
    }
    out->overall.proc = -1;
    out->overall.compute = acc(ev.comp_time, mc);
    out->overall.comm = acc(comm_run, mm);
    out->overall.total = acc(t_run, mt);
    if (all_energy) out->overall.energy = acc(ev.energy, me);
    return 0;
}

void sm_run_cmp_free(sm_run_cmp *c)
{
    free(c->rows);
    memset(c, 0, sizeof *c);
}
