/* test_cost_incremental_trials_and_pair_slots.c - the incremental cost state's
 * trials (moves scored and undone put the state back bit for bit; the
 * heaps wait inside a trial) and its processor-pair slots (compacted or
 * switched off, no figure changes; a copy, and a rebuild on two threads,
 * is its state bit for bit).
 * Split from test_cost_incremental.c, which holds
 * the model's figures against the reference evaluation. */
#include "tests/unit/testutil.h"

/* The trials' instance: blocks of unequal cells (a move's sums are then
 * no multiples of one figure) on a 3x3 torus of one processor a node
 * (two link levels). */
static sm_grid *unequal_cells_grid(void)
{
    sm_grid_spec gs = tu_grid_spec(6, 5, 4, 1, 0, 0, SM_ST_27PT);
    gs.cells[0] = 389, gs.cells[1] = 301, gs.cells[2] = 203;
    sm_err ge;
    sm_grid *g = sm_grid_build(&gs, &ge);
    assert_non_null(g);
    return g;
}

static sm_topo *torus_3x3(void) { return tu_one_per_node("{\"kind\":\"torus\",\"dims\":[3,3]}", 9); }

/* A trial (sm_cost_trial_begin/end) puts the state back bit for bit
 * after moves and their undo (the parallel tabu step scores on replicas
 * and needs a move's score to depend on the mapping only); without it
 * the running sums keep rounding from the moves undone. */
static void trial_restores_bits(void **st)
{
    (void)st;
    sm_grid *g = unequal_cells_grid();
    sm_topo *t = torus_3x3();
    int n = g->ntasks, P = t->nprocs;
    int *map = malloc(sizeof(int) * (size_t)n);
    unsigned long long rs = 7;
    for (int b = 0; b < n; b++) map[b] = (int)(sm_rand_next(&rs) % (unsigned)P);
    sm_model m;
    sm_model_default(&m);
    sm_cost *c = sm_cost_new(g, t, &m, map), *loose = sm_cost_new(g, t, &m, map);
    double *ce = malloc(sizeof(double) * (size_t)P);
    int drifted = 0;
    for (int it = 0; it < 3000; it++) {
        sm_eval before, after;
        sm_cost_eval_fast(c, &before);
        memcpy(ce, c->comm_energy, sizeof(double) * (size_t)P);
        int u[3], from[3], k = 1 + (int)(sm_rand_next(&rs) % 3);
        for (int i = 0; i < k; i++) u[i] = (int)(sm_rand_next(&rs) % (unsigned)n);
        int to = (int)(sm_rand_next(&rs) % (unsigned)P);
        sm_cost_trial_begin(c);
        for (int pass = 0; pass < 2; pass++) {
            sm_cost *x = pass ? loose : c;
            for (int i = 0; i < k; i++) {
                from[i] = x->map[u[i]];
                sm_cost_move(x, u[i], to);
            }
            for (int i = k - 1; i >= 0; i--) sm_cost_move(x, u[i], from[i]);
            /* And another state of processor `to` tried (tabu -dvfs). */
            sm_params pa = *sm_topo_proc_params(t, to);
            sm_params other = pa;
            other.time_per_cell *= 1.37;
            other.energy_per_cell *= 0.73;
            other.p0 *= 1.11;
            sm_cost_set_params(x, to, &other);
            sm_cost_set_params(x, to, &pa);
        }
        sm_cost_trial_end(c);
        sm_cost_eval_fast(c, &after);
        assert_memory_equal(&before, &after, sizeof before);
        assert_memory_equal(ce, c->comm_energy, sizeof(double) * (size_t)P);
        sm_eval le;
        sm_cost_eval_fast(loose, &le);
        drifted |= memcmp(&le, &before, sizeof le) != 0;
        /* Now and then a move kept, on both. */
        if (it % 7 == 0) {
            sm_cost_move(c, u[0], to);
            sm_cost_move(loose, u[0], to);
        }
    }
    /* The rounding the trial removes is real (else the test proves nothing). */
    assert_true(drifted);
    sm_cost_free(c);
    sm_cost_free(loose);
    free(ce);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* Inside a trial the heaps wait (a move tried and undone would put every
 * key back): the makespan and the degrees read while they wait are those
 * of the same moves made outside a trial, which update the heaps, under
 * the models that let them wait (maxdeg, colouring: its exact rounds
 * too); and once the trial ends the heaps hold the same maxima. */
/* A trial's moves kept (sm_cost_trial_keep) leave the state a caller
 * taking them after the trial had (tried, undone, ended, moved again:
 * the boundary refinement's take before): the same figures, sums and
 * heap maxima bit for bit, step after step, on a pairs-off state. */
static void trial_keep_is_the_move_taken(void **st)
{
    (void)st;
    sm_grid *g = unequal_cells_grid();
    sm_topo *t = torus_3x3();
    int n = g->ntasks, P = t->nprocs;
    int *map = malloc(sizeof(int) * (size_t)n);
    unsigned long long rs = 11;
    for (int b = 0; b < n; b++) map[b] = (int)(sm_rand_next(&rs) % (unsigned)P);
    sm_model m;
    sm_model_default(&m);
    sm_cost *kept = sm_cost_new_figures(g, t, &m, map), *redone = sm_cost_new_figures(g, t, &m, map);
    assert_true(kept->pairs_off);
    int keeps = 0;
    for (int it = 0; it < 3000; it++) {
        int u[3], from[3], k = 1 + (int)(sm_rand_next(&rs) % 3);
        for (int i = 0; i < k; i++) u[i] = (int)(sm_rand_next(&rs) % (unsigned)n);
        int to = (int)(sm_rand_next(&rs) % (unsigned)P), keep = sm_rand_next(&rs) % 3 != 0;
        sm_cost_trial_begin(kept);
        sm_cost_trial_begin(redone);
        for (int pass = 0; pass < 2; pass++) {
            sm_cost *x = pass ? redone : kept;
            for (int i = 0; i < k; i++) {
                from[i] = x->map[u[i]];
                sm_cost_move(x, u[i], to);
            }
            sm_eval ev;
            sm_cost_eval_fast(x, &ev);
        }
        if (keep) {
            sm_cost_trial_keep(kept);
            keeps++;
        } else {
            for (int i = k - 1; i >= 0; i--) sm_cost_move(kept, u[i], from[i]);
            sm_cost_trial_end(kept);
        }
        for (int i = k - 1; i >= 0; i--) sm_cost_move(redone, u[i], from[i]);
        sm_cost_trial_end(redone);
        if (keep)
            for (int i = 0; i < k; i++) sm_cost_move(redone, u[i], to);
        assert_int_equal(kept->trial, 0);
        assert_int_equal(kept->ndirty_proc, 0);
        sm_eval a, b;
        sm_cost_eval(kept, &a);
        sm_cost_eval(redone, &b);
        assert_memory_equal(&a, &b, sizeof a);
        assert_memory_equal(kept->map, redone->map, sizeof(int) * (size_t)n);
        assert_memory_equal(kept->comm_energy, redone->comm_energy, sizeof(double) * (size_t)P);
        assert_true(kept->dyn == redone->dyn && kept->stat == redone->stat && kept->idle_comp == redone->idle_comp);
        assert_true(kept->comm_intra == redone->comm_intra && kept->comm_inter == redone->comm_inter);
        assert_true(sm_heap_max(&kept->comp) == sm_heap_max(&redone->comp));
        assert_true(sm_heap_max(&kept->hdeg) == sm_heap_max(&redone->hdeg));
        assert_true(sm_heap_max(&kept->hdeg1) == sm_heap_max(&redone->hdeg1));
    }
    assert_true(keeps > 1000);
    sm_cost_free(kept);
    sm_cost_free(redone);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* A state made on two threads (its blocks beside its edges) is the
 * one-thread state bit for bit, and stays so through moves. */
static void new_on_two_threads_same_bits(void **st)
{
    (void)st;
    sm_grid *g = unequal_cells_grid();
    sm_topo *t = torus_3x3();
    int n = g->ntasks, P = t->nprocs;
    int *map = malloc(sizeof(int) * (size_t)n);
    unsigned long long rs = 5;
    for (int b = 0; b < n; b++) map[b] = (int)(sm_rand_next(&rs) % (unsigned)(P - 2)); /* two empty */
    sm_model m;
    sm_model_default(&m);
    sm_cost *one = sm_cost_new_figures(g, t, &m, map), *two = sm_cost_new_figures_threads(g, t, &m, map, 2);
    for (int it = 0; it < 500; it++) {
        sm_eval a, b;
        sm_cost_eval(one, &a);
        sm_cost_eval(two, &b);
        assert_memory_equal(&a, &b, sizeof a);
        assert_memory_equal(one->comm_energy, two->comm_energy, sizeof(double) * (size_t)P);
        assert_memory_equal(one->deg, two->deg, sizeof(int64_t) * (size_t)P);
        assert_memory_equal(one->cells, two->cells, sizeof(int64_t) * (size_t)P);
        assert_true(one->dyn == two->dyn && one->stat == two->stat && one->comm_inter == two->comm_inter);
        assert_true(sm_heap_max(&one->comp) == sm_heap_max(&two->comp));
        assert_true(sm_heap_max(&one->hdeg) == sm_heap_max(&two->hdeg));
        int u = (int)(sm_rand_next(&rs) % (unsigned)n), to = (int)(sm_rand_next(&rs) % (unsigned)P);
        sm_cost_move(one, u, to);
        sm_cost_move(two, u, to);
    }
    sm_cost_free(one);
    sm_cost_free(two);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* A state rebuilt by sm_cost_remap_threads on two threads (its pairs
 * kept: the session's) is the one-thread rebuild bit for bit, its pair
 * slots in the same order, and stays so through moves. */
static void remap_on_two_threads_same_bits(void **st)
{
    (void)st;
    sm_grid *g = unequal_cells_grid();
    sm_topo *t = torus_3x3();
    int n = g->ntasks, P = t->nprocs;
    int *map = malloc(sizeof(int) * (size_t)n);
    unsigned long long rs = 29;
    for (int b = 0; b < n; b++) map[b] = (int)(sm_rand_next(&rs) % (unsigned)P);
    sm_model m;
    sm_model_default(&m);
    sm_cost *one = sm_cost_new(g, t, &m, map), *two = sm_cost_new(g, t, &m, map);
    for (int b = 0; b < n; b++) map[b] = (int)(sm_rand_next(&rs) % (unsigned)(P - 2)); /* two empty */
    sm_cost_remap_threads(one, map, 1);
    sm_cost_remap_threads(two, map, 2);
    assert_false(one->pairs_off || two->pairs_off);
    for (int it = 0; it < 300; it++) {
        sm_eval a, b;
        sm_cost_eval(one, &a);
        sm_cost_eval(two, &b);
        assert_memory_equal(&a, &b, sizeof a);
        assert_memory_equal(one->map, map, sizeof(int) * (size_t)n);
        assert_memory_equal(one->comm_energy, two->comm_energy, sizeof(double) * (size_t)P);
        assert_memory_equal(one->deg, two->deg, sizeof(int64_t) * (size_t)P);
        assert_true(one->dyn == two->dyn && one->stat == two->stat && one->comm_inter == two->comm_inter &&
                    one->comm_intra == two->comm_intra);
        assert_int_equal(one->pairs.n, two->pairs.n);
        assert_memory_equal(one->pairs.p, two->pairs.p, sizeof(int) * (size_t)one->pairs.n);
        assert_memory_equal(one->pairs.q, two->pairs.q, sizeof(int) * (size_t)one->pairs.n);
        assert_memory_equal(one->mu, two->mu, sizeof(int64_t) * (size_t)one->pairs.n);
        int u = (int)(sm_rand_next(&rs) % (unsigned)n), to = (int)(sm_rand_next(&rs) % (unsigned)P);
        sm_cost_move(one, u, to);
        sm_cost_move(two, u, to);
        map[u] = to;
    }
    sm_cost_free(one);
    sm_cost_free(two);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* A copy (sm_cost_clone) is its state bit for bit, after moves too, and
 * goes on alone: moving the copy leaves the original as it was. Only a
 * state with its pairs off is copied. */
static void clone_same_bits(void **st)
{
    (void)st;
    sm_grid *g = unequal_cells_grid();
    sm_topo *t = torus_3x3();
    int n = g->ntasks, P = t->nprocs;
    int *map = malloc(sizeof(int) * (size_t)n);
    unsigned long long rs = 17;
    for (int b = 0; b < n; b++) map[b] = (int)(sm_rand_next(&rs) % (unsigned)(P - 1)); /* one empty */
    sm_model m;
    sm_model_default(&m);
    sm_cost *plain = sm_cost_new(g, t, &m, map);
    assert_null(sm_cost_clone(plain));
    sm_cost *one = sm_cost_new_figures(g, t, &m, map);
    for (int b = 0; b < 40; b++) sm_cost_move(one, (int)(sm_rand_next(&rs) % (unsigned)n), (int)(sm_rand_next(&rs) % (unsigned)P));
    sm_cost *two = sm_cost_clone(one);
    assert_non_null(two);
    assert_true(two->serial != one->serial);
    assert_ptr_not_equal(two->map, one->map);
    sm_eval before;
    sm_cost_eval(one, &before);
    for (int it = 0; it < 500; it++) {
        sm_eval a, b;
        sm_cost_eval(one, &a);
        sm_cost_eval(two, &b);
        assert_memory_equal(&a, &b, sizeof a);
        assert_memory_equal(one->map, two->map, sizeof(int) * (size_t)n);
        assert_memory_equal(one->comm_energy, two->comm_energy, sizeof(double) * (size_t)P);
        assert_memory_equal(one->deg, two->deg, sizeof(int64_t) * (size_t)P);
        assert_memory_equal(one->cells, two->cells, sizeof(int64_t) * (size_t)P);
        assert_true(one->dyn == two->dyn && one->stat == two->stat && one->comm_inter == two->comm_inter &&
                    one->comm_intra == two->comm_intra && one->idle_comp == two->idle_comp);
        assert_memory_equal(one->comp.slot, two->comp.slot, sizeof(int) * (size_t)P);
        assert_memory_equal(one->hdeg.slot, two->hdeg.slot, sizeof(int) * (size_t)P);
        int u = (int)(sm_rand_next(&rs) % (unsigned)n), to = (int)(sm_rand_next(&rs) % (unsigned)P);
        if (it % 3 == 0) {
            sm_cost_trial_begin(one);
            sm_cost_trial_begin(two);
            sm_cost_move(one, u, to);
            sm_cost_move(two, u, to);
            sm_cost_trial_keep(one);
            sm_cost_trial_keep(two);
        } else {
            sm_cost_move(one, u, to);
            sm_cost_move(two, u, to);
        }
    }
    /* The copy's moves are its own. */
    sm_cost *three = sm_cost_clone(one);
    sm_eval a, b;
    sm_cost_eval(one, &a);
    for (int u = 0; u < n; u++) sm_cost_move(three, u, 0);
    sm_cost_eval(one, &b);
    assert_memory_equal(&a, &b, sizeof a);
    sm_cost_free(three);
    sm_cost_free(plain);
    sm_cost_free(one);
    sm_cost_free(two);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

static void trial_heaps_wait_same_maxima(void **st)
{
    (void)st;
    sm_grid *g = unequal_cells_grid();
    sm_topo *t = torus_3x3();
    int n = g->ntasks, P = t->nprocs;
    int *map = malloc(sizeof(int) * (size_t)n);
    for (int rounds = 0; rounds < 2; rounds++) {
        unsigned long long rs = 11 + (unsigned)rounds;
        for (int b = 0; b < n; b++) map[b] = (int)(sm_rand_next(&rs) % (unsigned)P);
        sm_model m;
        sm_model_default(&m);
        if (rounds) m.rounds = SM_ROUNDS_COLOURING;
        sm_cost *c = sm_cost_new(g, t, &m, map), *plain = sm_cost_new(g, t, &m, map);
        int waited = 0;
        for (int it = 0; it < 1500; it++) {
            int u[3], from[3], k = 1 + (int)(sm_rand_next(&rs) % 3);
            for (int i = 0; i < k; i++) u[i] = (int)(sm_rand_next(&rs) % (unsigned)n);
            int to = (int)(sm_rand_next(&rs) % (unsigned)P);
            sm_cost_trial_begin(c);
            for (int i = 0; i < k; i++) {
                from[i] = c->map[u[i]];
                sm_cost_move(c, u[i], to);
                sm_cost_move(plain, u[i], to);
            }
            waited |= c->ndirty_proc > 0;
            sm_eval a, b;
            sm_cost_eval_fast(c, &a);
            sm_cost_eval_fast(plain, &b);
            assert_memory_equal(&a.comp_time, &b.comp_time, sizeof a.comp_time);
            assert_int_equal(a.rounds, b.rounds);
            assert_int_equal(a.message_rounds, b.message_rounds);
            if (rounds && it % 50 == 0) {
                sm_cost_eval(c, &a);
                sm_cost_eval(plain, &b);
                assert_int_equal(a.rounds, b.rounds);
                assert_int_equal(a.rounds_lower, b.rounds_lower);
                assert_int_equal(a.message_rounds, b.message_rounds);
            }
            for (int i = k - 1; i >= 0; i--) {
                sm_cost_move(c, u[i], from[i]);
                sm_cost_move(plain, u[i], from[i]);
            }
            sm_cost_trial_end(c);
            assert_int_equal(c->ndirty_proc, 0);
            assert_true(sm_heap_max(&c->comp) == sm_heap_max(&plain->comp));
            assert_true(sm_heap_max(&c->hdeg) == sm_heap_max(&plain->hdeg));
            assert_true(sm_heap_max(&c->hdeg1) == sm_heap_max(&plain->hdeg1));
            if (it % 5 == 0) {
                sm_cost_move(c, u[0], to);
                sm_cost_move(plain, u[0], to);
            }
        }
        assert_true(waited);
        sm_cost_free(c);
        sm_cost_free(plain);
    }
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* A trial may mix moves and parameter changes (tabu's DVFS candidates
 * change a processor's state): undone in any order, the state after the
 * trial has the makespan heap of the same state built outside a trial.
 * (Review of 06381a5: setting parameters wrote the makespan key while the
 * heaps waited; a move undone after it left that key stale.) */
static void trial_params_and_moves_undone(void **st)
{
    (void)st;
    sm_grid *g = unequal_cells_grid();
    sm_topo *t = torus_3x3();
    int n = g->ntasks, P = t->nprocs;
    int *map = malloc(sizeof(int) * (size_t)n);
    unsigned long long rs = 23;
    for (int b = 0; b < n; b++) map[b] = (int)(sm_rand_next(&rs) % (unsigned)P);
    sm_model m;
    sm_model_default(&m);
    sm_cost *c = sm_cost_new(g, t, &m, map);
    for (int it = 0; it < 500; it++) {
        int u = (int)(sm_rand_next(&rs) % (unsigned)n);
        int from = c->map[u], to = (int)(sm_rand_next(&rs) % (unsigned)P);
        sm_params old = *sm_topo_proc_params(t, to), slow = old;
        slow.time_per_cell *= 3, slow.energy_per_cell *= 2;
        sm_eval before, after;
        sm_cost_eval(c, &before);
        sm_cost_trial_begin(c);
        sm_cost_move(c, u, to);
        sm_cost_set_params(c, to, &slow);
        /* undone with the parameters first, then the move */
        sm_cost_set_params(c, to, &old);
        sm_cost_move(c, u, from);
        sm_cost_trial_end(c);
        sm_cost_eval(c, &after);
        assert_memory_equal(&before.comp_time, &after.comp_time, sizeof before.comp_time);
        assert_memory_equal(&before.time, &after.time, sizeof before.time);
        assert_memory_equal(&before.energy, &after.energy, sizeof before.energy);
        sm_cost *fresh = sm_cost_new(g, t, &m, c->map);
        assert_true(sm_heap_max(&c->comp) == sm_heap_max(&fresh->comp));
        sm_cost_free(fresh);
        if (it % 3 == 0) sm_cost_move(c, u, to);
    }
    sm_cost_free(c);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* Compacting the pair slots changes no figure, bit for bit: two cost
 * states follow the same random moves and swaps, one compacted every few
 * moves; their evaluations and traffic agree exactly, under maxdeg and
 * vizing; under a live colouring it does nothing. */
static void compact_pairs_keeps_every_bit(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 8, 1, 0, 0, 0, SM_ST_5PT);
    sm_topo *t = tu_one_per_node("{\"kind\":\"torus\",\"dims\":[4,4,4]}", 64);
    static const sm_rounds_model models[] = {SM_ROUNDS_MAXDEG, SM_ROUNDS_VIZING, SM_ROUNDS_COLOURING};
    for (int mi = 0; mi < 3; mi++) {
        sm_model m;
        sm_model_default(&m);
        m.rounds = models[mi];
        int map[64];
        for (int u = 0; u < 64; u++) map[u] = u;
        sm_cost *a = sm_cost_new(g, t, &m, map), *b = sm_cost_new(g, t, &m, map);
        sm_eval ea, eb;
        if (models[mi] == SM_ROUNDS_COLOURING) {
            sm_cost_eval(b, &eb); /* the colouring is kept from now on */
            assert_int_equal(sm_cost_compact_pairs(b), 0);
        }
        unsigned long long rs = 7;
        int given_back = 0;
        for (int i = 0; i < 3000; i++) {
            int u = (int)(sm_rand_next(&rs) % 64), v = (int)(sm_rand_next(&rs) % 64);
            if (i % 3) {
                sm_cost_swap(a, u, v);
                sm_cost_swap(b, u, v);
            } else {
                sm_cost_move(a, u, map[v]);
                sm_cost_move(b, u, map[v]);
            }
            if (i % 50 == 0) given_back += sm_cost_compact_pairs(b);
            if (i % 10) continue;
            sm_cost_eval(a, &ea);
            sm_cost_eval(b, &eb);
            assert_memory_equal(&ea, &eb, sizeof ea);
            sm_traffic *ta, *tb;
            int na = sm_cost_traffic(a, 1, &ta), nb = sm_cost_traffic(b, 1, &tb);
            assert_int_equal(na, nb);
            assert_memory_equal(ta, tb, sizeof *ta * (size_t)na);
            free(ta);
            free(tb);
        }
        if (models[mi] == SM_ROUNDS_COLOURING) assert_int_equal(given_back, 0);
        else assert_true(given_back > 0);
        assert_true(b->pairs.n <= a->pairs.n);
        sm_cost_free(a);
        sm_cost_free(b);
    }
    sm_topo_free(t);
    sm_grid_free(g);
}

/* A state with its pair counts off (sm_cost_pairs_off, the stepper's
 * under maxdeg) reads every figure of one that keeps them, bit for bit,
 * through random moves, swaps and batches; whatever reads the pairs
 * (traffic, pair lists, another rounds model) gets them back exactly as
 * kept; off is refused under vizing, a live colouring and in a trial.
 * A third state follows the same moves with its pairs off and no cache
 * of directed pairs' links (sm_cost_follow_only, the stepper's): the
 * same bits again. */
static void pairs_off_keeps_every_bit(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 8, 1, 0, 0, 0, SM_ST_9PT);
    /* Two processors a node: intra- and inter-node pairs. */
    char *text = malloc(16384);
    int len = snprintf(text, 16384,
                       "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{\"n\":{\"time_per_cell\":1e-9,"
                       "\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},\"processors\":[");
    for (int i = 0; i < 64; i++)
        len += snprintf(text + len, 16384 - (size_t)len, "%s{\"name\":\"p%d\",\"type\":\"n\",\"node\":%d}",
                        i ? "," : "", i, i / 2);
    snprintf(text + len, 16384 - (size_t)len,
             "],\"network\":{\"kind\":\"torus\",\"dims\":[4,4,2]},\"links\":{\"intra\":{\"*\":"
             "{\"time_per_cell\":3e-10,\"energy_per_cell\":7e-10}},\"inter\":[{\"time_per_cell\":1.3e-9,"
             "\"energy_per_cell\":1.1e-9}]}}");
    sm_topo *t = tu_topo_text(text);
    free(text);
    sm_model m;
    sm_model_default(&m);
    m.rounds = SM_ROUNDS_MAXDEG;
    /* A round short of a message: quanta of several rounds, by link. */
    m.round_time = 7e-10;
    int map[64], to[64];
    for (int u = 0; u < 64; u++) map[u] = u % 32;
    sm_cost *a = sm_cost_new(g, t, &m, map), *b = sm_cost_new(g, t, &m, map);
    assert_int_equal(sm_cost_pairs_off(b), 0);
    assert_int_equal(b->pairs.n, 0);
    sm_cost *d = sm_cost_new(g, t, &m, map);
    assert_int_equal(sm_cost_pairs_off(d), 0);
    sm_cost_follow_only(d);
    sm_eval ea, eb, ed;
    /* Built with the pairs off from the start: the same evaluation. */
    sm_cost *f = sm_cost_new_figures(g, t, &m, map);
    assert_true(f->pairs_off);
    sm_cost_eval(a, &ea);
    sm_cost_eval(f, &eb);
    assert_memory_equal(&ea, &eb, sizeof ea);
    sm_cost_free(f);
    unsigned long long rs = 5;
    int checked = 0, back = 0;
    for (int i = 0; i < 4000; i++) {
        int u = (int)(sm_rand_next(&rs) % 64), v = (int)(sm_rand_next(&rs) % 64);
        if (i % 4 == 0) {
            sm_cost_move(a, u, (int)(sm_rand_next(&rs) % 64));
            sm_cost_move(b, u, a->map[u]);
            sm_cost_move(d, u, a->map[u]);
        } else if (i % 4 == 1) {
            int bl[3] = {u, v, (u + 9) % 64};
            memcpy(to, a->map, sizeof to);
            for (int k = 0; k < 3; k++) to[bl[k]] = (int)(sm_rand_next(&rs) % 64);
            sm_cost_move_set(a, bl, 3, to);
            sm_cost_move_set(b, bl, 3, to);
            sm_cost_move_set(d, bl, 3, to);
        } else {
            sm_cost_swap(a, u, v);
            sm_cost_swap(b, u, v);
            sm_cost_swap(d, u, v);
        }
        assert_memory_equal(a->map, b->map, sizeof map);
        sm_cost_eval(a, &ea);
        sm_cost_eval(b, &eb);
        assert_memory_equal(&ea, &eb, sizeof ea);
        sm_cost_eval(d, &ed);
        assert_memory_equal(&ea, &ed, sizeof ea);
        for (int p = 0; p < 64; p++) {
            assert_memory_equal(&a->comm_energy[p], &b->comm_energy[p], sizeof(double));
            assert_memory_equal(&a->comm_energy[p], &d->comm_energy[p], sizeof(double));
        }
        checked++;
        if (i % 500 != 499) continue;
        /* A reader of the pairs: the counts come back as a kept them. */
        sm_traffic *ta, *tb;
        int na = sm_cost_traffic(a, 1, &ta), nb = sm_cost_traffic(b, 1, &tb);
        assert_false(b->pairs_off);
        assert_true(na > 0);
        assert_int_equal(na, nb);
        assert_memory_equal(ta, tb, sizeof *ta * (size_t)na);
        free(ta);
        free(tb);
        int npa, npb;
        sm_pairmu *pa = sm_cost_pairs(a, 1, &npa), *pb = sm_cost_pairs(b, 1, &npb);
        assert_int_equal(npa, npb);
        int64_t sa = 0, sb = 0;
        for (int k = 0; k < npa; k++) sa += pa[k].mu, sb += pb[k].mu;
        assert_true(sa == sb && sa == ea.messages);
        free(pa);
        free(pb);
        assert_int_equal(sm_cost_pairs_off(b), 0);
        back++;
    }
    assert_int_equal(checked, 4000);
    assert_int_equal(back, 8);
    /* Another rounds model brings them back; its figures agree too. */
    sm_model vz = m;
    vz.rounds = SM_ROUNDS_VIZING;
    sm_cost_set_model(a, &vz);
    sm_cost_set_model(b, &vz);
    assert_false(b->pairs_off);
    sm_cost_eval(a, &ea);
    sm_cost_eval(b, &eb);
    assert_memory_equal(&ea, &eb, sizeof ea);
    assert_int_equal(sm_cost_pairs_off(b), -1);
    sm_model col = m;
    col.rounds = SM_ROUNDS_COLOURING;
    sm_cost_set_model(b, &col);
    sm_cost_eval(b, &eb); /* a live colouring from now on */
    sm_cost_set_model(b, &m);
    assert_int_equal(sm_cost_pairs_off(b), -1);
    sm_cost *c = sm_cost_new(g, t, &m, map);
    sm_cost_trial_begin(c);
    assert_int_equal(sm_cost_pairs_off(c), -1);
    sm_cost_trial_end(c);
    assert_int_equal(sm_cost_pairs_off(c), 0);
    sm_cost_free(a);
    sm_cost_free(b);
    sm_cost_free(c);
    sm_cost_free(d);
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compact_pairs_keeps_every_bit),
        cmocka_unit_test(pairs_off_keeps_every_bit),
        cmocka_unit_test(trial_restores_bits),
        cmocka_unit_test(trial_keep_is_the_move_taken),
        cmocka_unit_test(new_on_two_threads_same_bits),
        cmocka_unit_test(clone_same_bits),
        cmocka_unit_test(remap_on_two_threads_same_bits),
        cmocka_unit_test(trial_heaps_wait_same_maxima),
        cmocka_unit_test(trial_params_and_moves_undone),
    };
    return cmocka_run_group_tests_name("cost trials and pair slots", tests, NULL, NULL);
}
