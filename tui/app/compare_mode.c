/* compare_mode.c - the other mapping of compare mode, kept evaluated (see
 * compare_mode.h). */
#define _GNU_SOURCE   /* syscall(SYS_gettid): a thread's own nice value */
#include "compare_mode.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "solvers/stepper/step_history_record_seek_back.h"

const char *const sm_compare_source_names[SM_CMP_COUNT] = {"off", "solver", "file", "undo", "run"};

/* A cost state over 16.7 M blocks takes tens of seconds to build. */
int sm_compare_background_blocks = SM_COMPARE_BACKGROUND_DEFAULT;

/* A cost state built on another thread: it reads the grid and machine
 * (which stay until sm_compare_wait: the command layer waits before it
 * changes them) and its own copy of the mapping. */
struct sm_compare_build {
    pthread_t thread;
    const sm_grid *g;
    const sm_topo *t;
    sm_model m;
    /* The compared mapping is copied here by the worker (its first job:
     * the copy and its page faults are off the key); until copied is
     * set, c->map is not written (sm_compare_follow waits). */
    const int *src;
    int n;
    int *map;
    atomic_int copied;
    sm_cost *old;             /* the cost state it replaces, freed by the worker */
    sm_cost *cost;
    atomic_int done;
    struct timespec t0;
};

static void *build_work(void *arg)
{
    struct sm_compare_build *b = arg;
    /* Below the workbench and its solver's threads: the keys stay quick
     * on a machine with few cores while it builds (Linux threads have a
     * nice value each). */
    pid_t tid = (pid_t)syscall(SYS_gettid);
    errno = 0;
    int now = getpriority(PRIO_PROCESS, (id_t)tid);
    if (errno == 0) setpriority(PRIO_PROCESS, (id_t)tid, now + 10 > 19 ? 19 : now + 10);
    b->map = sm_xmalloc(sizeof(int) * (size_t)(b->n ? b->n : 1));
    memcpy(b->map, b->src, sizeof(int) * (size_t)b->n);
    atomic_store(&b->copied, 1);
    sm_cost_free(b->old);
    b->old = NULL;
    b->cost = sm_cost_new(b->g, b->t, &b->m, b->map);
    atomic_store(&b->done, 1);
    return NULL;
}

sm_compare *sm_compare_new(void)
{
    return sm_xcalloc(1, sizeof(sm_compare));
}

/* Until the build in flight has its own copy of c->map: then c->map may
 * be written. */
static void wait_copied(sm_compare *c)
{
    struct timespec nap = {0, 1000 * 1000};
    while (c->build && !atomic_load(&c->build->copied)) nanosleep(&nap, NULL);
}

void sm_compare_give_buffers(sm_compare *c, int *map, unsigned char *differs, int n)
{
    free(c->spare_map);
    free(c->spare_differs);
    c->spare_map = map;
    c->spare_differs = differs;
    c->spare_n = n;
}

/* An array of n ints for the mapping: the spare when it fits. */
static int *map_buffer(sm_compare *c, int n)
{
    if (c->spare_map && c->spare_n == n) {
        int *m = c->spare_map;
        c->spare_map = NULL;
        return m;
    }
    return sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
}

/* Block b of map was written: the differing count looks at it again
 * (past an eighth of the grid, a whole count is the cheaper). */
static void touch(sm_compare *c, int b)
{
    if (c->touched_all) return;
    if (c->ntouched >= c->n / 8 + 64) {
        c->touched_all = 1;
        return;
    }
    if (c->ntouched == c->touched_cap) {
        c->touched_cap = c->touched_cap ? 2 * c->touched_cap : 1024;
        c->touched = sm_xrealloc(c->touched, sizeof(int) * (size_t)c->touched_cap);
    }
    c->touched[c->ntouched++] = b;
}

/* The blocks where the cost state's mapping and c->map differ, moved;
 * past an eighth of the grid a new cost state is the cheaper: then,
 * when fresh_ok, it is made here and 1 returned; else (past 65,536
 * blocks already) 0 returned and nothing moved (the caller builds one
 * in the background). */
static int catch_up(sm_compare *c, int fresh_ok)
{
    int n = c->n, k = 0;
    const int *have = c->cost->map;
    const int chunk = 256;
    for (int lo = 0; lo < n; lo += chunk) {
        int hi = lo + chunk < n ? lo + chunk : n;
        if (memcmp(have + lo, c->map + lo, sizeof(int) * (size_t)(hi - lo)) == 0) continue;
        for (int i = lo; i < hi; i++)
            if (have[i] != c->map[i]) {
                if (k == c->scratch_cap) {
                    c->scratch_cap = c->scratch_cap ? 2 * c->scratch_cap : 1024;
                    c->scratch = sm_xrealloc(c->scratch, sizeof(int) * (size_t)c->scratch_cap);
                }
                c->scratch[k++] = i;
            }
    }
    /* On a key (fresh_ok 0: a whole machine) moving more than 65,536
     * blocks costs more than the key may (~30 ms): built afresh in the
     * background then. */
    int most = fresh_ok || n / 8 < 65536 ? n / 8 : 65536;
    if (k > most && n >= 4096) {
        if (!fresh_ok) return 0;
        sm_cost *fresh = sm_cost_new(c->cost->grid, c->cost->topo, &c->cost->model, c->map);
        sm_cost_free(c->cost);
        c->cost = fresh;
        return 1;
    }
    sm_cost_move_set(c->cost, c->scratch, k, c->map);
    return 1;
}

static void take_build(sm_compare *c)
{
    struct sm_compare_build *b = c->build;
    pthread_join(b->thread, NULL);
    c->build = NULL;
    sm_cost_free(c->cost);
    c->cost = b->cost;
    free(b->map);
    free(b);
    /* The mapping followed its run or solver meanwhile. */
    catch_up(c, 1);
    sm_cost_eval(c->cost, &c->ev);
    c->pending = 0;
    c->version++;
}

int sm_compare_poll(sm_compare *c)
{
    if (!c->build || !atomic_load(&c->build->done)) return 0;
    take_build(c);
    return 1;
}

void sm_compare_wait(sm_compare *c)
{
    if (c->build) take_build(c);
}

double sm_compare_pending_seconds(const sm_compare *c)
{
    if (!c->build) return 0;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - c->build->t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - c->build->t0.tv_nsec);
}

/* c->map's cost state, built at once or (big, in the workbench) on
 * another thread. */
static void build(sm_compare *c, const sm_session *s)
{
    sm_compare_wait(c);
    sm_cost *old = c->cost;
    c->cost = NULL;
    if (c->background && c->n >= sm_compare_background_blocks) {
        struct sm_compare_build *b = sm_xcalloc(1, sizeof *b);
        b->old = old;   /* freed there: a whole machine's is tens of ms */
        b->g = s->grid;
        b->t = s->topo;
        b->m = s->model;
        b->src = c->map;
        b->n = c->n;
        atomic_init(&b->copied, 0);
        atomic_init(&b->done, 0);
        clock_gettime(CLOCK_MONOTONIC, &b->t0);
        if (pthread_create(&b->thread, NULL, build_work, b) == 0) {
            c->build = b;
            c->pending = 1;
            return;
        }
        free(b);
    }
    sm_cost_free(old);
    c->cost = sm_cost_new(s->grid, s->topo, &s->model, c->map);
    sm_cost_eval(c->cost, &c->ev);
    c->pending = 0;
}

static void release(sm_compare *c)
{
    sm_compare_wait(c);
    c->kept_run = NULL;
    sm_cost_free(c->cost);
    /* Its buffers stay for the next compare of as many blocks. */
    if (c->map) sm_compare_give_buffers(c, c->map, c->differs, c->n);
    else free(c->differs);
    c->cost = NULL;
    c->map = NULL;
    c->differs = NULL;
    c->differ_valid = 0;
    c->n = 0;
    c->pending = 0;
}

void sm_compare_drop_kept(sm_compare *c)
{
    sm_compare_wait(c);
    if (c->source == SM_CMP_OFF) release(c);
}

void sm_compare_free(sm_compare *c)
{
    if (!c) return;
    release(c);
    sm_compare_give_buffers(c, NULL, NULL, 0);
    free(c->scratch);
    free(c->touched);
    free(c->shown_moved);
    free(c);
}

/* FNV-1a over the block grid's shape and the processors' names in
 * order: what a block -> processor mapping refers to. */
static unsigned long long layout_of(const sm_session *s)
{
    unsigned long long h = 1469598103934665603ull;
#define MIX(byte) (h = (h ^ (unsigned char)(byte)) * 1099511628211ull)
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 4; k++) MIX((unsigned)s->grid->spec.blocks[a] >> (8 * k));
    for (int p = 0; p < s->topo->nprocs; p++) {
        for (const char *n = s->topo->procs[p].name; *n; n++) MIX(*n);
        MIX(0);
    }
#undef MIX
    return h;
}

static void stamp(sm_compare *c, const sm_session *s)
{
    c->session = s;
    c->structure = s->structure;
    c->rebuilt = s->rebuilt;
    c->layout = layout_of(s);
    c->ntasks = s->grid->ntasks;
}

int sm_compare_fits(const sm_compare *c, const sm_session *s)
{
    if (c->session != s || c->ntasks != s->grid->ntasks) return 0;
    return c->rebuilt == s->rebuilt || c->layout == layout_of(s);
}

/* A cost state kept from the last compare of this grid, machine and
 * model (or its build in flight)? */
static int can_keep(const sm_compare *c, const sm_session *s)
{
    return (c->cost || c->build) && c->map && sm_compare_fits(c, s) && c->structure == s->structure &&
           c->rebuilt == s->rebuilt && (c->cost ? c->cost->grid : c->build->g) == s->grid &&
           (c->cost ? c->cost->topo : c->build->t) == s->topo;
}

/* sm_compare_set; fresh_run: the mapping is another run's, likely far
 * from the one kept. */
static void set_mapping(sm_compare *c, const sm_session *s, sm_compare_source src, const int *map, const char *label,
                        int fresh_run)
{
    /* The cost state kept is moved to this mapping. */
    int keep = can_keep(c, s);
    if (!keep) {
        release(c);
        c->n = s->grid->ntasks;
        c->map = map_buffer(c, c->n);
    }
    wait_copied(c);
    memcpy(c->map, map, sizeof(int) * (size_t)c->n);
    c->touched_all = 1;
    if (!keep) {
        stamp(c, s);
        build(c, s);
    } else if (c->cost && !c->build) {
        /* Another run's mapping at a whole machine (fresh_run): a new
         * cost state in the background, as at first, without counting
         * what differs on the key; else moved by what differs, or (most
         * blocks) built afresh, in the background when big. */
        int big = c->background && c->n >= sm_compare_background_blocks;
        if (big && fresh_run) build(c, s);
        else if (catch_up(c, !big)) sm_cost_eval(c->cost, &c->ev);
        else build(c, s);
    }
    c->source = c->last = src;
    snprintf(c->label, sizeof c->label, "%s", label);
    c->run_note[0] = '\0';
    c->solver = NULL;
    c->solver_iter = -1;
    c->run = NULL;
    c->kept_run = NULL;
    stamp(c, s);
    c->version++;
}

void sm_compare_set(sm_compare *c, const sm_session *s, sm_compare_source src, const int *map,
                    const char *label)
{
    set_mapping(c, s, src, map, label, 0);
}

static int follow(sm_compare *c, const sm_solver *r, long long from, const int *m, int best);

/* V off then on with the same run: the mapping and cost state kept are
 * moved by the blocks the run recorded between the step kept and the
 * step now (not compared whole: 16.7 M blocks). 0 when they cannot be. */
static int follow_kept(sm_compare *c, const sm_session *s, const sm_solver *run, const int *m)
{
    if (!m || c->kept_run != run || run->detached || !run->hist || !can_keep(c, s) ||
        (m == run->current_map) != c->kept_current)
        return 0;
    follow(c, run, c->kept_step, m, !c->kept_current);
    if (c->cost && !c->build) sm_cost_eval(c->cost, &c->ev);
    c->source = c->last = SM_CMP_RUN;
    c->kept_run = NULL;
    stamp(c, s);
    c->version++;
    return 1;
}

/* The other run's mapping at its step shown. */
static const int *run_map(const sm_solver *r)
{
    return r->current_map ? r->current_map : r->has_best ? r->best_map : NULL;
}

/* The other run to step k of the run shown (its last when it has fewer,
 * its first kept when k is before it). */
static void run_to(sm_solver *r, long long k)
{
    if (!r->hist) return;
    if (k > sm_history_head(r->hist)) k = sm_history_head(r->hist);
    if (k < sm_history_first(r->hist)) k = sm_history_first(r->hist);
    if (sm_history_cursor(r->hist) != k) sm_solver_seek(r, k);
}

/* Compared at another step than the one shown: say so (b1 at 30 against
 * main with 12 steps compared with main @12 and nothing said it). */
static void run_note(sm_compare *c, long long shown)
{
    const sm_solver *r = c->run;
    c->run_note[0] = '\0';
    if (!r || r->iteration == shown) return;
    if (r->hist && r->iteration < shown)
        snprintf(c->run_note, sizeof c->run_note, "%s has %lld steps; compared at @%lld", c->run_name,
                 sm_history_head(r->hist), r->iteration);
    else
        snprintf(c->run_note, sizeof c->run_note, "%s keeps steps from %lld; compared at @%lld", c->run_name,
                 r->hist ? sm_history_first(r->hist) : r->iteration, r->iteration);
}

void sm_compare_set_run(sm_compare *c, const sm_session *s, sm_solver *run, const char *name, const sm_solver *shown)
{
    run_to(run, shown->iteration);
    const int *m = run_map(run);
    if (!follow_kept(c, s, run, m)) set_mapping(c, s, SM_CMP_RUN, m ? m : sm_session_map(s), name, 1);
    c->run = run;
    snprintf(c->run_name, sizeof c->run_name, "%s", name);
    c->run_step = run->iteration;
    c->run_current = m && m == run->current_map;
    c->solver = shown;
    c->solver_iter = shown->iteration;
    snprintf(c->label, sizeof c->label, "%s @%lld", name, run->iteration);
    run_note(c, shown->iteration);
}

void sm_compare_off(sm_compare *c)
{
    if (c->source == SM_CMP_OFF) return;
    /* The cost state stays for the next compare (sm_compare_set), and
     * which step of which run it holds (sm_compare_set_run). */
    if (c->source == SM_CMP_RUN && c->run) {
        c->kept_run = c->run;
        c->kept_step = c->run_step;
        c->kept_current = c->run_current;
    }
    c->source = SM_CMP_OFF;
    c->run = NULL;
    c->version++;
}

/* The solver's best is there to follow (not stopped for good). */
static int solver_best(const sm_solver *sv)
{
    return sv && !sv->detached && sv->has_best && sv->best_map;
}

/* The other mapping to m, the mapping of solver r at its step shown:
 * by the blocks r's history recorded since step from (its current
 * mapping's, or best's), else compared whole (from -1). Returns whether
 * a block moved. */
static int follow(sm_compare *c, const sm_solver *r, long long from, const int *m, int best)
{
    int k = from >= 0 && r->hist ? sm_history_moved_between(r->hist, from, r->iteration, best, c->n / 8, &c->scratch,
                                                             &c->scratch_cap)
                                  : -1;
    int moved = 0;
    wait_copied(c);
    if (k >= 0) {
        for (int i = 0; i < k; i++) {
            int b = c->scratch[i];
            if (m[b] == c->map[b]) continue;
            c->map[b] = m[b];
            if (c->cost) sm_cost_move(c->cost, b, m[b]);
            touch(c, b);
            moved = 1;
        }
        return moved;
    }
    const int chunk = 256;
    for (int lo = 0; lo < c->n; lo += chunk) {
        int hi = lo + chunk < c->n ? lo + chunk : c->n;
        if (memcmp(m + lo, c->map + lo, sizeof(int) * (size_t)(hi - lo)) == 0) continue;
        for (int b = lo; b < hi; b++)
            if (m[b] != c->map[b]) {
                c->map[b] = m[b];
                if (c->cost) sm_cost_move(c->cost, b, m[b]);
                touch(c, b);
                moved = 1;
            }
    }
    return moved;
}

int sm_compare_refresh(sm_compare *c, const sm_session *s, const sm_solver *sv)
{
    if (c->source == SM_CMP_OFF) return 0;
    /* Another grid or machine: the mapping means nothing there. */
    if (!sm_compare_fits(c, s)) {
        sm_compare_off(c);
        release(c);
        c->last = SM_CMP_SOLVER;   /* nor would its source again (key c) */
        return -1;
    }
    int changed = 0;
    /* A new model, or new grid or machine objects of the same shape and
     * names (a DVFS state): the old cost points into what was freed. */
    if (c->structure != s->structure || c->rebuilt != s->rebuilt) {
        stamp(c, s);
        build(c, s);
        changed = 1;
    }
    if (c->source == SM_CMP_SOLVER && solver_best(sv) && (sv != c->solver || sv->iteration != c->solver_iter)) {
        int fresh = sv != c->solver;
        int moved = follow(c, sv, fresh ? -1 : c->solver_iter, sv->best_map, 1);
        snprintf(c->label, sizeof c->label, "%s best", sv->ops->name); /* a new solver may reuse the address */
        c->solver = sv;
        c->solver_iter = sv->iteration;
        changed |= moved || fresh;
    }
    if (c->source == SM_CMP_RUN && c->run && sv && !c->run->detached &&
        (sv != c->solver || sv->iteration != c->solver_iter || c->run->iteration != c->run_step)) {
        /* At equal steps: the other run follows the one shown. */
        run_to(c->run, sv->iteration);
        const int *m = run_map(c->run);
        /* By the recorded moves of the mapping compared (its current, or
         * its best when it shows none) while it stays the same kind. */
        int cur = m && m == c->run->current_map;
        if (m) follow(c, c->run, cur == c->run_current ? c->run_step : -1, m, !cur);
        c->run_current = cur;
        c->solver = sv;
        c->solver_iter = sv->iteration;
        c->run_step = c->run->iteration;
        snprintf(c->label, sizeof c->label, "%s @%lld", c->run_name, c->run->iteration);
        run_note(c, sv->iteration);
        changed = 1;
    }
    if (changed) {
        if (c->cost) sm_cost_eval(c->cost, &c->ev);
        c->version++;
    }
    return changed;
}

int sm_compare_differ(const sm_compare *c, const int *map)
{
    int d = 0;
    const int chunk = 256;
    for (int lo = 0; lo < c->n; lo += chunk) {
        int hi = lo + chunk < c->n ? lo + chunk : c->n;
        if (memcmp(map + lo, c->map + lo, sizeof(int) * (size_t)(hi - lo)) == 0) continue;
        for (int b = lo; b < hi; b++) d += c->map[b] != map[b];
    }
    return d;
}

/* The differing blocks counted whole (a pass over the grid). */
static void count_whole(sm_compare *c, const int *map)
{
    if (!c->differs && c->spare_differs && c->spare_n == c->n) {
        c->differs = c->spare_differs;
        c->spare_differs = NULL;
    }
    if (!c->differs) c->differs = sm_xmalloc((size_t)(c->n ? c->n : 1));
    int d = 0;
    const int chunk = 256;
    for (int lo = 0; lo < c->n; lo += chunk) {
        int hi = lo + chunk < c->n ? lo + chunk : c->n;
        if (memcmp(map + lo, c->map + lo, sizeof(int) * (size_t)(hi - lo)) == 0) {
            memset(c->differs + lo, 0, (size_t)(hi - lo));
            continue;
        }
        for (int b = lo; b < hi; b++) d += c->differs[b] = c->map[b] != map[b];
    }
    c->differ_n = d;
    c->differ_valid = 1;
    c->ntouched = 0;
    c->touched_all = 0;
}

/* Blocks b[0..k) looked at again. */
static void recheck(sm_compare *c, const int *map, const int *b, int k)
{
    for (int i = 0; i < k; i++) {
        int x = b[i];
        unsigned char now = map[x] != c->map[x];
        c->differ_n += (int)now - (int)c->differs[x];
        c->differs[x] = now;
    }
}

int sm_compare_differ_at(sm_compare *c, const int *map, const void *owner, unsigned long long stamp,
                         const sm_solver *sv)
{
    if (!c->map) return 0;
    int whole = !c->differ_valid || c->touched_all || owner != c->differ_owner;
    if (!whole && stamp != c->differ_stamp) {
        /* The mapping shown moved: by the blocks its solver's history
         * recorded between the step counted and the step shown. */
        int k = sv && (const void *)sv == owner && sv->hist
                    ? sm_history_moved_between(sv->hist, (long long)c->differ_stamp, (long long)stamp, 0, c->n / 8,
                                               &c->shown_moved, &c->shown_moved_cap)
                    : -1;
        if (k < 0) whole = 1;
        else recheck(c, map, c->shown_moved, k);
    }
    if (whole) {
        count_whole(c, map);
    } else {
        recheck(c, map, c->touched, c->ntouched);
        c->ntouched = 0;
    }
    c->differ_owner = owner;
    c->differ_stamp = stamp;
    return c->differ_n;
}
