/* compared_pair_rows.h - the Communication pane's rows in compare mode:
 * every processor pair either mapping uses, its messages in the shown
 * mapping (a) and in the other (b), largest change first.
 *
 * Kept by the pairs whose multiplicity changed on either side since the
 * last update (a step moves a few blocks: a few pairs), not merged and
 * sorted whole per frame: a whole machine has 10^5 - 10^6 pairs. A
 * listing from scratch (compare mode turned on, another cost state) of
 * that many pairs runs on a worker thread from copies of both sides'
 * pair tables, the rows pending meanwhile, then brought up to date by the
 * pairs changed since the copies. No curses and no Tcl. */
#ifndef SM_COMPARED_PAIR_ROWS_H
#define SM_COMPARED_PAIR_ROWS_H

#include "core/lib/pairmap.h"
#include "core/model/cost_incremental.h"
#include "core/model/topology.h"

typedef struct sm_cmp_row {
    int p, q;                  /* p < q */
    int64_t a, b;              /* messages in the shown mapping, in the other */
    int inter;                 /* different nodes */
    int id;                    /* the pair's index in the rows' pair map */
} sm_cmp_row;

/* From this many pair slots (both sides) a listing from scratch runs in
 * the background (the workbench; a batch screen dump lists at once). */
#define SM_CMP_ROWS_BACKGROUND_SLOTS 50000

typedef struct sm_cmp_rows {
    sm_cmp_row *rows;          /* NULL: none (off, or pending) */
    int n;
    int nother;                /* pairs the other mapping uses */
    int width;                 /* the longest "p-q" name, at least 13 */
    /* Private. Each side: the cost state read and its slots'
     * multiplicities as read. */
    struct sm_cmp_side {
        const sm_cost *cost;
        unsigned long long serial;
        int64_t *seen;
        int nseen;
    } side[2];
    sm_pairmap ids;            /* pair -> id */
    int64_t *id_a, *id_b;
    unsigned char *id_changed;
    int id_cap;
    int by_len[1024];          /* rows by name length */
    int *proc_len, *proc_node, nprocs;  /* per processor: name length, node */
    const sm_topo *topo;
    unsigned long long structure;
    struct sm_cmp_listing *listing;     /* a listing in flight, or NULL */
} sm_cmp_rows;

/* Up to date with cost states a (the mapping shown) and b (the other) on
 * machine t (structure: the session's, names and nodes change with it).
 * background: 1, a listing from scratch of SM_CMP_ROWS_BACKGROUND_SLOTS
 * or more goes to a worker; 2, any does (tests); 0, none. Returns 1
 * when rows are the pairs now, 0 while a listing is pending (call again:
 * sm_cmp_rows_busy says when it is worth it). */
int sm_cmp_rows_update(sm_cmp_rows *r, const sm_topo *t, unsigned long long structure, const sm_cost *a,
                       const sm_cost *b, int background);
/* A listing in flight has finished (the next update takes it). */
int sm_cmp_rows_ready(const sm_cmp_rows *r);
int sm_cmp_rows_busy(const sm_cmp_rows *r);
/* Compare mode off: the rows go (a listing in flight is dropped when it
 * ends). */
void sm_cmp_rows_clear(sm_cmp_rows *r);
/* Everything freed (a listing in flight waited for). */
void sm_cmp_rows_free(sm_cmp_rows *r);

#endif
