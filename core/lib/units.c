/* units.c - the number rule (units.h). */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sm_format_si(double v, const char *unit, int digits, char *buf, size_t n)
{
    static const struct { double scale; const char *prefix; } pre[] = {
        {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"},
    };
    double a = fabs(v);
    if (a == 0 || !isfinite(v)) snprintf(buf, n, "%g %s", v, unit);
    else if (a < 1e-12) snprintf(buf, n, "%.*g %s", digits, v, unit); /* rounding noise more than a figure */
    else {
        size_t i = 0;
        while (i + 1 < sizeof pre / sizeof pre[0] && a < pre[i].scale) i++;
        /* 999.96 mJ rounds to "1000 mJ": take the next prefix up. */
        char m[48];
        snprintf(m, sizeof m, "%.*g", digits, v / pre[i].scale);
        if (i > 0 && fabs(atof(m)) >= 1000) i--;
        snprintf(buf, n, "%.*g %s%s", digits, v / pre[i].scale, pre[i].prefix, unit);
    }
    size_t l = strlen(buf);
    if (l && buf[l - 1] == ' ') buf[l - 1] = '\0'; /* a plain count: "15", not "15 " */
    return buf;
}

const char *sm_format_value(double v, const char *unit, int digits, char *buf, size_t n)
{
    if (strcmp(unit, "s") == 0 && fabs(v) >= 1000 && isfinite(v)) {
        snprintf(buf, n, "%.0f s", v);
        return buf;
    }
    return sm_format_si(v, unit, digits, buf, n);
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0 && (a == b || s[a - b - 1] == '_');
}

const char *sm_unit_of(const char *name)
{
    static const char *const joules[] = {"energy", "incumbent", "bound", "total", NULL};
    static const char *const seconds[] = {"time", "deadline", "elapsed", "seconds", "threshold", NULL};
    if (strncmp(name, "energy", 6) == 0) return "J"; /* energy_static, energy_comm_inter */
    for (int i = 0; joules[i]; i++)
        if (ends_with(name, joules[i])) return "J";
    for (int i = 0; seconds[i]; i++)
        if (ends_with(name, seconds[i])) return "s";
    return strcmp(name, "T") == 0 ? "s" : NULL;
}
