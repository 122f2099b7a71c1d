/* units.h - the one rule for numbers with a unit, wherever they are shown
 * (the panes, the status line, the study plots): an SI prefix that puts
 * the mantissa in [1, 1000), then a number of significant digits; and
 * which named figures carry which unit. */
#ifndef SM_UNITS_H
#define SM_UNITS_H

#include <stddef.h>

/* "277.7 mJ", "3.486 J", "4.454 kJ", "106 us"; "0 J"; a plain count with
 * unit "": "3.932 M", "15". Beyond the prefixes (from 1000 G, below 1 p)
 * plain scientific notation with the base unit: "1e+30 J", "1e-30 J". */
const char *sm_format_si(double v, const char *unit, int digits, char *buf, size_t n);
/* A figure with its unit as every view shows it: sm_format_si, but a
 * time of 1000 s and more stays in seconds ("1234 s", never "1.234 ks"). */
const char *sm_format_value(double v, const char *unit, int digits, char *buf, size_t n);
/* The unit of a named figure (an eval key, a solver statistic, a study
 * column): "J" for energies (energy, energy_static, best_energy,
 * incumbent, bound, profile_total), "s" for times (time, comp_time,
 * deadline, elapsed, seconds, round_time), else NULL. */
const char *sm_unit_of(const char *name);
/* The units figures are written in: J, s, W, B, Hz and "" (a count). */
int sm_unit_known(const char *unit);
/* Their list, for messages. */
const char *sm_units_known(void);
/* A named figure that counts (examined, tabu_size, placed, nodes...):
 * written as an integer, never 144.0. */
int sm_is_count(const char *name);

#endif
