/* bench_tabu_memory.c - peak memory and time of `solve tabu -iters 50
 * -multilevel off` (the flat search on the whole grid, start heuristics
 * included) at 262 144 and 1 048 576 blocks, on the
 * Summit-like machine (256 processors) and on a 4096-processor torus,
 * before and after tabu's n x P tables became sparse (#14 item 3).
 * "before" is build/bench/baseline/stencilmap: the program as of the
 * last commit with dense tables, built from git (Makefile target
 * baseline); "after" is ./stencilmap. Each run is a child process; its
 * peak resident set comes from wait4's rusage, its peak virtual size
 * from /proc (the dense tables reserve n x P x 8 bytes up front, touched
 * or not). 1 M blocks must fit in 2 GB. A second table times the inner
 * loop alone (CPU seconds of TABU_STEP_ITERS steps, default 2000, from
 * the same start). TABU_MEM_ITERS sets the first table's iterations,
 * TABU_MEM_QUICK=1 keeps its 262 144-block rows only. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    int ok;
    double energy, seconds, start_cpu, steps_cpu;
    long rss_kb, vm_kb;
} run_result;

static const char *const child_script = "tests/bench/tabu_memory_run.tcl";

/* One child: prog -b child_script machine blocks iters [option value],
 * its address space capped at limit_mb when that is not 0. */
static run_result run_limited(const char *prog, const char *machine, const char *blocks, const char *iters,
                              const char *opt, const char *val, long limit_mb)
{
    run_result r = {0, 0, 0, 0, 0, 0, 0};
    if (access(prog, X_OK) != 0) return r;
    int fd[2];
    if (pipe(fd) != 0) return r;
    pid_t pid = fork();
    if (pid < 0) return r;
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        if (limit_mb) {
            struct rlimit rl = {(rlim_t)limit_mb << 20, (rlim_t)limit_mb << 20};
            setrlimit(RLIMIT_AS, &rl);
            /* An allocation failing is the expected outcome: no noise. */
            if (!freopen("/dev/null", "w", stderr)) _exit(126);
        }
        execl(prog, prog, "-b", child_script, machine, blocks, iters, opt, val, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char out[4096];
    size_t len = 0;
    ssize_t k;
    while (len < sizeof out - 1 && (k = read(fd[0], out + len, sizeof out - 1 - len)) > 0) len += (size_t)k;
    out[len] = 0;
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) return r;
    r.rss_kb = ru.ru_maxrss;
    const char *line = strstr(out, "energy ");
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && line &&
           sscanf(line, "energy %lf seconds %lf vmpeak_kb %ld start_cpu %lf steps_cpu %lf", &r.energy, &r.seconds,
                  &r.vm_kb, &r.start_cpu, &r.steps_cpu) == 5;
    if (!r.ok && !limit_mb) fprintf(stderr, "%s %s %s: failed (status %d): %s\n", prog, machine, blocks, status, out);
    return r;
}

static run_result run(const char *prog, const char *machine, const char *blocks, const char *iters,
                      const char *opt, const char *val)
{
    return run_limited(prog, machine, blocks, iters, opt, val, 0);
}

static void cell_mb(char *buf, size_t n, const run_result *r, long kb)
{
    if (r->ok) snprintf(buf, n, "%.0f", (double)kb / 1024.0);
    else snprintf(buf, n, "n/a");
}

int main(void)
{
    const char *iters = getenv("TABU_MEM_ITERS") ? getenv("TABU_MEM_ITERS") : "50";
    int quick = getenv("TABU_MEM_QUICK") && atoi(getenv("TABU_MEM_QUICK"));
    const char *before = "build/bench/baseline/stencilmap", *after = "./stencilmap";
    static const struct { const char *label, *file; } machines[] = {
        {"summit-like (256 procs)", "samples/summit-like.json"},
        {"lu-torus16 (4096 procs)", "samples/lu-torus16.json"},
    };
    static const struct { const char *label, *blocks; } sizes[] = {
        {"262144", "64 64 64"},
        {"1048576", "128 128 64"},
    };
    printf("flat tabu (-multilevel off) -iters %s, start included: peak resident (RSS) and virtual (VM) memory in MB, CPU seconds\n"
           "(user+sys of start and steps: the machine is shared, wall time is not comparable);\n"
           "before = the program at 2107aed (dense n x P tabu tables), after = this one; each run a child process\n",
           iters);
    printf("%-24s %8s  %8s %8s %7s  %8s %8s  %8s %8s %7s  %-6s %s\n", "machine", "blocks", "RSS bef", "RSS aft",
           "ratio", "VM bef", "VM aft", "cpu bef", "cpu aft", "ratio", "E same", "after fits 2 GB");
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        if (quick && s > 0) break;
        for (size_t m = 0; m < sizeof machines / sizeof *machines; m++) {
            run_result b = run(before, machines[m].file, sizes[s].blocks, iters, NULL, NULL);
            run_result a = run(after, machines[m].file, sizes[s].blocks, iters, NULL, NULL);
            char rb[32], ra[32], vb[32], va[32], rr[32] = "n/a", tb[32] = "n/a", ta[32] = "n/a", tr[32] = "n/a";
            char same[8] = "n/a";
            cell_mb(rb, sizeof rb, &b, b.rss_kb);
            cell_mb(ra, sizeof ra, &a, a.rss_kb);
            cell_mb(vb, sizeof vb, &b, b.vm_kb);
            cell_mb(va, sizeof va, &a, a.vm_kb);
            double cb = b.start_cpu + b.steps_cpu, ca = a.start_cpu + a.steps_cpu;
            if (b.ok) snprintf(tb, sizeof tb, "%.2f", cb);
            if (a.ok) snprintf(ta, sizeof ta, "%.2f", ca);
            if (a.ok && b.ok) {
                snprintf(rr, sizeof rr, "%.2fx", (double)a.rss_kb / (double)b.rss_kb);
                snprintf(tr, sizeof tr, "%.2fx", ca / cb);
                snprintf(same, sizeof same, "%s", a.energy == b.energy ? "yes" : "NO");
            }
            printf("%-24s %8s  %8s %8s %7s  %8s %8s  %8s %8s %7s  %-6s %s\n", machines[m].label, sizes[s].label,
                   rb, ra, rr, vb, va, tb, ta, tr, same,
                   !a.ok ? "n/a" : a.rss_kb <= 2L * 1024 * 1024 ? "yes" : "NO");
            fflush(stdout);
        }
    }

    /* The inner loop alone: CPU seconds (not wall, the machine is
     * shared) of the steps, from the same heuristic start both sides. */
    const char *steps = getenv("TABU_STEP_ITERS") ? getenv("TABU_STEP_ITERS") : "2000";
    printf("\ntabu inner loop at 262144 blocks: %s steps after -from heuristics, CPU seconds (user+sys)\n", steps);
    printf("%-24s  %9s %9s  %9s %9s %7s  %9s %9s  %-6s\n", "machine", "start bef", "start aft", "steps bef",
           "steps aft", "ratio", "ms/step b", "ms/step a", "E same");
    for (size_t m = 0; m < sizeof machines / sizeof *machines; m++) {
        run_result b = run(before, machines[m].file, sizes[0].blocks, steps, "-from", "heuristics");
        run_result a = run(after, machines[m].file, sizes[0].blocks, steps, "-from", "heuristics");
        if (!a.ok || !b.ok) {
            printf("%-24s  %s\n", machines[m].label, !a.ok ? "after failed" : "before n/a");
            continue;
        }
        double k = atof(steps);
        printf("%-24s  %9.2f %9.2f  %9.2f %9.2f %6.2fx  %9.3f %9.3f  %-6s\n", machines[m].label, b.start_cpu,
               a.start_cpu, b.steps_cpu, a.steps_cpu, a.steps_cpu / b.steps_cpu, 1e3 * b.steps_cpu / k,
               1e3 * a.steps_cpu / k, a.energy == b.energy ? "yes" : "NO");
        fflush(stdout);
    }

    /* Peak RSS understates the dense tables (pages are touched as moves
     * are made): under a 2 GB address-space limit, as on a cluster with
     * strict overcommit or ulimit -v, they cannot even be allocated. */
    if (quick) return 0;
    printf("\nsolve tabu -iters 50 -from current at 1048576 blocks under a 2 GB address-space limit (RLIMIT_AS)\n");
    printf("%-24s  %-8s %-8s\n", "machine", "before", "after");
    for (size_t m = 0; m < sizeof machines / sizeof *machines; m++) {
        run_result b = run_limited(before, machines[m].file, sizes[1].blocks, "50", "-from", "current", 2048);
        run_result a = run_limited(after, machines[m].file, sizes[1].blocks, "50", "-from", "current", 2048);
        int have_before = access(before, X_OK) == 0;
        printf("%-24s  %-8s %-8s\n", machines[m].label, !have_before ? "n/a" : b.ok ? "runs" : "fails",
               a.ok ? "runs" : "fails");
        fflush(stdout);
    }
    return 0;
}
