/* stencilmap_run_main.c - stencilmap-run (SPEC 9): runs a scenario's grid as a mapping
 * places it, one MPI rank per processor that holds blocks, with the
 * project's one stencil kernel (core/kernel), and writes RUN.json.
 *
 *   mpirun -np R stencilmap-run SCENARIO MAPPING -iters N
 *          ?-exchange rounds|all? -o RUN.json
 *
 * MAPPING is a stencilmap/mapping file, or - for the scenario's own.
 * With one rank every block runs in one process: the reference run whose
 * checksum every other run of the grid must equal bit for bit. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/io/mapping_file.h"
#include "core/io/scenario_file_load_save_and_its_errors.h"
#include "core/kernel/jacobi_stencil_kernel.h"
#include "core/run_results/run_json_file.h"
#include "rank_energy_during_iterations.h"
#include "mpi_halo_exchange.h"
#include "rank_halo_plan.h"
#include "rank_figures_gather.h"
#include "rank_sweep_threads.h"
#include "core/lib/atomic_file_write.h"

typedef struct opts {
    const char *scenario, *mapping, *out;
    const char *powercap;   /* -powercap DIR: another powercap root */
    long iters;
    int all;            /* -exchange all */
    int threads;        /* -threads N, 0: one a bound CPU (1 unbound) */
} opts;

static const char usage[] =
    "usage: mpirun -np R stencilmap-run SCENARIO MAPPING -iters N ?-exchange rounds|all? ?-threads N?\n"
    "       ?-powercap DIR? -o RUN.json\n"
    "  MAPPING: a stencilmap/mapping file, or - for the scenario's own\n";

static int parse_args(int argc, char **argv, opts *o, char *why, size_t n)
{
    memset(o, 0, sizeof *o);
    o->iters = -1;
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-threads") == 0) {
            char *end;
            long t = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;
            if (i + 1 >= argc || *end || t < 1 || t > 4096) {
                snprintf(why, n, "-threads: expected a whole number from 1 to 4096");
                return -1;
            }
            o->threads = (int)t;
            i++;
        } else if (strcmp(a, "-powercap") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) { snprintf(why, n, "-powercap needs a folder"); return -1; }
            o->powercap = argv[++i];
        } else if (strcmp(a, "-iters") == 0 || strcmp(a, "-exchange") == 0 || strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) { snprintf(why, n, "%s needs a value", a); return -1; }
            const char *v = argv[++i];
            if (a[1] == 'i') {
                char *end;
                o->iters = strtol(v, &end, 10);
                if (*end || end == v || o->iters < 1 || o->iters > 1000000000L) {
                    snprintf(why, n, "-iters: \"%s\", expected a whole number from 1", v);
                    return -1;
                }
            } else if (a[1] == 'e') {
                if (strcmp(v, "rounds") == 0) o->all = 0;
                else if (strcmp(v, "all") == 0) o->all = 1;
                else { snprintf(why, n, "-exchange: \"%s\", expected rounds or all", v); return -1; }
            } else {
                o->out = v;
            }
        } else if (a[0] == '-' && a[1]) {
            snprintf(why, n, "unknown option \"%s\"", a);
            return -1;
        } else if (pos == 0) {
            o->scenario = a, pos++;
        } else if (pos == 1) {
            o->mapping = a, pos++;
        } else {
            snprintf(why, n, "unexpected argument \"%s\"", a);
            return -1;
        }
    }
    if (pos < 2) { snprintf(why, n, "SCENARIO and MAPPING are needed"); return -1; }
    if (o->iters < 0) { snprintf(why, n, "-iters N is needed"); return -1; }
    if (!o->out) { snprintf(why, n, "-o RUN.json is needed"); return -1; }
    return 0;
}

/* Every rank agrees whether all went well; the first rank with a problem
 * says it. Returns 1 when every rank is fine. */
static int agree(int ok, const char *why, MPI_Comm comm)
{
    int rank, all;
    MPI_Comm_rank(comm, &rank);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (all) return 1;
    int first, me = ok ? 1 << 30 : rank;
    MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, comm);
    if (rank == first) {
        fprintf(stderr, "stencilmap-run: %s\n", why);
        fflush(stderr);
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int finish(int rc)
{
    MPI_Finalize();
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    char why[1024] = "";
    opts o;
    if (!agree(parse_args(argc, argv, &o, why, sizeof why) == 0, why, comm)) {
        if (rank == 0) fputs(usage, stderr);
        return finish(2);
    }

    /* Inputs: every rank reads them (they are small next to the grid). */
    sm_scenario sc;
    memset(&sc, 0, sizeof sc);
    sm_err e;
    int ok = sm_scenario_load(o.scenario, &sc, &e) == 0;
    if (!ok) snprintf(why, sizeof why, "%s", e.msg);
    if (!agree(ok, why, comm)) return finish(1);
    int nb = sc.grid->ntasks;
    int *map = sm_xmalloc(sizeof(int) * (size_t)nb);
    if (strcmp(o.mapping, "-") == 0) {
        ok = sc.map != NULL;
        if (ok) memcpy(map, sc.map, sizeof(int) * (size_t)nb);
        else snprintf(why, sizeof why, "%s has no mapping: give a mapping file", o.scenario);
    } else {
        ok = sm_mapping_load(o.mapping, sc.topo, nb, map, &e) == 0;
        if (!ok) snprintf(why, sizeof why, "%s", e.msg);
    }
    sm_kgrid kg;
    smr_kgrid(sc.grid, &kg);
    if (ok && sm_kgrid_check(&kg, why, sizeof why) != 0) ok = 0;
    smr_plan pl;
    memset(&pl, 0, sizeof pl);
    if (ok && smr_ranks(sc.topo, map, nb, size, &pl, why, sizeof why) != 0) ok = 0;
    if (!agree(ok, why, comm)) return finish(1);
    pl.rank = rank;

    /* Rounds: rank 0 builds the schedule and tells every rank the round
     * of each task edge. */
    int *round_of_edge = sm_xmalloc(sizeof(int) * (size_t)(sc.grid->nedges ? sc.grid->nedges : 1));
    int nrounds = 0;
    if (!o.all && size > 1) {
        if (rank == 0) {
            int *r0;
            nrounds = smr_edge_rounds(sc.grid, sc.topo, &sc.model, map, &r0);
            memcpy(round_of_edge, r0, sizeof(int) * (size_t)sc.grid->nedges);
            free(r0);
        }
        MPI_Bcast(&nrounds, 1, MPI_INT, 0, comm);
        MPI_Bcast(round_of_edge, sc.grid->nedges, MPI_INT, 0, comm);
    }
    smr_plan_build(&pl, &kg, sc.grid, map, o.all || size == 1 ? NULL : round_of_edge);
    free(round_of_edge);

    sm_kblock *blocks = sm_xcalloc((size_t)nb, sizeof *blocks);
    int64_t cells = 0;
    ok = 1;
    for (int i = 0; i < pl.nmine && ok; i++) {
        int b = pl.mine[i];
        if (sm_kblock_init(&blocks[b], &kg, b) != 0) {
            snprintf(why, sizeof why, "rank %d: out of memory for block %d (%zu bytes)", rank, b,
                     sm_kgrid_block_bytes(&kg, b));
            ok = 0;
        }
        cells += blocks[b].n[0] * blocks[b].n[1] * blocks[b].n[2];
    }
    if (!agree(ok, why, comm)) return finish(1);
    smr_exchange x;
    smr_exchange_init(&x, &pl, blocks);
    /* Threads: one pinned to each CPU the rank is bound to, as topo
     * measure runs a processor; one, unpinned, when not bound. */
    int *cpus = sm_xmalloc(sizeof(int) * 4096);
    int nbound = smr_bound_cpus(cpus, 4096);
    int nthreads = o.threads ? o.threads : nbound ? nbound : 1;
    if (nbound == 0 || nthreads > nbound) {
        free(cpus);
        cpus = NULL;
    }
    smr_sweep *sweep = smr_sweep_new(blocks, pl.mine, pl.nmine, nthreads, cpus);
    free(cpus);
    if (rank == 0) {
        printf("stencilmap-run: %d ranks, %d blocks, %s exchange (%d rounds), %ld iterations\n", size, nb,
               o.all ? "all-at-once" : "rounds", o.all ? (size > 1) : nrounds, o.iters);
        fflush(stdout);
    }

    /* The loop: halos in, one sweep of every block, swap. Each
     * iteration's compute time is kept (the first 2^20) for its median
     * and minimum: what a preempted rank's mean hides. */
    double compute = 0, comm_s = 0, last = 0;
    long nsamples = o.iters < (1L << 20) ? o.iters : (1L << 20);
    double *sample = sm_xmalloc(sizeof(double) * (size_t)nsamples);
    double *whole = sm_xmalloc(sizeof(double) * (size_t)nsamples);
    /* Energy counters read right before and after the loop (one reader a
     * package; rank_energy_during_iterations.h); it ends with a barrier. */
    int my_proc = size == 1 ? pl.proc_of_rank[0] : pl.proc_of_rank[rank];
    smr_energy en;
    smr_energy_begin(&en, sc.topo, my_proc, o.powercap, comm);
    double t0 = MPI_Wtime();
    for (long it = 0; it < o.iters; it++) {
        /* Compute is what the model's comp_p (and topo measure's profile)
         * counts: the copies between the rank's own blocks and the sweep;
         * comm the messages between ranks. */
        double a = MPI_Wtime();
        smr_exchange_copies(&x);
        double a1 = MPI_Wtime();
        smr_exchange_messages(&x, comm);
        double b = MPI_Wtime();
        smr_sweep_run(sweep);
        double c = MPI_Wtime();
        comm_s += b - a1;
        compute += (a1 - a) + (c - b);
        if (it < nsamples) sample[it] = (a1 - a) + (c - b), whole[it] = c - a;
        smr_energy_tick(&en, c);
        if (rank == 0 && (c - last >= 0.25 || it + 1 == o.iters)) {
            printf("stencilmap-run: iteration %ld/%ld\n", it + 1, o.iters);
            fflush(stdout);
            last = c;
        }
    }
    double wall = MPI_Wtime() - t0;
    smr_energy_end(&en, comm);
    qsort(sample, (size_t)nsamples, sizeof(double), cmp_double);
    double cmin = sample[0];
    double cmed = nsamples % 2 ? sample[nsamples / 2] : 0.5 * (sample[nsamples / 2 - 1] + sample[nsamples / 2]);
    qsort(whole, (size_t)nsamples, sizeof(double), cmp_double);
    double wmed = nsamples % 2 ? whole[nsamples / 2] : 0.5 * (whole[nsamples / 2 - 1] + whole[nsamples / 2]);
    free(sample);
    free(whole);

    uint64_t sum = 0, total = 0;
    for (int i = 0; i < pl.nmine; i++) sum += sm_kblock_checksum(&blocks[pl.mine[i]], &kg);
    MPI_Reduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, 0, comm);

    smr_mine me = {
        .processor = sc.topo->procs[size == 1 ? pl.proc_of_rank[0] : pl.proc_of_rank[rank]].name,
        .compute_s = compute, .comm_s = comm_s, .wait_s = x.wait_s, .wall_s = wall,
        .bytes = x.bytes, .messages = x.messages, .blocks = pl.nmine, .cells = cells,
        .compute_min_s = cmin, .compute_median_s = cmed, .wall_median_s = wmed, .threads = nthreads,
        .has_energy = en.has, .energy_j = en.joules, .energy_counter = en.counter, .energy_share = en.share,
        .energy_why = en.why,
    };
    sm_run run;
    memset(&run, 0, sizeof run);
    smr_gather(&me, comm, &run);
    int rc = 0;
    if (rank == 0) {
        sm_run_scenario_sha256(sc.grid, sc.topo, run.scenario_sha256);
        sm_run_mapping_sha256(map, nb, run.mapping_sha256);
        run.iters = (int)o.iters;
        snprintf(run.exchange, sizeof run.exchange, "%s", o.all ? "all" : "rounds");
        snprintf(run.checksum, sizeof run.checksum, "%016llx", (unsigned long long)total);
        run.rounds = o.all ? (size > 1) : nrounds;
        char *text = sm_run_to_text(&run);
        if (sm_write_file_atomic(o.out, text, strlen(text), &e) != 0) {
            fprintf(stderr, "stencilmap-run: %s\n", e.msg);
            rc = 1;
        } else {
            printf("stencilmap-run: checksum %s, wrote %s\n", run.checksum, o.out);
        }
        free(text);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, comm);
    sm_run_free(&run);
    smr_energy_free(&en);
    smr_sweep_free(sweep);
    smr_exchange_free(&x);
    for (int i = 0; i < pl.nmine; i++) sm_kblock_free(&blocks[pl.mine[i]]);
    free(blocks);
    smr_plan_free(&pl);
    free(map);
    sm_scenario_release(&sc);
    return finish(rc);
}
