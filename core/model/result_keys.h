/* result_keys.h - the result keys of `model eval` and `model procs`, defined
 * once (X-macros) so the Tcl dicts, JSON and CSV reports agree. The order
 * of the eval keys is the contract of SPEC 3. */
#ifndef SM_RESULT_KEYS_H
#define SM_RESULT_KEYS_H

#include "cost_incremental.h"

/* X(key, kind, expression over const sm_eval *ev); kind D double, I int. */
#define SM_EVAL_FIELDS(X)                               \
    X(time, D, ev->time)                                \
    X(comp_time, D, ev->comp_time)                      \
    X(comm_time, D, ev->comm_time)                      \
    X(energy, D, ev->energy)                            \
    X(energy_dynamic, D, ev->energy_dynamic)            \
    X(energy_static, D, ev->energy_static)              \
    X(energy_idle, D, ev->energy_idle)                  \
    X(energy_comm, D, ev->energy_comm)                  \
    X(energy_comm_intra, D, ev->energy_comm_intra)      \
    X(energy_comm_inter, D, ev->energy_comm_inter)      \
    X(messages, I, ev->messages)                        \
    X(edges, I, ev->edges)                              \
    X(edges_intra, I, ev->edges_intra)                  \
    X(edges_inter, I, ev->edges_inter)                  \
    X(rounds, I, ev->rounds)                            \
    X(message_rounds, I, ev->message_rounds)            \
    X(procs_used, I, ev->procs_used)                    \
    X(feasible, I, ev->feasible)                        \
    X(rounds_lower, I, ev->rounds_lower)                \
    X(message_rounds_lower, I, ev->message_rounds_lower) \
    X(memory_ok, I, ev->memory_ok)

/* Numeric per-processor keys after name, type and node. */
#define SM_PROC_FIELDS(X)                         \
    X(time_per_cell, D, c->tpc[p])                \
    X(blocks, I, pe->blocks)                      \
    X(cells, I, pe->cells)                        \
    X(comp_time, D, pe->comp_time)                \
    X(idle_time, D, pe->idle_time)                \
    X(energy, D, pe->energy)                      \
    X(energy_dynamic, D, pe->energy_dynamic)      \
    X(energy_static, D, pe->energy_static)        \
    X(energy_idle, D, pe->energy_idle)            \
    X(energy_comm, D, pe->energy_comm)

#endif
