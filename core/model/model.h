/* model.h - the options of the cost model and the evaluation result
 * (SPEC 3). */
#ifndef SM_MODEL_H
#define SM_MODEL_H

#include <stdint.h>

typedef enum {
    SM_ROUNDS_MAXDEG,
    SM_ROUNDS_VIZING,
    SM_ROUNDS_COLOURING
} sm_rounds_model;

typedef struct sm_model {
    sm_rounds_model rounds;
    int overlap;        /* T = max(comp, comm) when 1, else the sum */
    double round_time;  /* theta, seconds */
    int has_deadline;
    double deadline;
    int unused_idle;    /* processors with no block count as idle */
} sm_model;

/* The ranges `model configure` and the loaders share, so that whatever is
 * saved loads again (SPEC 6). Seconds. */
#define SM_ROUND_TIME_MIN 1e-15
#define SM_ROUND_TIME_MAX 1e6
#define SM_DEADLINE_MIN 1e-15
#define SM_DEADLINE_MAX 1e12

void sm_model_default(sm_model *m);
const char *sm_rounds_name(sm_rounds_model r);
int sm_rounds_parse(const char *s, sm_rounds_model *out);

/* Quanta a message of duration delta occupies. */
int64_t sm_quanta(double delta, double round_time);

typedef struct sm_eval {
    double time, comp_time, comm_time;
    double energy, energy_dynamic, energy_static, energy_idle;
    double energy_comm, energy_comm_intra, energy_comm_inter;
    int64_t messages, edges, edges_intra, edges_inter;
    int64_t rounds, message_rounds;
    int64_t rounds_lower, message_rounds_lower; /* certified lower bounds */
    int procs_used;
    int feasible;
    int memory_ok;
} sm_eval;

/* Every time and energy of the eval is a finite number. A total that is
 * not (figures too large for a double) never counts as feasible. */
int sm_eval_finite(const sm_eval *ev);

/* The evaluation's feasibility under m's deadline (memory and finite
 * figures as before). Nothing else in an evaluation depends on the
 * deadline: a mapping evaluated under one model is judged under another
 * with the same rounds, overlap, round time and idle rule by this, with
 * no second evaluation (the cost model's finish does the same). */
void sm_eval_judge(sm_eval *ev, const sm_model *m);
/* A time meets the model's deadline (none: always), with the relative
 * tolerance every judge of it uses (rounding of the sums). */
int sm_model_meets_deadline(const sm_model *m, double time);

/* Objective order: feasible first, then energy, then time. <0 if a better. */
int sm_eval_compare(const sm_eval *a, const sm_eval *b);

#endif
