/* units.c - the number rule (units.h). */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A plain count: "15", not "15 ". */
static const char *sm_trim_unit(char *buf)
{
    size_t l = strlen(buf);
    if (l && buf[l - 1] == ' ') buf[l - 1] = '\0';
    return buf;
}

/* Beyond the prefixes (1000 G and up, below 1 p): plain scientific
 * notation with the base unit, "1e+30 J", "2.5e-15 s", never a prefix on
 * an exponent. */
static const char *scientific(double v, const char *unit, int digits, char *buf, size_t n)
{
    char m[64];
    snprintf(m, sizeof m, "%.*e", digits - 1, v);
    /* The mantissa's trailing zeros go, as %g drops them: 1.500e+30 -> 1.5e+30. */
    char *e = strchr(m, 'e'), *z = e;
    if (e) {
        while (z > m && z[-1] == '0') z--;
        if (z > m && z[-1] == '.') z--;
        memmove(z, e, strlen(e) + 1);
    }
    snprintf(buf, n, "%s %s", m, unit);
    return buf;
}

const char *sm_format_si(double v, const char *unit, int digits, char *buf, size_t n)
{
    static const struct { double scale; const char *prefix; } pre[] = {
        {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"},
    };
    double a = fabs(v);
    if (a == 0 || !isfinite(v)) snprintf(buf, n, "%g %s", v, unit);
    else if (a < 1e-12 || a >= 1e12) scientific(v, unit, digits, buf, n);
    else {
        size_t i = 0;
        while (i + 1 < sizeof pre / sizeof pre[0] && a < pre[i].scale) i++;
        /* 999.96 mJ rounds to "1000 mJ": take the next prefix up; past G,
         * scientific. */
        char m[48];
        snprintf(m, sizeof m, "%.*g", digits, v / pre[i].scale);
        if (fabs(atof(m)) >= 1000) {
            if (i == 0) return sm_trim_unit((char *)scientific(v, unit, digits, buf, n));
            i--;
        }
        snprintf(buf, n, "%.*g %s%s", digits, v / pre[i].scale, pre[i].prefix, unit);
    }
    return sm_trim_unit(buf);
}

const char *sm_format_value(double v, const char *unit, int digits, char *buf, size_t n)
{
    /* Seconds stay seconds up to the prefix range's end, then scientific
     * as every unit: "1234 s", "1e+13 s". */
    if (strcmp(unit, "s") == 0 && fabs(v) >= 1000 && fabs(v) < 1e12 && isfinite(v)) {
        snprintf(buf, n, "%.0f s", v);
        return buf;
    }
    return sm_format_si(v, unit, digits, buf, n);
}

static const char *const known_units[] = {"J", "s", "W", "B", "Hz", "", NULL};

int sm_unit_known(const char *unit)
{
    for (int i = 0; known_units[i]; i++)
        if (strcmp(unit, known_units[i]) == 0) return 1;
    return 0;
}

const char *sm_units_known(void)
{
    return "J, s, W, B, Hz, or \"\" for a plain count";
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

int sm_is_count(const char *name)
{
    /* The solvers' statistics that count things (their keys). */
    static const char *const counts[] = {
        "bound_cuts", "checks", "children", "coarse_blocks", "constraints", "count_vectors", "crossovers",
        "examined", "exchanges", "front", "front_index", "generation", "jumps", "level", "levels", "limit",
        "limit_increment", "memo_hits", "moves", "mutations", "nodes", "pass", "passes", "placed",
        "points_swept", "pruned", "rounds", "samples", "simplex_iterations", "stalls", "state_assignments",
        "states", "steps", "subproblems", "tabu_size", "tried", "variables", NULL};
    for (int i = 0; counts[i]; i++)
        if (strcmp(name, counts[i]) == 0) return 1;
    return 0;
}
