/* bench_comm_exact.c - where communication dominates, the exact optimum
 * against tabu and `model bound` (issue 38 item 2: "find out on
 * instances small enough for the ILP"). Shrunken analogues of
 * bench_comm_nodes.tcl's rows (tests/bench/comm_exact_instances.h): a grid
 * of BXxBYxBZ blocks of S^3 cells on N nodes built like summit-like.json's
 * (its POWER9 and V100 types, intra-node links, tree network), a node of
 * 1 POWER9 + 3 V100 ("n4") or the full 2 + 6 ("n8"), the inter-node link
 * energy xF. Rows BXxBYxBZ/S-Nn4-xF:
 *   3x3x2/128-3n4 x1, x40, x300   the makespan set by compute (as 8n and
 *                                 16n-x15/x150), communication about 10,
 *                                 50 and 90 % of tabu's energy;
 *   3x3x2/128-2n8-x1, 4x2x2/128-2n8-x1
 *                                 full summit-like nodes (at x40 and x300
 *                                 one node takes every block: no inter);
 *   4x2x2/32-2n4-x1 ... 4x2x2/32-2n8-x1
 *                                 small blocks: the rounds set the makespan
 *                                 (as 16n-x1 and the 32-node rows);
 *   4x3x2/128-3n4-x40             24 blocks: past what the search proves
 *                                 in COMM_EXACT_LIMIT (the reachable size).
 * Per row, in one run:
 *   tabu      tabu with default options at its own deadline (the fastest
 *             start heuristic's makespan), as bench_comm_nodes runs it;
 *             nodes: the nodes its mapping keeps busy;
 *   bound     model bound at tabu's own makespan;
 *   opt       the least energy of any mapping meeting tabu's own makespan:
 *             tests/bench/exact_mapping_branch_and_bound.h, a branch and
 *             bound independent of the solvers' and the bound's code, its
 *             answer evaluated by the model's reference evaluator (status
 *             optimal), or the best it found when it did not end within
 *             COMM_EXACT_LIMIT seconds (default 120; status limit);
 *   gap_tabu  tabu/opt - 1: better mappings tabu misses;
 *   gap_bound opt/bound - 1: the bound's looseness (gap_tabu and gap_bound
 *             together make bench_comm_nodes' gap);
 *   gap_b_s7  the same for the bound without session 8's two terms
 *             (SM_BOUND_NO_SURFACE | SM_BOUND_NO_GROUP_SPLIT: the groups
 *             sharing the grid's surface, the exact split over alike
 *             groups of a small grid), i.e. the bound of session 7;
 *   search    branch-and-bound nodes; T_by: what sets tabu's makespan;
 *   opt_n, opt_rd  the nodes the optimum keeps busy and its rounds;
 *   Tb/To     the bound's makespan (where it prices idle power) over the
 *             optimum's: below 1 where the bound cannot see the rounds.
 * COMM_EXACT_ROWS (words) runs the rows whose names contain one.
 * `solve ilp` models the same energy under maxdeg (its rounds are the
 * largest degree in quanta) but does not end on these within minutes:
 * see stencilmap-model(7), LOWER BOUND, "What the exact optima show". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/bench/comm_exact_instances.h"


/* COMM_EXACT_ROWS: words, a row runs when its name contains one. */
static int row_picked(const char *only, const char *name)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", only);
    for (char *w = strtok(buf, " ,"); w; w = strtok(NULL, " ,"))
        if (strstr(name, w)) return 1;
    return 0;
}

int main(void)
{
    double limit = getenv("COMM_EXACT_LIMIT") ? atof(getenv("COMM_EXACT_LIMIT")) : 120;
    const char *only = getenv("COMM_EXACT_ROWS");
    char *types = ce_types_text();
    if (!types) {
        fprintf(stderr, "bench_comm_exact: cannot read samples/topologies/summit-like-topology.json\n");
        return 1;
    }
    static const ce_row rows[] = {
        {{3, 3, 2}, 128, 3, "4", 1}, {{3, 3, 2}, 128, 3, "4", 40}, {{3, 3, 2}, 128, 3, "4", 300},
        {{3, 3, 2}, 128, 2, "8", 1}, {{4, 2, 2}, 128, 2, "8", 1},
        {{4, 2, 2}, 32, 2, "4", 1},  {{4, 2, 2}, 32, 3, "4", 1},  {{4, 2, 2}, 32, 4, "4", 1},
        {{3, 3, 2}, 32, 3, "4", 1},  {{4, 2, 2}, 32, 2, "8", 1},
        {{4, 3, 2}, 128, 3, "4", 40},
    };
    printf("communication-dominated instances, exact: BXxBYxBZ blocks of S^3 cells on N summit-like nodes of K "
           "processors (nK), inter-node energy xF; one run\n");
    printf("opt = the least energy of any mapping meeting tabu's own makespan (branch and bound, limit %.0f s); "
           "bound = model bound there\n", limit);
    printf("%-20s %6s %5s %6s %10s %5s %10s %10s %7s %10s %10s %9s %9s %7s %7s %7s %6s %6s %5s %6s %6s\n",
           "instance", "blocks", "procs", "comm%", "tabu(J)", "nodes", "bound(J)", "opt(J)", "status", "search",
           "gap_tabu", "gap_bound", "gap_b_s7", "tabu_s", "bound_s", "opt_s", "T_by", "rounds", "opt_n", "opt_rd",
           "Tb/To");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char name[64];
        ce_name(&rows[r], name, sizeof name);
        if (only && !row_picked(only, name)) continue;
        ce_out o;
        if (ce_run(types, &rows[r], limit, &o)) return 1;
        const xo_result *x = &o.exact;
        const sm_eval *te = &o.tabu;
        const char *status = x->why[0] ? "refused" : x->proven ? "optimal" : "limit";
        /* Without a proof the best found is an upper bound on the
         * optimum: gap_tabu a floor (>=), gap_bound a ceiling (<=). */
        char opt[32] = "-", gt[32] = "-", gb[32] = "-", gb7[32] = "-";
        if (x->found) {
            double v = x->energy;
            snprintf(opt, sizeof opt, "%.6f", v);
            snprintf(gt, sizeof gt, "%s%+.2f%%", x->proven ? "" : ">=", 100.0 * (te->energy / v - 1));
            snprintf(gb, sizeof gb, "%s%+.2f%%", x->proven ? "" : "<=", 100.0 * (v / o.bound.energy - 1));
            snprintf(gb7, sizeof gb7, "%s%+.2f%%", x->proven ? "" : "<=", 100.0 * (v / o.bound_s7.energy - 1));
        }
        char on[16] = "-", ord[16] = "-", tb[16] = "-";
        if (x->found) {
            snprintf(on, sizeof on, "%d", o.opt_nodes);
            snprintf(ord, sizeof ord, "%lld", (long long)o.opt.rounds);
            snprintf(tb, sizeof tb, "%.2f", o.bound.time / o.opt.time);
        }
        printf("%-20s %6d %5d %5.1f%% %10.6f %5d %10.6f %10s %7s %10lld %10s %9s %9s %7.2f %7.2f %7.2f %6s %6lld %5s "
               "%6s %6s\n",
               name, o.n, o.P, 100.0 * te->energy_comm / te->energy, te->energy, o.tabu_nodes, o.bound.energy, opt,
               status, x->nodes, gt, gb, gb7, o.tabu_s, o.bound_s, x->seconds,
               te->comm_time >= te->comp_time ? "rounds" : "comp", (long long)te->rounds, on, ord, tb);
        if (x->found && fabs(x->internal - x->energy) > 1e-9 * x->energy)
            printf("  ! the search's energy %.9g differs from the model's %.9g\n", x->internal, x->energy);
        fflush(stdout);
        ce_free(&o);
    }
    free(types);
    return 0;
}
