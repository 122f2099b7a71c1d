/* processor_profile_csv_file.h - a processor type's measured profile read
 * from its CSV file (processor_profile_csv_file.c): SPEC 6's profile format,
 * as topo measure -o writes it. */
#ifndef SM_PROCESSOR_PROFILE_CSV_FILE_H
#define SM_PROCESSOR_PROFILE_CSV_FILE_H

#include "core/model/processor_time_energy.h"

/* Read measurements from a CSV file: one row per size with columns
 * blocks,time,energy (a header naming them, in any order, is optional;
 * blank lines and lines starting with # are skipped). Rows may come in any
 * order; they are sorted by size, and a size given twice is an error.
 * Errors name the file, the line and the column. */
int sm_profile_read_csv(const char *file, sm_profile_pt **out, int *n, sm_err *e);
/* The same from text already read; file names it in errors. */
int sm_profile_parse_csv(const char *text, size_t len, const char *file, sm_profile_pt **out,
                         int *n, sm_err *e);
/* The same, also taking a profile measured without an energy counter:
 * the energy column empty on every row (topo measure -o writes it so);
 * then *no_energy is 1 and every energy 0. */
int sm_profile_parse_csv_opt(const char *text, size_t len, const char *file, sm_profile_pt **out,
                             int *n, int *no_energy, sm_err *e);
#endif
