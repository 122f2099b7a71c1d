/* test_study_table.c - the Study pane's table (cells, numbers, columns
 * added late) and its plot (series in first-seen order, points in the
 * right cells, the published Table 6.4 optima once per scenario and only
 * on deadline/energy axes). */
#include "tests/unit/testutil.h"
#include "core/study/published_deadline_sweep_optima.h"
#include "core/study/study_table.h"

static void row(sm_study_table *t, const char *scen, const char *solver, const char *dl, const char *en)
{
    int r = sm_study_table_add_row(t);
    sm_study_table_set(t, r, "scenario", scen);
    sm_study_table_set(t, r, "solver", solver);
    sm_study_table_set(t, r, "deadline", dl);
    sm_study_table_set(t, r, "energy", en);
}

/* Rows past the first allocation, a column first seen on row 30: earlier
 * rows lack it (NULL, NAN), and numbers are parsed whole or not at all. */
static void cells_and_numbers(void **unused)
{
    (void)unused;
    sm_study_table *t = sm_study_table_new();
    for (int i = 0; i < 40; i++) {
        int r = sm_study_table_add_row(t);
        char v[32];
        snprintf(v, sizeof v, "%d", i);
        sm_study_table_set(t, r, "job", v);
        if (i >= 30) sm_study_table_set(t, r, "late", i == 30 ? "3.2e-3" : i == 31 ? "lb -f 0.9" : "12 ");
    }
    assert_int_equal(t->nrows, 40);
    assert_int_equal(t->ncols, 2);
    int late = sm_study_table_column(t, "late");
    assert_int_equal(late, 1);
    assert_int_equal(sm_study_table_column(t, "nope"), -1);
    assert_null(t->col[late].text[29]);
    assert_true(isnan(t->col[late].num[29]));
    assert_string_equal(t->col[late].text[30], "3.2e-3");
    assert_true(t->col[late].num[30] == 3.2e-3);
    assert_true(isnan(t->col[late].num[31]));           /* text, not a number */
    assert_true(t->col[late].num[32] == 12);            /* trailing blank allowed */
    assert_int_equal(sm_study_table_numbers(t, late), 9);
    assert_int_equal(sm_study_table_numbers(t, 0), 40);
    /* Setting a cell again replaces it. */
    sm_study_table_set(t, 0, "job", "x");
    assert_string_equal(t->col[0].text[0], "x");
    assert_int_equal(sm_study_table_numbers(t, 0), 39);
    sm_study_table_free(t);
}

/* Two solvers on CPU-GPU: series in first-seen order, the 4 published
 * optima once however many rows name the scenario, a point in the cell
 * its value maps to, and no optima on other axes. */
static void plot_series_and_optima(void **unused)
{
    (void)unused;
    sm_study_table *t = sm_study_table_new();
    const char *scen = "samples/cuboid-cpu-gpu.json";
    row(t, scen, "tabu", "3.59e-3", "0.4858");
    row(t, scen, "lb", "3.22e-3", "3.5173");
    row(t, scen, "tabu", "3.22e-3", "2.6586");
    row(t, scen, "lb", "3.59e-3", "3.5173");
    int x = sm_study_table_column(t, "deadline"), y = sm_study_table_column(t, "energy");
    int by = sm_study_table_column(t, "solver");
    sm_plot pl;
    sm_study_legend lg;
    sm_study_table_plot(t, x, y, by, 1, 10, 5, &pl, &lg);
    assert_int_equal(lg.nseries, 2);
    assert_string_equal(lg.label[0], "tabu");
    assert_string_equal(lg.label[1], "lb");
    assert_int_equal(lg.npoints, 4);
    const sm_ref_point *pts;
    assert_int_equal(sm_study_ref_points(scen, &pts), 4);
    assert_int_equal(lg.nref, 4);
    /* The ranges hold the published points: 3.22..3.59 ms, 0.4858..3.5173 J. */
    assert_true(pl.xmin == 3.22e-3 && pl.xmax == 3.59e-3);
    assert_true(pl.ymin == 0.4858 && pl.ymax == 3.5173);
    /* lb at (3.22 ms, 3.5173 J): the top-left cell, series 1. */
    assert_int_equal(pl.series[0], 1);
    /* tabu at (3.59 ms, 0.4858 J) is on the published all-on-GPU optimum:
     * the bottom-right cell holds both. */
    int br = (pl.height - 1) * pl.width + pl.width - 1;
    assert_int_equal(pl.series[br], 0);
    assert_int_equal(pl.marks[br], 1);
    int marks = 0;
    for (int c = 0; c < pl.width * pl.height; c++) marks += pl.marks[c];
    assert_int_equal(marks, 4);
    /* As text: tabu's two results on optima are U+25C8, the other two
     * optima U+25C6. */
    char *txt = sm_plot_text(&pl, "deadline", "energy");
    int reached = 0, alone = 0;
    for (const char *p = txt; (p = strstr(p, SM_PLOT_REACHED)); p++) reached++;
    for (const char *p = txt; (p = strstr(p, SM_PLOT_MARK)); p++) alone++;
    assert_int_equal(reached, 2);
    assert_int_equal(alone, 2);
    free(txt);
    sm_plot_free(&pl);
    sm_study_legend_free(&lg);

    /* Energy against the job's own deadline column renamed: no optima. */
    sm_study_table_set(t, 0, "seconds", "0.5");
    sm_study_table_plot(t, sm_study_table_column(t, "seconds"), y, -1, 1, 10, 5, &pl, &lg);
    assert_int_equal(lg.nref, 0);
    assert_int_equal(lg.nseries, 0);
    assert_int_equal(lg.npoints, 1);
    sm_plot_free(&pl);
    sm_study_legend_free(&lg);

    /* A second scenario adds its own optima; a third without any adds none. */
    row(t, "x/cuboid-cpu-cpu.json", "lb", "27.91e-3", "7.0591");
    row(t, "x/other.json", "lb", "1e-3", "1");
    double *rx, *ry;
    assert_int_equal(sm_study_table_refs(t, &rx, &ry), 4 + 3);
    assert_true(rx[4] == 27.91e-3 && ry[4] == 3.7690);
    free(rx);
    free(ry);
    sm_study_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cells_and_numbers),
        cmocka_unit_test(plot_series_and_optima),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
