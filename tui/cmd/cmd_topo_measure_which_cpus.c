/* cmd_topo_measure_which_cpus.c - which of this machine's CPUs each
 * processor topo measure (and topo measure links) measures runs on: by
 * its hwloc place through libhwloc (core/io/hwloc_logical_to_os_cpu_numbers.h), else this
 * machine's sysfs packages in order (core/measure/cpu_cores_per_package_for_pinning.h); what cannot be
 * measured here is refused by name with the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_common.h"
#include "cmd_topo_measure.h"
#include "core/io/hwloc_logical_to_os_cpu_numbers.h"
#include "core/measure/cpu_cores_per_package_for_pinning.h"
#include "core/session/session_edits_undo_redo.h"

typedef sm_measure_target target;

static int bad(Tcl_Interp *in, const char *fmt, const char *arg)
{
    return sm_tcl_error(in, "ARGS", fmt, arg);
}

/* A processor is a GPU when its place says so, or (without a place) when
 * it is named or typed as one. */
static int is_gpu(const sm_topo *t, int p)
{
    const sm_place *pl = t->procs[p].place;
    if (pl) return pl->kind == SM_PLACE_GPU;
    return strstr(t->procs[p].name, "gpu") != NULL || strstr(t->types[t->procs[p].type].name, "gpu") != NULL;
}

void sm_measure_targets_free(target *tg, int n)
{
    for (int i = 0; i < n; i++) free(tg[i].cpus);
    free(tg);
}

/* Which OS CPUs each processor asked for runs on. A CPU processor of node
 * 0 with a place (topo detect, any -per) runs one thread per core of its
 * place, pinned to that core's PU (hwloc logical -> OS index,
 * core/io/hwloc_logical_to_os_cpu_numbers.h). One without a place (or without libhwloc) takes
 * this machine's next package in order, as before places existed. What
 * cannot be measured here is refused by name with the reason. */
int sm_measure_resolve(sm_app *app, Tcl_Interp *in, Tcl_Obj *names, target **out, int *n)
{
    const sm_topo *t = app->session->topo;
    *out = NULL;
    *n = 0;
    int *want = sm_xcalloc((size_t)t->nprocs, sizeof(int));
    int nw = 0, rc = TCL_OK;
    if (names) {
        int nl;
        Tcl_Obj **el;
        if (Tcl_ListObjGetElements(NULL, names, &nl, &el) != TCL_OK || nl < 1) {
            free(want);
            return bad(in, "topo measure: -processors expects a list of processor names, got \"%s\"",
                       Tcl_GetString(names));
        }
        for (int i = 0; i < nl; i++) {
            int p = sm_topo_find_proc(t, Tcl_GetString(el[i]));
            if (p < 0) {
                free(want);
                return sm_tcl_error(in, "ARGS", "topo measure: no processor \"%s\" in the topology",
                                    Tcl_GetString(el[i]));
            }
            if (!want[p]) want[p] = 1, nw++;
        }
    } else {
        for (int p = 0; p < t->nprocs; p++)
            if (t->procs[p].node == 0 && !is_gpu(t, p)) want[p] = 1, nw++;
    }
    if (nw == 0) {
        free(want);
        return sm_tcl_error(in, "PLACE", "topo measure: the topology has no CPU processor on node 0; "
                                         "topo detect builds this machine's");
    }
    char mwhy[256] = "";
    sm_this_machine *m = NULL;
    for (int p = 0; p < t->nprocs && !m && !mwhy[0]; p++)
        if (want[p] && t->procs[p].place && t->procs[p].place->kind == SM_PLACE_CPU)
            m = sm_this_machine_open(mwhy, sizeof mwhy);
    sm_cpu_package *pk = NULL;
    int npk = sm_cpu_packages(NULL, &pk), slot = 0;
    target *tg = sm_xcalloc((size_t)nw, sizeof *tg);
    int ntg = 0;
    for (int p = 0; p < t->nprocs && rc == TCL_OK; p++) {
        const sm_place *pl = t->procs[p].place;
        const char *name = t->procs[p].name;
        int placed = pl && pl->kind == SM_PLACE_CPU && m;
        int my_slot = -1;
        if (t->procs[p].node == 0 && !is_gpu(t, p) && !placed) my_slot = slot++;
        if (!want[p]) continue;
        target *g = &tg[ntg];
        g->proc = p;
        char why[512] = "";
        if (is_gpu(t, p)) {
            snprintf(why, sizeof why, "a GPU: the stencil kernel runs on CPUs only, no GPU kernel is built");
        } else if (t->procs[p].node != 0) {
            snprintf(why, sizeof why, "on node %d: topo measure measures the machine it runs on (node 0)",
                     t->procs[p].node);
        } else if (placed) {
            if (sm_place_os_cpus(m, pl, &g->cpus, &g->ncpus, &g->package, why, sizeof why) == 0) g->by_place = 1;
        } else if (my_slot >= (npk ? npk : 1)) {
            snprintf(why, sizeof why, "it has no place and this machine has %d package%s of CPU cores for the "
                     "%d processors without one%s%s", npk, npk == 1 ? "" : "s", slot,
                     pl ? "" : ": topo detect (any -per) gives every processor its place",
                     mwhy[0] ? "; " : "");
            if (mwhy[0]) snprintf(why + strlen(why), sizeof why - strlen(why), "%s", mwhy);
        } else {
            g->package = pk[my_slot].id;
            g->ncpus = pk[my_slot].ncores;
            g->cpus = sm_xmalloc(sizeof(int) * (size_t)g->ncpus);
            memcpy(g->cpus, pk[my_slot].cpus, sizeof(int) * (size_t)g->ncpus);
        }
        if (why[0]) {
            rc = sm_tcl_error(in, "PLACE", "topo measure: processor %s cannot be measured here: %s", name, why);
            break;
        }
        ntg++;
    }
    if (rc == TCL_OK) {
        *out = tg;
        *n = ntg;
    } else {
        sm_measure_targets_free(tg, ntg);
    }
    free(want);
    sm_cpu_packages_free(pk, npk);
    sm_this_machine_close(m);
    return rc;
}
