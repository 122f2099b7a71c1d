/* fuzz_theme.c - the theme loader (tui/app/colour_theme.c, which has no curses) on
 * arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>
#include "tui/app/colour_theme.h"

/* The built-in theme is not under test here. */
const char sm_default_theme[] = "{}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sm_theme t;
    sm_err e;
    (void)sm_theme_parse((const char *)data, size, "fuzz.json", &t, &e);
    short c;
    char s[64];
    size_t n = size < sizeof s - 1 ? size : sizeof s - 1;
    for (size_t i = 0; i < n; i++) s[i] = (char)data[i];
    s[n] = '\0';
    if (sm_color_parse(s, &c) == 0) (void)sm_color_nearest8(c);
    return 0;
}
