/* key_action_table.h - the key table: every action the workbench has, defined once.
 * The same lists feed the key map, the '?' help and `key list`; each
 * action becomes a Tcl command (key_action_to_tcl_command.c) before it runs. */
#ifndef SM_KEY_ACTION_TABLE_H
#define SM_KEY_ACTION_TABLE_H

/* X(id, help) - in the order help shows them. */
#define SM_ACTIONS(X)                                                              \
    X(CURSOR_LEFT, "cursor left (Grid; the selected link in Network)")             \
    X(CURSOR_RIGHT, "cursor right (Grid; the selected link in Network)")           \
    X(CURSOR_UP, "cursor up; previous row in lists")                               \
    X(CURSOR_DOWN, "cursor down; next row in lists")                               \
    X(PLANE_PREV, "previous k-plane of a 3-D grid or machine; a page up in lists") \
    X(PLANE_NEXT, "next k-plane of a 3-D grid or machine; a page down in lists")   \
    X(ROW_FIRST, "first row of a list")                                            \
    X(ROW_LAST, "last row of a list")                                              \
    X(ACTIVATE, "select the block / choose the processor / highlight the pair / start the solver / turn the link") \
    X(SELECT, "add or remove the cursor block from the selection")                 \
    X(SELECT_PROC, "select every block of the chosen processor")                   \
    X(SELECT_CLEAR, "clear the selection and the highlighted pair")                \
    X(NODE, "Grid: light only the cursor processor's node, dim the rest (again: all)") \
    X(MOVE, "move the selected blocks (or the cursor block) to a processor")       \
    X(SWAP, "swap the selected block with the cursor block (or two selected)")     \
    X(UNDO, "undo the last change of the mapping")                                 \
    X(REDO, "redo")                                                                \
    X(START, "pick a solver and its options and start it")                         \
    X(STEP, "step the solver once")                                                \
    X(STEPN, "step the solver N times (N is 10; view step N sets it)")                              \
    X(BACK, "step the solver back once (its history: exactly the state after the step before)") \
    X(FORWARD, "step forward once (the recorded step while behind the last, else a new one)") \
    X(BACK10, "step the solver back 10 steps (or to its first)")                   \
    X(FORWARD10, "step forward 10 steps")                                         \
    X(EXPLAIN, "explain the step shown in the Console: move, why, change, candidates, tabu list") \
    X(BREAK, "run to a breakpoint set from the cursor: this processor's load changes (Processors), this block moves (Grid), else the objective drops below the step shown's; breakpoints that last: :solver break add EXPR (e.g. {[dict get [solver eval] energy] > 2.6}), n N Space and R stop at them; solver break list|disable|enable|delete") \
    X(RUN, "run / pause the solver")                                               \
    X(RUN_BACK, "run backwards to the last step before the one shown where a breakpoint held (reverse-continue; set one with :solver break add EXPR)") \
    X(PAUSE, "pause a running solver (Esc too); a second time, or X, ends it") \
    X(APPLY, "apply the solver's best mapping")                                    \
    X(STOP, "stop the solver, keeping its best")                                   \
    X(SOURCE, "all panes show the session's mapping or the solver's current one") \
    X(COMPARE, "compare side by side with the solver's best (or the last compare source), or stop; with branches (:solver branch K ?-tenure-add N -seed N ...? runs on from step K with other options), the run shown against the one it branched from at equal steps; :solver runs lists them, :solver switch NAME shows one") \
    X(SORT, "cycle the Processors sort key")                                       \
    X(SORT_REVERSE, "reverse the Processors sort order")                           \
    X(GROUP, "group processors by node or by network group")                       \
    X(NETWORK, "Network pane (link loads) in Communication's place, or back")     \
    X(FILTER, "filter processors by name, type or node (empty: all)")                  \
    X(STUDY_X, "Study pane: plot against the next numeric column")                \
    X(STUDY_Y, "Study pane: plot the next numeric column")                         \
    X(STUDY_BY, "Study pane: series by the next study input or text column, or none") \
    X(FOCUS_NEXT, "focus the next pane")                                           \
    X(FOCUS_PREV, "focus the previous pane")                                       \
    X(ZOOM, "the focused pane fills the screen, or not")                           \
    X(THEME, "next colour theme")                                                  \
    X(SAVE, "save the scenario (grid, machine, model, mapping) to a file")                                          \
    X(CONSOLE, "open the Tcl console (Tab completes, Up/Down history)")            \
    X(HELP, "show or hide this list (Up/Down, PgUp/PgDn scroll it)")                                              \
    X(REFRESH, "redraw the whole screen")                                          \
    X(QUIT, "quit; asks first if there are unsaved changes")

typedef enum {
#define X(id, help) SM_ACT_##id,
    SM_ACTIONS(X)
#undef X
    SM_ACT_COUNT
} sm_action;

/* K(key name, action). Key names are what `key bind` takes: a character,
 * C-x for control keys, or Left Right Up Down PgUp PgDn Home End Enter
 * Esc Tab BTab Space F1-F12. */
#define SM_KEYMAP(K)                                            \
    K("Left", CURSOR_LEFT) K("h", CURSOR_LEFT)                  \
    K("Right", CURSOR_RIGHT) K("l", CURSOR_RIGHT)               \
    K("Up", CURSOR_UP) K("k", CURSOR_UP)                        \
    K("Down", CURSOR_DOWN) K("j", CURSOR_DOWN)                  \
    K("PgUp", PLANE_PREV) K("<", PLANE_PREV)                    \
    K("PgDn", PLANE_NEXT) K(">", PLANE_NEXT)                    \
    K("Home", ROW_FIRST) K("End", ROW_LAST)                     \
    K("Enter", ACTIVATE)                                        \
    K("x", SELECT)                                              \
    K("g", SELECT_PROC)                                         \
    K("Esc", SELECT_CLEAR)                                      \
    K("f", NODE)                                                \
    K("m", MOVE)                                                \
    K("s", SWAP)                                                \
    K("u", UNDO)                                                \
    K("C-r", REDO)                                              \
    K("S", START)                                               \
    K("n", STEP)                                                \
    K("N", STEPN)                                               \
    K("[", BACK) K("]", FORWARD)                                \
    K("{", BACK10) K("}", FORWARD10)                            \
    K("e", EXPLAIN)                                             \
    K("B", BREAK)                                               \
    K("Space", RUN)                                             \
    K("R", RUN_BACK)                                            \
    K("C-c", PAUSE)                                             \
    K("a", APPLY)                                               \
    K("X", STOP)                                                \
    K("v", SOURCE)                                              \
    K("V", COMPARE)                                             \
    K("o", SORT) K("O", SORT_REVERSE)                                                \
    K("G", GROUP)                                               \
    K("L", NETWORK)                                             \
    K("/", FILTER)                                              \
    K("c", STUDY_X)                                             \
    K("y", STUDY_Y)                                             \
    K("b", STUDY_BY)                                            \
    K("Tab", FOCUS_NEXT)                                        \
    K("BTab", FOCUS_PREV)                                       \
    K("z", ZOOM)                                                \
    K("t", THEME)                                               \
    K("w", SAVE)                                                \
    K(":", CONSOLE)                                             \
    K("?", HELP) K("F1", HELP)                                  \
    K("C-l", REFRESH)                                           \
    K("q", QUIT)

extern const char *const sm_action_names[SM_ACT_COUNT];
extern const char *const sm_action_help[SM_ACT_COUNT];

typedef struct sm_keydef {
    const char *key;
    sm_action action;
} sm_keydef;
extern const sm_keydef sm_keymap[];
extern const int sm_nkeymap;

/* The action bound to a key name, or -1. */
int sm_key_action(const char *key);
/* "h, Left" for an action, into buf. */
const char *sm_action_keys(sm_action a, char *buf, int n);
/* Is KEY a name the key table understands? */
int sm_key_name_valid(const char *key);

#endif
