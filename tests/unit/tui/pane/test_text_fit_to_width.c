/* test_text_fit_to_width.c - a solver's move text fitted to a pane's
 * columns (tui/pane/text_fit_to_width.c): the block and the target stay
 * at every width, words go only when the text does not fit. */
#include "tests/unit/testutil.h"
#include "tui/pane/text_fit_to_width.h"

/* The texts tabu and multilevel tabu write (describe(), and the level
 * prefix of multilevel_tabu.c), with the processor names of summit-full. */
static const char *const moves[] = {
    "move block 269 n0024.v100_1 -> n0024.v100_2",
    "swap block 333 (n0020.v100_1) with block 349 (n0020.v100_2)",
    "edge move blocks 212670 (n0000.v100_4), 212671 (n0000.v100_3) -> n0000.v100_4",
    "level 2 (262144 blocks): edge move blocks 212670 (n0000.v100_4), 212671 (n0000.v100_3) -> n0000.v100_4",
    "level 2 (262144 blocks): move block 212670 n0000.v100_4 -> n4607.v100_0",
    "level 11 (64 blocks): swap block 3 (n0000.v100_4) with block 5 (n0001.v100_3)",
};

static void fits_unchanged(void **st)
{
    (void)st;
    char out[256];
    for (size_t i = 0; i < sizeof moves / sizeof *moves; i++)
        assert_string_equal(sm_ui_fit_names(moves[i], 200, out, sizeof out), moves[i]);
}

/* The Solver pane at 80x24 (25 columns) on summit-full read "L2 edge move
 * 212670," and lost where the blocks go. */
static void edge_move_at_80x24_keeps_its_target(void **st)
{
    (void)st;
    char out[256];
    sm_ui_fit_names(moves[3], 25, out, sizeof out);
    assert_string_equal(out, "L2 212670,212671->n0~0_4");
    /* Wider, the words stay as long as they fit. */
    sm_ui_fit_names(moves[3], 37, out, sizeof out);
    assert_string_equal(out, "L2 edge move 212670, 212671 -> n0~0_4");
    sm_ui_fit_names(moves[3], 36, out, sizeof out);
    assert_string_equal(out, "L2 edge 212670,212671->n0~0_4");
}

/* The digits of the first number in s (the moved block). */
static void first_number(const char *s, char *num, size_t n)
{
    while (*s && !(s[0] >= '0' && s[0] <= '9' && (s[-1] == ' '))) s++;
    size_t k = 0;
    while (s[k] >= '0' && s[k] <= '9' && k + 1 < n) num[k] = s[k], k++;
    num[k] = '\0';
}

/* At every width from 14 columns up: never wider than the pane, the
 * target's end always there, the moved block's number (or, narrowest,
 * its head before a "~") always first. */
static void every_width_keeps_block_and_target(void **st)
{
    (void)st;
    char out[256], num[32];
    for (size_t i = 0; i < sizeof moves / sizeof *moves; i++) {
        const char *arrow = strstr(moves[i], " -> ");
        const char *target_tail = arrow ? moves[i] + strlen(moves[i]) - 3 : NULL;
        first_number(strstr(moves[i], "block") ? strstr(moves[i], "block") : moves[i], num, sizeof num);
        for (int width = 14; width <= 120; width++) {
            sm_ui_fit_names(moves[i], width, out, sizeof out);
            if ((int)strlen(out) > width) fail_msg("\"%s\" at %d: \"%s\" is wider", moves[i], width, out);
            if (target_tail && (!strstr(out, "->") || strcmp(out + strlen(out) - 3, target_tail) != 0))
                fail_msg("\"%s\" at %d: \"%s\" lost its target", moves[i], width, out);
            /* The block's number whole, or its head cut with "~". */
            const char *at = strstr(out, num);
            char head[8];
            snprintf(head, sizeof head, "%.3s", num);
            if (!at && !(strstr(out, head) && strchr(out, '~')))
                fail_msg("\"%s\" at %d: \"%s\" lost block %s", moves[i], width, out, num);
        }
    }
}

/* A swap keeps both its blocks down to the narrowest pane. */
static void swap_keeps_both_blocks(void **st)
{
    (void)st;
    char out[256];
    for (int width = 14; width <= 60; width++) {
        sm_ui_fit_names(moves[1], width, out, sizeof out);
        assert_non_null(strstr(out, "333"));
        assert_non_null(strstr(out, "349"));
    }
    sm_ui_fit_names(moves[1], 14, out, sizeof out);
    assert_string_equal(out, "swap 333<>349");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fits_unchanged),
        cmocka_unit_test(edge_move_at_80x24_keeps_its_target),
        cmocka_unit_test(every_width_keeps_block_and_target),
        cmocka_unit_test(swap_keeps_both_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
