/* solver_stepper.h - the one stepper interface every solver sits behind (SPEC 4):
 * create with options, step one unit, query state, stop, take the best. */
#ifndef SM_SOLVER_STEPPER_H
#define SM_SOLVER_STEPPER_H

#include "core/model/cost_incremental.h"
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"
#include "core/lib/util.h"
#include "step_history_record_seek_back.h"
#include "block_counts_partition_types.h"
#include "core/lib/atomic_file_write.h"

typedef enum { SM_OPT_INT, SM_OPT_DOUBLE, SM_OPT_ENUM, SM_OPT_STRING } sm_opt_kind;

/* An option a solver accepts, declared once: parsing, defaults and the
 * help text all come from this table. */
typedef struct sm_opt_spec {
    const char *name;      /* without the dash */
    sm_opt_kind kind;
    const char *def;       /* default, as text; NULL = unset */
    const char *choices;   /* enum: "ijk|jik|kij|random" */
    double lo, hi;         /* numeric range */
    const char *help;
} sm_opt_spec;

#define SM_MAX_OPTS 24

typedef struct sm_opt_value {
    int set;
    long long i;
    double d;
    char s[256];
} sm_opt_value;

typedef struct sm_solver sm_solver;


typedef struct sm_solver_ops {
    const char *name;
    const char *summary;
    const sm_opt_spec *opts; /* terminated by {NULL} */
    int (*init)(sm_solver *s, sm_err *e);
    /* One unit of work; sets s->done when finished. */
    void (*step)(sm_solver *s);
    void (*release)(sm_solver *s);
    /* Optional: a branch (solver_branch.h) changed the options whose
     * indexes are set in changed (SM_OPT_BIT), SM_BRANCH_DEADLINE for the
     * model's deadline, after the steps replayed: take them from here on.
     * An option it cannot change then is an error naming it. NULL: a
     * branch can change no option. */
    int (*rebranch)(sm_solver *s, unsigned long long changed, sm_err *e);
} sm_solver_ops;

#define SM_OPT_BIT(i) (1ull << (i))
#define SM_BRANCH_DEADLINE (1ull << 63)

/* A named statistic shown in `solver state` (incumbent, bound, nodes…). */
typedef struct sm_stat {
    char key[32];
    double value;
} sm_stat;


struct sm_solver {
    const sm_solver_ops *ops;
    const sm_grid *grid;
    const sm_topo *topo;
    sm_model model;
    /* What it was made with, before init chose anything (a deadline of
     * its own): a branch replays from these (solver_branch.h). */
    sm_model model0;
    sm_opt_value opt0[SM_MAX_OPTS];
    /* The branch points a branch replays through (solver_branch.h): none
     * for a run started by `solver start`. */
    struct sm_branch_point *branch;
    int nbranch, nbranch_done;  /* kept, and applied so far */
    const int *start_map;       /* a copy of the session's mapping when created */
    int *start_copy;            /* owns start_map */
    int detached;               /* the grid or machine it ran on is gone */
    char reason[128];           /* why it was stopped, when not by the user */
    sm_opt_value opt[SM_MAX_OPTS];

    long long iteration;
    int done;
    int stopped;                /* interrupted by the user */
    char status[64];            /* running, done, optimal, timeout, … */
    char last_move[160];

    int has_current;
    sm_eval current;
    const int *current_map;     /* local searches: the mapping now, or NULL */
    int has_best;
    sm_eval best;
    int *best_map;
    /* A solver that chooses DVFS states (tabu -dvfs, ilp -dvfs): the state
     * of each processor with the best mapping, an index into its type's
     * states (-1: its type's own), applied with the mapping; else NULL. */
    int *best_states;
    /* And the states of the current mapping (tabu -dvfs), or NULL. */
    const int *current_states;

    int nstats;
    sm_stat stats[16];
    /* Goes up whenever a statistic changes (sm_solver_set_stat, seek):
     * the screen redraws the figures of a long step (the ILP's nodes,
     * bound, elapsed) while it runs, not only when the step ends. */
    unsigned long long stats_version;
    /* CLOCK_MONOTONIC seconds when the step now running began, 0 between
     * steps (sm_solver_seconds_now). */
    double step_began;
    /* Where model.deadline came from when the solver chose it itself (the
     * scenario had none): "fastest lb", ...; NULL when it is the model's. */
    const char *deadline_from;
    double seconds;             /* time spent in step() */
    const sm_partition *partition; /* popta: counts and front, or NULL (the step's shown) */
    /* Optional, set by init: bring stats and last_move up to date once
     * per batch of steps rather than in every step. */
    void (*sync)(sm_solver *s);
    /* Optional, set by init: a solver whose current figures may come
     * after its step returned (current_pending: evaluated on another
     * thread while it takes the next step) hands them over with
     * sm_solver_current_ready, and in settle, which sm_solver_step calls
     * before it returns, the last ones: whoever reads the solver or its
     * history after a step sees every step's own figures. */
    void (*settle)(sm_solver *s);
    int current_pending;
    /* The threads the solver's steps run on (core/lib/threads.h), set by
     * the solver (NULL: its caller's only), for work beside its steps: a
     * multilevel search follows its shown mapping there. */
    struct sm_pool *pool;
    void *priv;
    /* Where a file an option names (ilp -export) is written, opened by
     * the caller when the solver was made (so the path guard's decision
     * then holds for a start that goes on in the background), or NULL:
     * the solver opens it itself. */
    sm_save_target *export_to;

    /* The step being taken, explained (see sm_explain), and every step
     * taken so far when the history is on (step_history_record_seek_back.h). */
    sm_explain explain;
    /* Set by whoever steps a solver in batches and reads its last_move and
     * explanation only after each batch (the multilevel search's coarse
     * tabu, 16 iterations a step): a solver may then leave them out of
     * every step but a batch's last (explain_skip, set by sm_solver_step
     * for each step; a solver that can end a step early explains that
     * one). The steps themselves are the same. */
    int explain_last_only, explain_skip;
    struct sm_history *hist;
    int current_auto;           /* current evaluated by the stepper, not the solver */
    /* The cost state the stepper evaluates such a current with, kept in
     * step with the recorded current mapping move by move (a new one per
     * step cost O(blocks + edges) and an allocation: bokhari at 4096
     * blocks spent 95 % of its time there). */
    sm_cost *auto_cost;
    sm_eval auto_last;          /* current as the last record left it */
    int *auto_blocks, auto_blocks_cap;
    /* What a step changed, so the history need not compare whole
     * mappings: best_version goes up whenever best_map is written
     * (sm_solver_offer and set_best do it; a solver writing best_map
     * itself must too). A solver that sets moves_known lists, with
     * sm_solver_moved, every block its step moved in current_map. */
    unsigned long long best_version, hist_best_version;
    const int *own_map;         /* the solver's current_map at the last step it took */
    const sm_partition *own_partition; /* the solver's partition, likewise */
    const int *own_states;      /* the solver's current_states, likewise */
    struct sm_part_history *part_hist; /* the partition after every step */
    int moves_known, nmoved, moved_cap;
    int *moved;
    /* The last best_map write when it was a patch (sm_solver_offer_patch):
     * its version and the blocks it wrote. */
    unsigned long long best_patch_version;
    int *best_patched, nbest_patched, best_patched_cap;

    /* Set by the caller: long steps (the ILP) poll the interrupt flag and
     * call progress a few times a second. */
    volatile int *interrupt;
    void (*progress)(sm_solver *s, void *ctx);
    void *progress_ctx;
};


/* argv: alternating "-name" "value". Errors name the option. */
sm_solver *sm_solver_new(const sm_solver_ops *ops, const sm_grid *g,
                         const sm_topo *t, const sm_model *m,
                         const int *start_map, int argc, const char *const *argv,
                         sm_err *e);
/* sm_solver_new in its two halves, for a caller that runs the solver's
 * own start (tabu's start heuristics, the multilevel coarsening: seconds
 * at a million blocks) on another thread. _prepare parses the options and
 * copies the start mapping (errors name the option); _init runs the
 * solver's init, which reads only s and the grid and machine. A failed
 * _init releases the solver's state; sm_solver_free still frees s. */
sm_solver *sm_solver_prepare(const sm_solver_ops *ops, const sm_grid *g,
                             const sm_topo *t, const sm_model *m,
                             const int *start_map, int argc, const char *const *argv,
                             sm_err *e);
int sm_solver_init(sm_solver *s, sm_err *e);
/* Steps up to n units; returns units done. */
long long sm_solver_step(sm_solver *s, long long n);
void sm_solver_stop(sm_solver *s);
/* The session's grid, machine or model is about to change under a started
 * solver: stop it for good and release everything that points into the
 * session, keeping only what its state reports (status, statistics, the
 * objective values). reason says why ("topo state changed the machine"). */
void sm_solver_detach(sm_solver *s, const char *reason);
void sm_solver_free(sm_solver *s);

/* Record every step from now on (step_history_record_seek_back.h): back, seek, explain. */
void sm_solver_history_on(sm_solver *s);
/* Show exactly the state after step k (within the history): iteration,
 * current and best mappings and evaluations, statistics, last move, done
 * and status. Stepping on from there repeats the recorded steps. */
void sm_solver_seek(sm_solver *s, long long k);
/* The solver's objective (lower is better unless it maximises) for its
 * current and best mappings: the value it reports (objective_value,
 * best_value) when it optimises something other than energy, else the
 * energy. NAN when unknown. */
double sm_solver_objective_now(const sm_solver *s);
double sm_solver_objective_best(const sm_solver *s);
/* During step(): say why, list the step's best candidates (best first,
 * the first SM_EXPLAIN_CANDS kept) and the running tabu attributes. */
void sm_solver_why(sm_solver *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sm_solver_candidate(sm_solver *s, const char *move, double objective, double delta, int tabu);
/* A candidate that exchanges blocks a (on processor pa) and b (on pb):
 * kept as numbers, read as "exchange blocks A (PA) and B (PB)"
 * (sm_history_cand), so a step that names its partners writes no text. */
void sm_solver_candidate_exchange(sm_solver *s, int a, int pa, int b, int pb, double objective, double delta,
                                  int tabu);
void sm_solver_tabu_attr(sm_solver *s, int block, int proc, int join, long long remaining);
void sm_solver_moved(sm_solver *s, int block);
void sm_solver_trace(sm_solver *s, const char *a_name, const char *b_name, double seconds, double a, double b);

/* The index of option name (no dash) in ops' table, or -1. */
int sm_solver_opt_index(const sm_solver_ops *ops, const char *name);
/* Parse value into option name of s (errors name the option); its
 * index in *idx. */
int sm_solver_set_opt(sm_solver *s, const char *name, const char *value, int *idx, sm_err *e);
/* The head step of the history recorded again as the solver is now (its
 * figures, statistics and status; the mappings did not change). */
void sm_solver_amend_head(sm_solver *s);

/* Option access by name (declared in the ops table). */
const sm_opt_value *sm_solver_opt(const sm_solver *s, const char *name);
long long sm_opt_int(const sm_solver *s, const char *name);
double sm_opt_double(const sm_solver *s, const char *name);
const char *sm_opt_str(const sm_solver *s, const char *name);
/* Threads the solver may use: its -threads option when it has one and
 * it is set above 0, else core/lib/threads.h's default (the cores the
 * process may run on, or STENCILMAP_THREADS). */
int sm_solver_threads(const sm_solver *s);

/* Offer a complete mapping: evaluates it and keeps it if it is the best.
 * Returns 1 when it became the best. */
int sm_solver_offer(sm_solver *s, const int *map, const sm_eval *ev);
/* The same for a map that differs from the best mapping only at
 * blocks[0..n) (the caller vouches for it): only those are copied, and
 * the history records only those. Needs a best already. */
int sm_solver_offer_patch(sm_solver *s, const int *map, const sm_eval *ev, const int *blocks, int n);
void sm_solver_set_stat(sm_solver *s, const char *key, double v);
/* Seconds spent in step(), the step running now included (seconds only
 * grows when a step returns: a 300 s ILP step read 0.0 s throughout). */
double sm_solver_seconds_now(const sm_solver *s);
/* Step k's current figures, which the solver left pending (current_pending
 * at its step): into the history's step k (its current, objective and
 * the statistic current_energy, as recording them would have) and, at
 * the last step taken, into s->current and current_energy. */
void sm_solver_current_ready(sm_solver *s, long long k, const sm_eval *ev);
/* Make map the best whatever its energy (solvers with another objective). */
void sm_solver_set_best(sm_solver *s, const int *map);
/* A constructive solver's last step: evaluate its complete mapping, make
 * it current and best, and finish. */
void sm_solver_finish_with(sm_solver *s, const int *map);
/* Run another solver to the end on s's grid, machine and start mapping,
 * under model m (NULL: s's model); NULL when it refuses the options.
 * Caller frees. Used for warm starts. */
sm_solver *sm_solver_run_sub(const sm_solver *s, const sm_solver_ops *ops, const sm_model *m,
                             int argc, const char *const *argv);
/* Evaluate a complete mapping under the solver's model. */
void sm_solver_evaluate(const sm_solver *s, const int *map, sm_eval *ev);
/* The objective the solver improves, as users read it (SPEC 4: lower is
 * better, cardinality higher): its -objective name and its current and
 * best values (NAN when the solver has none yet). Energy and time come
 * from the evaluations; hops, hop_cells, congestion and cardinality from
 * the statistics objective_value and best_value every improving solver
 * publishes. Solvers without -objective (and popta's own objectives)
 * optimise energy. */
const char *sm_solver_objective(const sm_solver *s, double *cur, double *best);

extern const sm_solver_ops sm_solver_lb, sm_solver_dm, sm_solver_mm, sm_solver_na,
    sm_solver_proportional, sm_solver_rcb, sm_solver_ilp, sm_solver_tabu,
    sm_solver_popta, sm_solver_sfc, sm_solver_bokhari, sm_solver_random,
    sm_solver_minmd, sm_solver_ga;

#endif
