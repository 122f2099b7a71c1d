/* text_fit_to_width.c - a solver's move text and processor names in the
 * columns a pane has: names elided in their middle, then the words the
 * numbers say anyway, so that a move keeps its block and its target at
 * any width. Text only (no curses): tests/unit/tui/pane tests it. */
#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "tui/pane/text_fit_to_width.h"

/* Every from in s (room for the text as it is: to is never longer). */
static void replace_all(char *s, const char *from, const char *to)
{
    size_t fl = strlen(from), tl = strlen(to);
    for (char *p = strstr(s, from); p; p = strstr(p + tl, from)) {
        memmove(p + tl, p + fl, strlen(p + fl) + 1);
        memcpy(p, to, tl);
    }
}

/* The length of a leading multilevel level "L2 " (0 when none). */
static int level_prefix_len(const char *s)
{
    if (s[0] != 'L' || !isdigit((unsigned char)s[1])) return 0;
    int i = 1;
    while (isdigit((unsigned char)s[i])) i++;
    return s[i] == ' ' ? i + 1 : 0;
}

const char *sm_ui_elide(const char *s, int width, char *out, size_t n)
{
    size_t len = strlen(s);
    if (width < 1 || n < 2) {
        if (n) out[0] = '\0';
        return out;
    }
    size_t wd = (size_t)width < n - 1 ? (size_t)width : n - 1;
    if (len <= wd) {
        memcpy(out, s, len + 1);
        return out;
    }
    size_t head = (wd - 1) / 2, tail = wd - 1 - head;
    memcpy(out, s, head);
    out[head] = '~';
    memcpy(out + head + 1, s + len - tail, tail);
    out[wd] = '\0';
    return out;
}

/* A processor name has letters and an index ("n28.v100_4", "cpu0"); a
 * word of a solver's text ("generation", "threshold", "move") has none. */
static int is_processor_name(const char *p, int n)
{
    int letter = 0, digit = 0;
    for (int k = 0; k < n; k++) {
        letter |= isalpha((unsigned char)p[k]) != 0;
        digit |= isdigit((unsigned char)p[k]) != 0;
    }
    return letter && digit;
}

const char *sm_ui_fit_names(const char *text, int width, char *out, size_t n)
{
    snprintf(out, n, "%s", text);
    int len = (int)strlen(out);
    /* First the words the numbers say anyway: "move 269 n24.v100_1 ->
     * n24.v100_2" for "move block 269 ...". */
    for (int i = 0; len > width && out[i];) {
        int blocks = strncmp(out + i, "blocks ", 7) == 0, block = strncmp(out + i, "block ", 6) == 0;
        if ((blocks || block) && (i == 0 || out[i - 1] == ' ') && out[i + (blocks ? 7 : 6)] >= '0' &&
            out[i + (blocks ? 7 : 6)] <= '9') {
            int w = blocks ? 7 : 6;
            memmove(out + i, out + i + w, (size_t)(len - i - w) + 1);
            len -= w;
            continue;
        }
        i++;
    }
    /* Then the swap's words: "swap 333 n20.v100_1 <> 349 n20.v100_2". */
    if (len > width) {
        char *p = strstr(out, " with ");
        if (p) {
            memcpy(p, " <> ", 4);
            memmove(p + 4, p + 6, strlen(p + 6) + 1);
        }
        int k = 0;
        for (int i = 0; out[i]; i++)
            if (out[i] != '(' && out[i] != ')') out[k++] = out[i];
        out[k] = '\0';
        len = (int)strlen(out);
    }
    while (len > width) {
        /* The longest name: its letters-and-digits core, without the
         * brackets and commas around it. */
        int best = -1, bl = 0;
        for (int i = 0; out[i];) {
            while (out[i] == ' ') i++;
            int j = i;
            while (out[j] && out[j] != ' ') j++;
            int a = i, b = j;
            while (a < b && strchr("([{", out[a])) a++;
            while (b > a && strchr(")]},;:", out[b - 1])) b--;
            if (is_processor_name(out + a, b - a) && b - a > 6 && b - a > bl &&
                !memchr(out + a, '~', (size_t)(b - a))) {
                best = a;
                bl = b - a;
            }
            i = j;
        }
        if (best < 0) break;
        /* Down to what the line needs, never below 6 columns. */
        int keep = bl - (len - width);
        if (keep < 6) keep = 6;
        char name[256], el[256];
        if (bl >= (int)sizeof name) break;
        memcpy(name, out + best, (size_t)bl);
        name[bl] = '\0';
        sm_ui_elide(name, keep, el, sizeof el);
        int el_len = (int)strlen(el);
        memmove(out + best + el_len, out + best + bl, (size_t)(len - best - bl) + 1);
        memcpy(out + best, el, (size_t)el_len);
        len = (int)strlen(out);
    }
    /* Still too long (a 19-column pane): a multilevel step's "level 2
     * (262144 blocks): " says its level only, then "L2 ". */
    if (len > width && strncmp(out, "level ", 6) == 0) {
        char *colon = strstr(out, ": ");
        int lv = atoi(out + 6);
        if (colon) {
            char head[32];
            int hl = snprintf(head, sizeof head, "level %d: ", lv);
            if ((int)(colon + 2 - out) > hl) {
                memmove(out + hl, colon + 2, strlen(colon + 2) + 1);
                memcpy(out, head, (size_t)hl);
            }
            len = (int)strlen(out);
            if (len > width) {
                hl = snprintf(head, sizeof head, "L%d ", lv);
                char *rest = strstr(out, ": ");
                if (rest) {
                    memmove(out + hl, rest + 2, strlen(rest + 2) + 1);
                    memcpy(out, head, (size_t)hl);
                }
                len = (int)strlen(out);
            }
        }
    }
    /* Then the names a move comes from: the block and where it goes say
     * the move ("move 380 -> n28~0_4"; a swap, "swap 267 <> 283"). */
    if (len > width && (strstr(out, "move ") || strstr(out, "swap "))) {
        const char *arrow = strstr(out, " -> ");
        int to = arrow ? (int)(arrow - out) + 4 : len;
        char kept[512];
        int k = 0;
        for (int i = 0; out[i] && k < (int)sizeof kept - 1;) {
            int j = i;
            while (out[j] && out[j] != ' ') j++;
            /* "L2", a multilevel step's level, leads the line. */
            int drop = i < to && !(i == 0 && out[0] == 'L') && is_processor_name(out + i, j - i);
            if (!drop) {
                if (k && kept[k - 1] != ' ') kept[k++] = ' ';
                for (int q = i; q < j && k < (int)sizeof kept - 1; q++) kept[k++] = out[q];
            } else if (k && out[j - 1] == ',' && k < (int)sizeof kept - 1) {
                /* "edge move 968 n22~0_2, 840 ..." keeps its comma. */
                while (k && kept[k - 1] == ' ') k--;
                kept[k++] = ',';
            }
            while (out[j] == ' ') j++;
            i = j;
        }
        kept[k] = '\0';
        snprintf(out, n, "%s", kept);
        len = (int)strlen(out);
    }
    /* Narrower still (25 columns at 80x24, a 6-digit block pair: "L2 edge
     * move 212670, 212671 -> n0~0_4" lost its target): the separators
     * tight, then the kind's words (the comma pair says an edge move, the
     * arrow a move, <> a swap), then the level; last, the blocks' end
     * gives way to the target. */
    if (len > width) {
        replace_all(out, "edge move ", "edge ");
        replace_all(out, ", ", ",");
        replace_all(out, " -> ", "->");
        replace_all(out, " <> ", "<>");
        len = (int)strlen(out);
    }
    if (len > width) {
        char *kind = out + level_prefix_len(out);
        static const char *const kinds[] = {"edge ", "move ", "swap "};
        for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
            if (strncmp(kind, kinds[i], strlen(kinds[i])) == 0) {
                memmove(kind, kind + strlen(kinds[i]), strlen(kind + strlen(kinds[i])) + 1);
                break;
            }
        len = (int)strlen(out);
    }
    if (len > width && level_prefix_len(out)) {
        int l = level_prefix_len(out);
        memmove(out, out + l, strlen(out + l) + 1);
        len = (int)strlen(out);
    }
    char *arrow = strstr(out, "->");
    if (len > width && arrow && (int)strlen(arrow) + 2 <= width) {
        /* "2126~->n0~0_4": the blocks' head, "~" where they were cut. */
        int head = width - (int)strlen(arrow) - 1;
        out[head] = '~';
        memmove(out + head + 1, arrow, strlen(arrow) + 1);
    }
    return out;
}
