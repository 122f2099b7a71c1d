/* processor_time_energy.c - a processor's time and dynamic energy for its
 * blocks: interpolated in its type's measured profile (read from CSV by
 * core/io/processor_profile_csv_file.c), else from its parameters. */
#include "processor_time_energy.h"

#include <errno.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

int sm_profile_at(const sm_profile_pt *pt, int n, int64_t b, double *time,
                  double *energy)
{
    *time = *energy = 0;
    if (b <= 0 || n <= 0) return b > 0;
    const sm_profile_pt *last = &pt[n - 1];
    if (b >= last->blocks) {
        double s = last->blocks > 0 ? (double)b / last->blocks : 0;
        *time = last->time * s;
        *energy = last->energy * s;
        return b > last->blocks;
    }
    /* First point at or above b: binary search, profiles may be long. */
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (pt[mid].blocks < b) lo = mid + 1;
        else hi = mid;
    }
    if (pt[lo].blocks == b) {
        *time = pt[lo].time;
        *energy = pt[lo].energy;
        return 0;
    }
    sm_profile_pt a = lo ? pt[lo - 1] : (sm_profile_pt){0, 0, 0};
    if (a.blocks < 0) a = (sm_profile_pt){0, 0, 0};
    double f = (double)(b - a.blocks) / (double)(pt[lo].blocks - a.blocks);
    *time = a.time + f * (pt[lo].time - a.time);
    *energy = a.energy + f * (pt[lo].energy - a.energy);
    return 0;
}

int sm_proc_work(const sm_topo *t, int p, int64_t blocks, int64_t cells,
                 double *time, double *energy)
{
    const sm_type *ty = &t->types[t->procs[p].type];
    if (ty->nprofile) return sm_profile_at(ty->profile, ty->nprofile, blocks, time, energy);
    const sm_params *pa = sm_topo_proc_params(t, p);
    *time = pa->time_per_cell * (double)cells;
    *energy = pa->energy_per_cell * (double)cells;
    return 0;
}

double sm_proc_block_time(const sm_topo *t, int p, double avg_cells)
{
    const sm_type *ty = &t->types[t->procs[p].type];
    if (ty->nprofile) {
        const sm_profile_pt *last = &ty->profile[ty->nprofile - 1];
        if (last->blocks <= 0) return 1e300; /* takes no block */
        return last->time > 0 ? last->time / last->blocks : 1e-30;
    }
    return sm_topo_proc_params(t, p)->time_per_cell * avg_cells;
}

void sm_topo_set_profile(sm_topo *t, int ty, const sm_profile_pt *pts, int n)
{
    sm_type *T = &t->types[ty];
    free(T->profile);
    T->profile = NULL;
    T->nprofile = 0;
    if (n <= 0) return;
    T->profile = sm_xmalloc(sizeof *pts * (size_t)n);
    memcpy(T->profile, pts, sizeof *pts * (size_t)n);
    T->nprofile = n;
}
