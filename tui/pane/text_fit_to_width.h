/* text_fit_to_width.h - a move's text and names in the columns a pane has
 * (no curses). */
#ifndef SM_TEXT_FIT_TO_WIDTH_H
#define SM_TEXT_FIT_TO_WIDTH_H
#include <stddef.h>

/* s in at most width columns: whole if it fits, else its head and tail
 * around "~" (names differ at the end as often as at the start). */
const char *sm_ui_elide(const char *s, int width, char *out, size_t n);
/* text (a move: "move block 60233 n1218.v100_4 -> n0007.v100_1") in at
 * most width columns: first without the word block(s) before a block
 * number, then eliding the middle of its longest names (words with a
 * letter, longer than 6), so that block, source and target all
 * stay: a cut at a word lost the target ("n1218.v100_4 ->"); narrower,
 * the separators tight, the kind's words and the level go, and last the
 * blocks' end ("2126~->n0~0_4"). Into out; what still does not fit (a
 * target wider than width) is the caller's to cut at a word. */
const char *sm_ui_fit_names(const char *text, int width, char *out, size_t n);

#endif
