/* test_session_edits_undo_redo.c - edits, undo and redo through the incremental model. */
#include "tests/unit/testutil.h"
#include "core/session/crash_recovery_journal.h"
#include "core/session/session_edits_undo_redo.h"
#include <unistd.h>

static sm_session *fresh(void)
{
    sm_model m;
    sm_model_default(&m);
    return sm_session_new(tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT), tu_thesis("cpu gpu"), &m, NULL);
}

static void starts_from_lb_ijk(void **st)
{
    (void)st;
    sm_session *s = fresh();
    int map[128];
    sm_fill(s->grid, s->topo, SM_SPEEDS_EXACT, SM_ORDER_IJK, 0, map);
    assert_memory_equal(sm_session_map(s), map, sizeof map);
    /* exact speeds: cpu gets ceil(128 * 28 / 246) = 15 blocks */
    int cpu = 0;
    for (int u = 0; u < 128; u++) cpu += map[u] == 0;
    assert_int_equal(cpu, 15);
    assert_int_equal(s->dirty, 0);
    sm_session_free(s);
}

static void undo_redo_restore_exactly(void **st)
{
    (void)st;
    sm_session *s = fresh();
    int orig[128];
    memcpy(orig, sm_session_map(s), sizeof orig);
    sm_eval e0, e1, e2;
    sm_cost_eval(s->cost, &e0);
    assert_int_equal(sm_session_move(s, 0, 1, "m"), 1);
    assert_int_equal(sm_session_move(s, 0, 1, "again"), 0); /* no-op, no edit */
    assert_int_equal(sm_session_swap(s, 5, 100, "s"), 2);
    int target[128];
    for (int u = 0; u < 128; u++) target[u] = u % 2;
    int changed = sm_session_apply(s, target, "alt");
    assert_true(changed > 0);
    assert_int_equal(s->pos, 3);
    sm_cost_eval(s->cost, &e1);
    for (int i = 0; i < 3; i++) assert_int_equal(sm_session_undo(s), 0);
    assert_int_equal(sm_session_undo(s), -1);
    assert_memory_equal(sm_session_map(s), orig, sizeof orig);
    sm_cost_eval(s->cost, &e2);
    assert_true(e2.energy == e0.energy || fabs(e2.energy - e0.energy) < 1e-12 * e0.energy);
    for (int i = 0; i < 3; i++) assert_int_equal(sm_session_redo(s), 0);
    assert_int_equal(sm_session_redo(s), -1);
    assert_memory_equal(sm_session_map(s), target, sizeof target);
    sm_cost_eval(s->cost, &e2);
    tu_assert_close(e2.energy, e1.energy, 1e-12, "redo energy");
    /* A new edit after undo drops the redo branch. */
    sm_session_undo(s);
    assert_int_equal(sm_session_move(s, 120, 0, "branch"), 1);
    assert_int_equal(sm_session_redo(s), -1);
    assert_int_equal(s->dirty, 1);
    sm_session_free(s);
}

static void history_is_bounded(void **st)
{
    (void)st;
    sm_session *s = fresh();
    for (int i = 0; i < SM_HISTORY_MAX + 50; i++) sm_session_move(s, 7, i % 2, "flip");
    assert_int_equal(s->nhist, SM_HISTORY_MAX);
    sm_session_free(s);
}

static void new_grid_resets(void **st)
{
    (void)st;
    sm_session *s = fresh();
    sm_session_move(s, 0, 1, "m");
    sm_session_set_grid(s, tu_grid(4, 4, 1, 0, 0, 0, SM_ST_5PT));
    assert_int_equal(s->grid->ntasks, 16);
    assert_int_equal(s->pos, 0);
    assert_int_equal(sm_session_undo(s), -1);
    sm_eval a, b;
    sm_cost_eval(s->cost, &a);
    sm_eval_reference(s->grid, s->topo, &s->model, sm_session_map(s), &b);
    tu_assert_close(a.energy, b.energy, 1e-12, "after new grid");
    sm_session_free(s);
}

/* Undo points are what that many undos give, without touching the session;
 * a replaced grid bumps `rebuilt` (what points into it must let go). */
static void undo_points_match_undo(void **st)
{
    (void)st;
    sm_session *s = fresh();
    int p0[128], p1[128], p3[128], got[128];
    memcpy(p0, sm_session_map(s), sizeof p0);
    sm_session_move(s, 0, 1, "a");
    memcpy(p1, sm_session_map(s), sizeof p1);
    sm_session_swap(s, 5, 100, "b");
    int target[128];
    for (int u = 0; u < 128; u++) target[u] = u % 2;
    sm_session_apply(s, target, "c");
    memcpy(p3, sm_session_map(s), sizeof p3);
    assert_int_equal(sm_session_undo_point(s, 0, got), -1);
    assert_int_equal(sm_session_undo_point(s, 4, got), -1);
    assert_int_equal(sm_session_undo_point(s, 3, got), 0);
    assert_memory_equal(got, p0, sizeof got);
    assert_int_equal(sm_session_undo_point(s, 2, got), 0);
    assert_memory_equal(got, p1, sizeof got);
    assert_memory_equal(sm_session_map(s), p3, sizeof p3);   /* untouched */
    sm_session_undo(s);
    sm_session_undo(s);
    assert_int_equal(sm_session_undo_point(s, 1, got), 0);   /* counted from the undone state */
    assert_memory_equal(got, p0, sizeof got);
    assert_int_equal(sm_session_undo_point(s, 2, got), -1);
    unsigned long long r = s->rebuilt;
    sm_model m = s->model;
    m.overlap = !m.overlap;
    sm_session_set_model(s, &m);
    assert_true(s->rebuilt == r);
    sm_session_set_grid(s, tu_grid(4, 4, 4, 0, 0, 0, SM_ST_7PT));
    assert_true(s->rebuilt == r + 1);
    sm_session_free(s);
}

/* Moving blocks as one edit: repeats count once, nothing moved is no
 * edit, and the touched-block log lists what changed (and gives up,
 * saying so, on a rebuild). */
static void move_blocks_and_touched_log(void **st)
{
    (void)st;
    sm_session *s = fresh();
    const int *map = sm_session_map(s);
    int to = map[3] == 0 ? 1 : 0;
    unsigned long long mark = sm_session_touch_mark(s);
    int bl[] = {3, 3, 3};
    assert_int_equal(sm_session_move_blocks(s, bl, 3, to, "m"), 1);
    assert_int_equal(s->pos, 1);
    assert_int_equal(s->hist[0].n, 1);
    assert_int_equal(sm_session_move_blocks(s, bl, 1, to, "again"), 0);
    assert_int_equal(s->pos, 1);
    int nt;
    const int *t = sm_session_touched_since(s, mark, &nt);
    assert_non_null(t);
    assert_int_equal(nt, 1);
    assert_int_equal(t[0], 3);
    mark = sm_session_touch_mark(s);
    sm_session_swap(s, 0, 127, "s");
    sm_session_undo(s);
    t = sm_session_touched_since(s, mark, &nt);
    assert_int_equal(nt, 4);
    assert_true((t[0] == 0 && t[1] == 127) || (t[0] == 127 && t[1] == 0));
    sm_session_set_grid(s, tu_grid(4, 4, 4, 0, 0, 0, SM_ST_7PT));
    assert_null(sm_session_touched_since(s, mark, &nt));
    sm_session_free(s);
}

/* A whole-machine grid: an edit (move, moving several blocks, swap, undo,
 * redo) and the journal's record of it cost what they move, not a copy
 * of the mapping; after thousands of them undo restores the starting
 * mapping byte for byte, and the journal recovers the mapping exactly. */
static void edits_cost_what_they_move(void **st)
{
    (void)st;
    sm_model m;
    sm_model_default(&m);
    sm_session *s = sm_session_new(tu_grid(256, 256, 8, 0, 0, 0, SM_ST_7PT),
                                   tu_thesis("cpu gpu cpu gpu cpu gpu cpu gpu"), &m, NULL);
    int n = s->grid->ntasks, P = s->topo->nprocs;
    size_t map_bytes = sizeof(int) * (size_t)n;
    int *orig = malloc(map_bytes);
    memcpy(orig, sm_session_map(s), map_bytes);
    char dir[] = "/tmp/sm-test-session-XXXXXX";
    assert_non_null(mkdtemp(dir));
    sm_err e;
    sm_journal *j = sm_journal_open(dir, NULL, &e);
    assert_non_null(j);
    assert_int_equal(sm_journal_sync(j, s, &e), 0); /* the snapshot */
    enum { EDITS = 1000 };
    unsigned rnd = 12345;
#define RND() (rnd = rnd * 1103515245u + 12345u, (int)((rnd >> 8) % 0x7fffff))
    size_t before = sm_alloc_bytes();
    for (int i = 0; i < EDITS; i++) {
        int b = RND() % n, kind = i % 5;
        if (kind == 0) sm_session_move(s, b, RND() % P, "move");
        else if (kind == 1) {
            int bl[4] = {b, (b + 1) % n, RND() % n, b};
            sm_session_move_blocks(s, bl, 4, RND() % P, "move blocks");
        } else if (kind == 2) sm_session_swap(s, b, RND() % n, "swap");
        else if (kind == 3) sm_session_undo(s);
        else sm_session_redo(s);
        assert_int_equal(sm_journal_sync(j, s, &e), 0);
    }
    size_t used = sm_alloc_bytes() - before;
    /* Every edit's history and journal record together stay far below
     * one copy of the mapping (2 MB here). */
    if (used >= map_bytes / 2) fail_msg("%d edits allocated %zu bytes; the mapping is %zu", EDITS, used, map_bytes);
    sm_journal_close(j, 0);
    char *path = NULL;
    sm_journal_info *list;
    int nj = sm_journal_list(dir, &list);
    assert_int_equal(nj, 1);
    path = strdup(list[0].path);
    sm_journal_list_free(list, nj);
    sm_scenario sc;
    assert_int_equal(sm_journal_read(path, &sc, NULL, NULL, &e), 0);
    assert_memory_equal(sc.map, sm_session_map(s), map_bytes);
    sm_grid_free(sc.grid);
    sm_topo_free(sc.topo);
    free(sc.map);
    unlink(path);
    free(path);
    rmdir(dir);
    while (sm_session_undo(s) == 0) {}
    assert_memory_equal(sm_session_map(s), orig, map_bytes);
    sm_eval a, b;
    sm_cost_eval(s->cost, &a);
    sm_eval_reference(s->grid, s->topo, &s->model, orig, &b);
    tu_assert_close(a.energy, b.energy, 1e-9, "after undoing everything");
    assert_true(a.messages == b.messages && a.edges == b.edges);
    free(orig);
    sm_session_free(s);
#undef RND
}

/* A solver's DVFS states and its mapping are one edit on the machine in
 * place (#kfixa item 1): undo restores the mapping and every state, redo
 * both, the cost model matches a fresh evaluation at each point, and the
 * journal recovers the states with the mapping. */
static void state_edits_undo_and_journal(void **st)
{
    (void)st;
    sm_scenario sc;
    sm_err e;
    assert_int_equal(sm_scenario_load("samples/cuboid-cpu-gpu-dvfs.json", &sc, &e), 0);
    sm_session *s = sm_session_new(sc.grid, sc.topo, &sc.model, sc.map);
    free(sc.map);
    int n = s->grid->ntasks, P = s->topo->nprocs;
    size_t mb = sizeof(int) * (size_t)n;
    int *orig = malloc(mb), *want = malloc(mb);
    memcpy(orig, sm_session_map(s), mb);
    char dir[] = "/tmp/sm-test-states-XXXXXX";
    assert_non_null(mkdtemp(dir));
    sm_journal *j = sm_journal_open(dir, NULL, &e);
    assert_non_null(j);
    assert_int_equal(sm_journal_sync(j, s, &e), 0);
    /* Everything on the last processor, which runs its first state. */
    for (int u = 0; u < n; u++) want[u] = P - 1;
    assert_true(s->topo->types[s->topo->procs[P - 1].type].nstates > 0);
    sm_state_change ch = {SM_STATE_OF_PROC, P - 1, 0, 0};
    unsigned long long structure = s->structure;
    int moved = 0;
    for (int u = 0; u < n; u++) moved += orig[u] != P - 1;
    assert_int_equal(sm_session_apply_states(s, &ch, 1, want, "solve"), moved + 1);
    assert_int_equal(s->nhist, 1);
    assert_true(s->structure != structure);
    assert_int_equal(sm_topo_proc_state(s->topo, P - 1), 0);
    sm_eval a, b;
    sm_cost_eval(s->cost, &a);
    sm_eval_reference(s->grid, s->topo, &s->model, want, &b);
    tu_assert_close(a.energy, b.energy, 1e-12, "after the state edit");
    assert_int_equal(sm_journal_sync(j, s, &e), 0);
    /* The journal recovers the state with the mapping. */
    sm_journal_info *list;
    int nj = sm_journal_list(dir, &list);
    assert_int_equal(nj, 1);
    char *path = strdup(list[0].path);
    sm_journal_list_free(list, nj);
    sm_scenario rec;
    assert_int_equal(sm_journal_read(path, &rec, NULL, NULL, &e), 0);
    assert_memory_equal(rec.map, want, mb);
    assert_int_equal(sm_topo_proc_state(rec.topo, P - 1), 0);
    sm_scenario_release(&rec);
    /* One undo: the original mapping and states, and unmodified again. */
    assert_int_equal(sm_session_next_states(s, 0), 1);
    assert_int_equal(sm_session_undo(s), 0);
    assert_memory_equal(sm_session_map(s), orig, mb);
    assert_int_equal(sm_topo_proc_state(s->topo, P - 1), SM_STATE_BASE);
    assert_int_equal(s->topo->procs[P - 1].state, -1);
    sm_cost_eval(s->cost, &a);
    sm_eval_reference(s->grid, s->topo, &s->model, orig, &b);
    tu_assert_close(a.energy, b.energy, 1e-12, "after undo");
    assert_int_equal(s->dirty, 0);
    assert_int_equal(sm_journal_sync(j, s, &e), 0);
    assert_int_equal(sm_journal_read(path, &rec, NULL, NULL, &e), 0);
    assert_memory_equal(rec.map, orig, mb);
    assert_int_equal(sm_topo_proc_state(rec.topo, P - 1), SM_STATE_BASE);
    sm_scenario_release(&rec);
    /* Redo: both again. */
    assert_int_equal(sm_session_redo(s), 0);
    assert_memory_equal(sm_session_map(s), want, mb);
    assert_int_equal(sm_topo_proc_state(s->topo, P - 1), 0);
    assert_int_equal(s->dirty_parts, (unsigned)(SM_PART_MAP | SM_PART_TOPO));
    sm_journal_close(j, 1);
    free(path);
    rmdir(dir);
    free(orig);
    free(want);
    sm_session_free(s);
}

/* "Modified" follows the state (#kfixa item 2): undoing every edit since
 * the load or the save is unmodified; an edit that drops the saved
 * position's redo branch is modified for good; a change outside the
 * history stays modified until saved. */
static void modified_follows_position(void **st)
{
    (void)st;
    sm_session *s = fresh();
    sm_session_move(s, 0, 1, "a");
    sm_session_move(s, 1, 1, "b");
    assert_int_equal(s->dirty_parts, (unsigned)SM_PART_MAP);
    sm_session_undo(s);
    sm_session_undo(s);
    assert_int_equal(s->dirty, 0);
    sm_session_redo(s);
    assert_int_equal(s->dirty, 1);
    sm_session_saved(s, SM_PART_MAP); /* saved after a */
    assert_int_equal(s->dirty, 0);
    sm_session_undo(s);
    assert_int_equal(s->dirty, 1);
    sm_session_redo(s);
    assert_int_equal(s->dirty, 0);
    sm_session_redo(s);            /* b */
    sm_session_undo(s);
    assert_int_equal(s->dirty, 0);
    sm_session_undo(s);            /* before a, then a new edit drops a */
    sm_session_move(s, 5, 1, "c");
    sm_session_undo(s);
    assert_int_equal(s->dirty, 1);
    sm_session_saved(s, SM_PART_ALL);
    assert_int_equal(s->dirty, 0);
    sm_model m = s->model;
    m.overlap = !m.overlap;
    sm_session_set_model(s, &m);
    sm_session_move(s, 0, 1, "d");
    sm_session_undo(s);
    assert_int_equal(s->dirty_parts, (unsigned)SM_PART_MODEL);
    sm_session_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(starts_from_lb_ijk),
        cmocka_unit_test(undo_redo_restore_exactly),
        cmocka_unit_test(move_blocks_and_touched_log),
        cmocka_unit_test(edits_cost_what_they_move),
        cmocka_unit_test(history_is_bounded),
        cmocka_unit_test(new_grid_resets),
        cmocka_unit_test(undo_points_match_undo),
        cmocka_unit_test(state_edits_undo_and_journal),
        cmocka_unit_test(modified_follows_position),
    };
    return cmocka_run_group_tests_name("session", tests, NULL, NULL);
}
