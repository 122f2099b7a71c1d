/* test_session.c - edits, undo and redo through the incremental model. */
#include "tests/unit/testutil.h"
#include "core/session/session.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(starts_from_lb_ijk),
        cmocka_unit_test(undo_redo_restore_exactly),
        cmocka_unit_test(history_is_bounded),
        cmocka_unit_test(new_grid_resets),
        cmocka_unit_test(undo_points_match_undo),
    };
    return cmocka_run_group_tests_name("session", tests, NULL, NULL);
}
