/* grid_memory.h - what a grid will take before it is built: a grid too
 * large for the machine is refused with the figures, not killed by the
 * kernel halfway through building it. */
#ifndef SM_GRID_MEMORY_H
#define SM_GRID_MEMORY_H

#include <stdint.h>
#include "grid.h"

/* Task edges of the grid a spec describes, at most (duplicates on
 * two-block periodic axes counted twice), without building it. */
int64_t sm_grid_edges_bound(const sm_grid_spec *s);
/* Bytes the task graph, the cost state over it and the session's
 * per-block arrays (mapping copies, undo log) take: an upper estimate
 * (no processor- or pair-sized part, which is small beside it). */
int64_t sm_grid_memory_estimate(const sm_grid_spec *s);
/* Bytes a new grid may take: STENCILMAP_MEMORY when set (bytes, or with
 * a K, M, G or T suffix: powers of 1024), else MemAvailable from
 * /proc/meminfo; -1 when neither says (then nothing is checked). *from
 * names the source. An unreadable STENCILMAP_MEMORY is an error (-2, e). */
int64_t sm_memory_available(const char **from, sm_err *e);
/* What ulimit -v / -d leave this process (the limit less what it maps
 * now), -1 when unlimited. */
int64_t sm_memory_rlimit_room(void);
/* A cap on what a new grid may take (bytes; -1: none), and what it is,
 * for the message: a safe script's -limit-memory less what it has grown
 * by, set while its commands run. A grid refused by it fails with code
 * SAFE LIMIT. */
void sm_memory_set_cap(int64_t bytes, const char *what);
/* What is left for new memory: the least of sm_memory_available, the
 * rlimit room and the cap (-1: nothing says; -2: an unreadable
 * STENCILMAP_MEMORY, in e). *from names it; *capped is 1 when it is the
 * cap (a refusal is then SAFE LIMIT, not MEMORY). */
int64_t sm_memory_room(const char **from, int *capped, sm_err *e);
/* "12.3 GB": bytes in powers of 1024 as free(1) shows them, in buf. */
const char *sm_memory_human(int64_t bytes, char *buf, size_t n);
/* 0 when the grid fits in what is available (the less of the above,
 * the process's RLIMIT_AS/RLIMIT_DATA room and the cap), else -1 with a message
 * giving the blocks, the estimate and what is available (code MEMORY). */
int sm_grid_memory_check(const sm_grid_spec *s, sm_err *e);

#endif
