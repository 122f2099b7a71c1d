/* test_processor_marks.c - how processors are told apart (tui/app/processor_marks.c) and the
 * processor palette kept apart from the cursor and highlight colours
 * (sm_theme_palette in tui/app/colour_theme.c). */
#include "tests/unit/testutil.h"
#include "tui/app/processor_marks.h"
#include "tui/app/colour_theme.h"
#include "core/io/topology_file.h"

/* The theme the program compiles in is the real file. */
const char sm_default_theme[] = "{}";

static sm_topo *load(const char *file)
{
    sm_err e;
    sm_topo *t = sm_topo_load(file, &e);
    if (!t) fail_msg("%s", e.msg);
    return t;
}

/* How many processors share (style, glyph) with an earlier one. */
static int clashes(const sm_topo *t, const int *style, const char *glyph)
{
    int n = 0;
    for (int p = 0; p < t->nprocs; p++)
        for (int q = 0; q < p; q++)
            if (style[p] == style[q] && glyph[p] == glyph[q]) { n++; break; }
    return n;
}

static void few_processors_own_colours(void **st)
{
    (void)st;
    sm_topo *t = load("samples/topologies/2cpu-2gpu-topology.json");
    int style[4];
    char glyph[4];
    assert_int_equal(sm_proc_marks(t, 23, style, glyph), 0);
    for (int p = 0; p < 4; p++) {
        assert_int_equal(style[p], p);
        assert_int_equal(glyph[p], "0123"[p]);
    }
    sm_topo_free(t);
}

/* Summit-like: 32 nodes of 8. Colour by node, glyph by place in the node;
 * the nodes past the palette shift their glyphs by 8. */
static void summit_by_node(void **st)
{
    (void)st;
    sm_topo *t = load("samples/topologies/summit-like-topology.json");
    assert_int_equal(t->nprocs, 256);
    int *style = malloc(sizeof(int) * 256);
    char *glyph = malloc(256);
    int ns[] = {23, 20, 12, 5};   /* 256 colours, 8 colours x bold, ... */
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        assert_int_equal(sm_proc_marks(t, ns[i], style, glyph), 1);
        /* 32 nodes / ns laps of 8 glyphs stay within 62: no clash. */
        assert_int_equal(clashes(t, style, glyph), 0);
        for (int p = 0; p < 256; p++) assert_int_equal(style[p], t->procs[p].node % ns[i]);
    }
    sm_proc_marks(t, 23, style, glyph);
    assert_int_equal(glyph[0], '0');          /* n00.p9_0 */
    assert_int_equal(glyph[8], '0');          /* n01.p9_0: same glyph... */
    assert_int_not_equal(style[0], style[8]); /* ...other colour */
    assert_int_equal(glyph[5], '5');          /* n00.v100_3 */
    assert_int_equal(glyph[23 * 8], '8');     /* n23.p9_0 shares node 0's colour */
    assert_int_equal(style[23 * 8], style[0]);
    free(style);
    free(glyph);
    sm_topo_free(t);
}

/* More processors than colours x 62 cannot all differ; the clashes are
 * only those the count forces (4096 processors, 23 colours: 23 x 62 =
 * 1426 distinct marks at most). */
static void beyond_the_marks(void **st)
{
    (void)st;
    char text[400000];
    size_t len = (size_t)snprintf(text, sizeof text,
        "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{\"c\":{\"time_per_cell\":1e-9,"
        "\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},\"network\":{\"kind\":\"tree\",\"group_sizes\":[16]},"
        "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}},\"inter\":["
        "{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9},{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}]},"
        "\"processors\":[");
    for (int p = 0; p < 4096; p++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s{\"name\":\"n%04d.c%d\",\"type\":\"c\",\"node\":%d}",
                                p ? "," : "", p / 4, p % 4, p / 4);
    len += (size_t)snprintf(text + len, sizeof text - len, "]}");
    sm_err e;
    sm_topo *t = sm_topo_parse_text(text, len, "big.json", &e);
    if (!t) fail_msg("%s", e.msg);
    int *style = malloc(sizeof(int) * 4096);
    char *glyph = malloc(4096);
    assert_int_equal(sm_proc_marks(t, 23, style, glyph), 1);
    int distinct = 4096 - clashes(t, style, glyph);
    assert_int_equal(distinct, 23 * 62);
    free(style);
    free(glyph);
    sm_topo_free(t);
}

/* The palette never holds the cursor's or the highlight's colour, on any
 * terminal, for every shipped theme (each ships the highlight colour in
 * its processor list). */
static void palette_keeps_marks_apart(void **st)
{
    (void)st;
    const char *themes[] = {"themes/default.json", "themes/light.json", "themes/colorblind.json"};
    int colours[] = {256, 16, 8};
    for (size_t i = 0; i < 3; i++) {
        sm_theme th;
        sm_err e;
        if (sm_theme_load(themes[i], &th, &e)) fail_msg("%s", e.msg);
        for (size_t c = 0; c < 3; c++) {
            short pal[SM_THEME_MAX_PROCS];
            int n = sm_theme_palette(&th, colours[c], pal);
            int cur = sm_color_for(th.el[SM_EL_CURSOR].bg, colours[c]);
            int hi = sm_color_for(th.el[SM_EL_HIGHLIGHT].bg, colours[c]);
            if (n < (colours[c] == 256 ? 15 : 4)) fail_msg("%s at %d colours: %d", themes[i], colours[c], n);
            for (int k = 0; k < n; k++) {
                assert_int_not_equal(pal[k], hi);
                assert_int_not_equal(pal[k], cur);
                for (int j = 0; j < k; j++) assert_int_not_equal(pal[k], pal[j]);
                if (colours[c] < 256) assert_true(pal[k] >= 0 && pal[k] < 16);
            }
        }
        /* The theme lists the highlight colour, yet 256 colours leave it out. */
        int listed = 0;
        for (int k = 0; k < th.nproc; k++) listed |= th.proc[k] == th.el[SM_EL_HIGHLIGHT].bg;
        short pal[SM_THEME_MAX_PROCS];
        int n = sm_theme_palette(&th, 256, pal);
        if (listed) assert_true(n < th.nproc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(few_processors_own_colours),
        cmocka_unit_test(summit_by_node),
        cmocka_unit_test(beyond_the_marks),
        cmocka_unit_test(palette_keeps_marks_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
