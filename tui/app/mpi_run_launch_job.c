/* mpi_run_launch_job.c - a run directory and its job, local or on Slurm (mpi_run_launch_job.h). */
#include "mpi_run_launch_job.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "core/io/mapping_file.h"
#include "core/io/rankfile.h"
#include "core/io/rank_binding_to_processor_places.h"
#include "core/io/scenario_file_load_save_and_its_errors.h"
#include "core/lib/strbuf.h"
#include "core/lib/atomic_file_write.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void sm_run_sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

static char *find_in_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    const char *p = path;
    while (*p) {
        const char *c = strchr(p, ':');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        char buf[PATH_MAX];
        if (n > 0 && n + strlen(name) + 2 < sizeof buf) {
            memcpy(buf, p, n);
            snprintf(buf + n, sizeof buf - n, "/%s", name);
            if (access(buf, X_OK) == 0) return sm_xstrdup(buf);
        }
        if (!c) break;
        p = c + 1;
    }
    return NULL;
}

char *sm_run_program(void)
{
    const char *env = getenv("STENCILMAP_RUN");
    if (env && *env) return access(env, X_OK) == 0 ? sm_xstrdup(env) : NULL;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        for (int up = 0; up < 3; up++) {
            char *slash = strrchr(self, '/');
            if (!slash) break;
            *slash = '\0';
            char buf[PATH_MAX + 32];
            snprintf(buf, sizeof buf, "%s/stencilmap-run", self);
            if (access(buf, X_OK) == 0) return sm_xstrdup(buf);
        }
    }
    return find_in_path("stencilmap-run");
}

/* 'text' for sh, quotes inside escaped. */
static void put_quoted(sm_strbuf *b, const char *s)
{
    sm_strbuf_put(b, "'");
    for (; *s; s++) {
        if (*s == '\'') sm_strbuf_put(b, "'\\''");
        else sm_strbuf_put(b, "%c", *s);
    }
    sm_strbuf_put(b, "'");
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = sm_xmalloc(n);
    snprintf(s, n, "%s/%s", dir, name);
    return s;
}

/* Runs argv in dir, stdout and stderr into out (NUL-terminated, cut at
 * outlen). Returns its exit status, or -1 when it could not run. */
static int capture(char *const argv[], const char *dir, char *out, size_t outlen)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) dup2(null, 0);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        if (dir && chdir(dir) != 0) _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t got = 0;
    for (;;) {
        char buf[512];
        ssize_t r = read(fd[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        for (ssize_t i = 0; i < r && got + 1 < outlen; i++) out[got++] = buf[i];
    }
    if (outlen) out[got < outlen ? got : outlen - 1] = '\0';
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r')) s[--n] = '\0';
}

/* Files this launch wrote, removed again when it fails. */
typedef struct written {
    char *path[8];
    int n;
    char *dir;          /* made by this launch */
} written;

static int put_file(written *w, const char *path, const char *text, size_t len, sm_err *e)
{
    if (sm_write_file_atomic(path, text, len, e) != 0) return -1;
    if (w->n < 8) w->path[w->n++] = sm_xstrdup(path);
    return 0;
}

static void undo_written(written *w, int keep)
{
    for (int i = 0; i < w->n; i++) {
        if (!keep) unlink(w->path[i]);
        free(w->path[i]);
    }
    if (w->dir && !keep) rmdir(w->dir);
    free(w->dir);
    memset(w, 0, sizeof *w);
}

static int make_dir(const sm_run_opts *o, char **dir, written *w, sm_err *e)
{
    char buf[64];
    const char *d = o->dir;
    if (!d) {
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(buf, sizeof buf, "run-%Y%m%d-%H%M%S", &tm);
        d = buf;
    }
    if (mkdir(d, 0777) == 0) {
        w->dir = sm_xstrdup(d);
    } else if (errno == EEXIST) {
        struct stat st;
        if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
            sm_err_set_code(e, "IO", "run launch: %s exists and is not a directory", d);
            return -1;
        }
        char *probe = join(d, "job.sh");
        int used = access(probe, F_OK) == 0;
        free(probe);
        probe = join(d, "RUN.json");
        used |= access(probe, F_OK) == 0;
        free(probe);
        if (used) {
            sm_err_set_code(e, "IO", "run launch: %s already holds a run (job.sh or RUN.json): give another -dir", d);
            return -1;
        }
    } else {
        sm_err_set_code(e, "IO", "run launch: cannot make the run directory %s: %s", d, strerror(errno));
        return -1;
    }
    *dir = sm_xstrdup(d);
    return 0;
}

static int local_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* hwloc-bind's location for an Open MPI slot "P:a-b,c": the same cores,
 * counted from package P's first ("package:P.core:a-b package:P.core:c"). */
static void put_hwloc_location(sm_strbuf *b, const char *slot)
{
    const char *colon = strchr(slot, ':');
    if (!colon) return;
    int pkg = atoi(slot);
    const char *p = colon + 1;
    int first = 1;
    while (*p) {
        size_t n = strcspn(p, ",");
        sm_strbuf_put(b, "%spackage:%d.core:%.*s", first ? "" : " ", pkg, (int)n, p);
        first = 0;
        p += n;
        if (*p == ',') p++;
    }
}

/* The job script: a rank wrapper (a GPU rank's device; under srun, the
 * rank's binding) and the launch. l holds every rank's host (and, when
 * bound, its slot). */
static char *job_script(const sm_run_opts *o, const sm_run_job *job, const sm_launch *l, const char *program,
                        int nnodes, int root)
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    sm_strbuf_put(&b, "#!/bin/sh\n");
    if (o->slurm) {
        sm_strbuf_put(&b, "#SBATCH --job-name=stencilmap-run\n#SBATCH --ntasks=%d\n#SBATCH --nodes=%d\n",
                      job->ranks, nnodes);
        if (o->hosts && l) { /* the nodes the ranks were planned on */
            sm_strbuf_put(&b, "#SBATCH --nodelist=");
            for (int r = 0, k = 0; r < l->nranks; r++) {
                int seen = 0;
                for (int q = 0; q < r && !seen; q++) seen = strcmp(l->host[q], l->host[r]) == 0;
                if (!seen) sm_strbuf_put(&b, "%s%s", k++ ? "," : "", l->host[r]);
            }
            sm_strbuf_put(&b, "\n");
        }
        sm_strbuf_put(&b, "#SBATCH --output=run.log\n#SBATCH --chdir=");
        sm_strbuf_put(&b, "%s\n", job->dir);
    }
    sm_strbuf_put(&b, "# Written by stencilmap's `run launch` (%d ranks): %s.\n", job->ranks, job->note);
    sm_strbuf_put(&b, "# Run it again with: %s job.sh\n", o->slurm ? "sbatch" : "sh");
    sm_strbuf_put(&b, "if [ \"${1:-}\" = rank ]; then\n    # A GPU rank drives its device%s.\n    shift\n",
                  job->srun && job->bound ? "; every rank binds itself to its place (hwloc's logical indexes)" : "");
    sm_strbuf_put(&b, "    r=${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${SLURM_PROCID:-0}}}\n    bind=\n    case $r in\n");
    for (int r = 0; l && r < l->nranks && r < job->ranks; r++) {
        int dev = l->device ? l->device[r] : -1;
        int bind = job->srun && job->bound && l->slot && l->slot[r];
        if (dev < 0 && !bind) continue;
        sm_strbuf_put(&b, "    %d)", r);
        if (dev >= 0) sm_strbuf_put(&b, " export CUDA_VISIBLE_DEVICES=%d ROCR_VISIBLE_DEVICES=%d;", dev, dev);
        if (bind) {
            sm_strbuf_put(&b, " bind='");
            put_hwloc_location(&b, l->slot[r]);
            sm_strbuf_put(&b, "';");
        }
        sm_strbuf_put(&b, " ;;\n");
    }
    sm_strbuf_put(&b, "    esac\n");
    if (job->srun && job->bound)
        sm_strbuf_put(&b, "    if [ -n \"$bind\" ]; then\n"
                          "        command -v hwloc-bind >/dev/null 2>&1 || {\n"
                          "            echo \"stencilmap-run rank $r: hwloc-bind not found on $(hostname): install hwloc, \"\\\n"
                          "                 \"or run launch -bind off, or -launcher mpirun (the rankfile)\" >&2; exit 127; }\n"
                          "        echo \"stencilmap-run rank $r on $(hostname): bound to $bind\" >&2\n"
                          "        exec hwloc-bind --cpubind $bind -- \"$@\"\n"
                          "    fi\n");
    sm_strbuf_put(&b, "    exec \"$@\"\nfi\n");
    if (!o->slurm) sm_strbuf_put(&b, "cd \"$(dirname \"$0\")\" || exit 1\n");
    if (job->srun) {
        /* Rank r on the allocation's node of its host (in order of first
         * appearance): SLURM_HOSTFILE for --distribution=arbitrary. */
        sm_strbuf_put(&b, "# One line a rank: the node it runs on (srun --distribution=arbitrary).\n");
        sm_strbuf_put(&b, "scontrol show hostnames \"$SLURM_JOB_NODELIST\" | awk -v nodes='");
        for (int r = 0; l && r < l->nranks && r < job->ranks; r++) {
            int k = 0, found = -1;
            for (int q = 0; q <= r && found < 0; q++) {
                int seen = 0;
                for (int x = 0; x < q && !seen; x++) seen = strcmp(l->host[x], l->host[q]) == 0;
                if (strcmp(l->host[q], l->host[r]) == 0) found = k;
                else if (!seen) k++;
            }
            sm_strbuf_put(&b, "%s%d", r ? " " : "", found < 0 ? 0 : found);
        }
        if (!l || l->nranks < job->ranks) sm_strbuf_put(&b, "0");
        sm_strbuf_put(&b, "' 'BEGIN { n = split(nodes, k, \" \") } { h[NR - 1] = $0 }\n"
                          "    END { for (i = 1; i <= n; i++) print h[k[i]] }' > hostfile || exit 1\n");
        sm_strbuf_put(&b, "export SLURM_HOSTFILE=\"$PWD/hostfile\"\n");
        sm_strbuf_put(&b, "srun --mpi=pmix --distribution=arbitrary --ntasks=%d --cpu-bind=none", job->ranks);
        if (job->oversubscribed) sm_strbuf_put(&b, " --overcommit");
    } else {
        if (root) sm_strbuf_put(&b, "export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1\n");
        sm_strbuf_put(&b, "mpirun%s -np %d", root ? " --allow-run-as-root" : "", job->ranks);
        if (job->bound) sm_strbuf_put(&b, " --rankfile rankfile --report-bindings");
        else sm_strbuf_put(&b, " --bind-to none");
        /* Oversubscribed ranks yield the core while they wait for messages. */
        if (job->oversubscribed) sm_strbuf_put(&b, " --oversubscribe --mca mpi_yield_when_idle 1");
    }
    sm_strbuf_put(&b, " \\\n    sh ./job.sh rank ");
    put_quoted(&b, program);
    sm_strbuf_put(&b, " scenario.json mapping.json -iters %d -exchange %s -o RUN.json\n", o->iters,
                  o->exchange_all ? "all" : "rounds");
    sm_strbuf_put(&b, "rc=$?\necho $rc > EXIT.tmp && mv EXIT.tmp EXIT\nexit $rc\n");
    return b.s;
}

static int start_job(const sm_session *s, const sm_run_opts *o, sm_run_job *job, sm_err *e)
{
    memset(job, 0, sizeof *job);
    job->pid = -1;
    const int *map = sm_session_map(s);
    int nb = s->grid->ntasks;
    char *program = sm_run_program();
    if (!program && o->dry) program = sm_xstrdup("stencilmap-run"); /* the job script finds it on PATH */
    if (!program) {
        sm_err_set_code(e, "RUN LAUNCH",
                        "run launch: stencilmap-run not found (beside this program, on PATH or in $STENCILMAP_RUN): "
                        "build it with make (needs mpicc: openmpi-bin, libopenmpi-dev)");
        return -1;
    }
    const char *launcher = o->slurm ? "sbatch" : "mpirun";
    char *lpath = o->dry ? sm_xstrdup(launcher) : find_in_path(launcher);
    if (!lpath) {
        sm_err_set_code(e, "RUN LAUNCH", "run launch: %s not found on PATH%s", launcher,
                        o->slurm ? ": is Slurm installed (slurm-wlm)?" : ": install Open MPI (openmpi-bin)");
        free(program);
        return -1;
    }
    free(lpath);
    /* In a Slurm job the ranks start with srun (the default) or mpirun. */
    int srun = o->slurm && o->launcher != SM_LAUNCHER_MPIRUN;
    const char *starter = srun ? "srun" : "mpirun";
    char *mp = o->slurm && !o->dry ? find_in_path(starter) : NULL;
    int no_starter = o->slurm && !o->dry && !mp;
    free(mp);
    if (no_starter) {
        sm_err_set_code(e, "RUN LAUNCH", "run launch: %s not found on PATH: install %s", starter,
                        srun ? "Slurm (slurm-wlm), or -launcher mpirun" : "Open MPI (openmpi-bin)");
        free(program);
        return -1;
    }
    /* Ranks and hosts. */
    char host[256] = "localhost";
    if (gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "localhost");
    int nn = s->topo->nnodes ? s->topo->nnodes : 1;
    char **hosts = sm_xmalloc(sizeof(char *) * (size_t)nn);
    int nh = nn;
    for (int k = 0; k < nn; k++) hosts[k] = o->hosts && k < o->nhosts ? o->hosts[k] : host;
    if (o->hosts && o->nhosts < nn) nh = o->nhosts; /* sm_launch_plan says which node lacks one */
    sm_launch l;
    if (sm_launch_plan(s->topo, map, nb, hosts, nh, &l, e) != 0) {
        free(hosts);
        free(program);
        e->code[0] = '\0';
        sm_err_prefix(e, "run launch: ");
        snprintf(e->code, sizeof e->code, "ARGS");
        return -1;
    }
    /* Distinct hosts (Slurm --nodes). */
    int nnodes = 0;
    for (int r = 0; r < l.nranks; r++) {
        int seen = 0;
        for (int q = 0; q < r && !seen; q++) seen = strcmp(l.host[q], l.host[r]) == 0;
        nnodes += !seen;
    }
    free(hosts);
    int want = l.nranks;
    if (o->np && o->np != want && o->np != 1) {
        sm_err_set_code(e, "ARGS", "run launch: -np %d: the mapping puts blocks on %d processors, so %d ranks "
                                   "(or -np 1, the one-process reference run)", o->np, want, want);
        sm_launch_free(&l);
        free(program);
        return -1;
    }
    job->ranks = o->np ? o->np : want;
    job->iters = o->iters;
    job->slurm = o->slurm;
    job->srun = srun;
    /* Binding: from the places when every rank has one and cores are
     * enough; else (auto) unbound, and said so. */
    sm_err be;
    int bind_ok = job->ranks > 1 && o->bind != SM_BIND_OFF && sm_launch_bind(s->topo, &l, &be) == 0;
    if (!bind_ok && o->bind == SM_BIND_ON) {
        if (job->ranks == 1) sm_err_set_code(e, "RUN PLACE", "run launch: -bind on: a one-process run binds nothing");
        else {
            *e = be;
            sm_err_prefix(e, "run launch: -bind on: ");
        }
        sm_launch_free(&l);
        free(program);
        return -1;
    }
    int cores = local_cores();
    /* On this machine (no -hosts, no Slurm): its cores are the limit. */
    if (!o->slurm && !o->hosts && nnodes == 1 && job->ranks > cores) {
        job->oversubscribed = 1;
        bind_ok = 0;
        snprintf(job->note, sizeof job->note, "%d ranks on the %d cores of this machine: oversubscribed, binding off",
                 job->ranks, cores);
    } else if (bind_ok) {
        snprintf(job->note, sizeof job->note, "each rank bound to its processor's place (%s)",
                 srun ? "srun, hwloc-bind in the rank wrapper" : "rankfile");
    } else if (job->ranks == 1) {
        snprintf(job->note, sizeof job->note, "one process holds every block (the reference run), unbound");
    } else if (o->bind == SM_BIND_OFF) {
        snprintf(job->note, sizeof job->note, "binding off (-bind off)");
    } else {
        snprintf(job->note, sizeof job->note, "ranks unbound: %s", be.msg);
    }
    job->bound = bind_ok;
    written w;
    memset(&w, 0, sizeof w);
    if (make_dir(o, &job->dir, &w, e) != 0) {
        sm_launch_free(&l);
        free(program);
        return -1;
    }
    if (job->dir[0] != '/') { /* the job runs elsewhere (Slurm, cd) */
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd)) {
            char *abs = join(cwd, job->dir);
            free(job->dir);
            job->dir = abs;
        }
    }
    job->script = join(job->dir, "job.sh");
    job->rankfile = join(job->dir, "rankfile");
    job->blocks = join(job->dir, "blocks");
    job->log = join(job->dir, "run.log");
    job->result = join(job->dir, "RUN.json");
    char *scen = join(job->dir, "scenario.json"), *mapf = join(job->dir, "mapping.json");
    size_t len;
    int rc = sm_scenario_save(scen, s->grid, s->topo, &s->model, map, SM_MAPPING_AUTO, e);
    if (rc == 0) w.path[w.n++] = sm_xstrdup(scen);
    if (rc == 0 && (rc = sm_mapping_save(mapf, s->topo, map, nb, SM_MAPPING_AUTO, e)) == 0) w.path[w.n++] = sm_xstrdup(mapf);
    if (rc == 0 && job->bound) {
        char *t = sm_launch_text(&l, SM_LAUNCH_RANKFILE, &len);
        rc = put_file(&w, job->rankfile, t, len, e);
        free(t);
    }
    if (rc == 0) {
        char *t = sm_launch_blocks_text(&l, map, nb, &len);
        rc = put_file(&w, job->blocks, t, len, e);
        free(t);
    }
    if (rc == 0) {
        char *t = job_script(o, job, &l, program, nnodes, geteuid() == 0);
        rc = put_file(&w, job->script, t, strlen(t), e);
        free(t);
    }
    free(scen);
    free(mapf);
    sm_launch_free(&l);
    free(program);
    if (rc != 0) {
        if (!e->code[0]) snprintf(e->code, sizeof e->code, "IO");
        undo_written(&w, 0);
        return -1;
    }
    job->started = now();
    if (o->dry) {
        undo_written(&w, 1);
        job->state = SM_JOB_WRITTEN;
        return 0;
    }
    if (o->slurm) {
        char out[2048];
        char *argv[] = {"sbatch", "--parsable", job->script, NULL};
        int st = capture(argv, job->dir, out, sizeof out);
        trim(out);
        if (st != 0) {
            sm_err_set_code(e, "RUN SLURM", "run launch -slurm: sbatch failed (exit %d): %s", st,
                            out[0] ? out : "no output (is slurmctld running? scontrol ping)");
            undo_written(&w, 0);
            return -1;
        }
        char *semi = strchr(out, ';');
        if (semi) *semi = '\0';
        snprintf(job->jobid, sizeof job->jobid, "%s", out);
    } else {
        pid_t pid = fork();
        if (pid < 0) {
            sm_err_set_code(e, "RUN LAUNCH", "run launch: fork: %s", strerror(errno));
            undo_written(&w, 0);
            return -1;
        }
        if (pid == 0) {
            setpgid(0, 0);
            int fd = open(job->log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
            int null = open("/dev/null", O_RDONLY);
            if (fd < 0 || null < 0) _exit(126);
            dup2(null, 0);
            dup2(fd, 1);
            dup2(fd, 2);
            execl("/bin/sh", "sh", job->script, (char *)NULL);
            _exit(127);
        }
        setpgid(pid, pid);
        job->pid = pid;
    }
    undo_written(&w, 1);
    job->state = SM_JOB_RUNNING;
    return 0;
}

/* The last "iteration I/N" of the log, and its last lines for a failure. */
static void read_log(sm_run_job *job, char *tail, size_t tlen)
{
    if (tlen) tail[0] = '\0';
    FILE *f = fopen(job->log, "r");
    if (!f) return;
    char buf[8192];
    long size = 0;
    if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    long from = size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0;
    fseek(f, from, SEEK_SET);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    for (char *p = buf; (p = strstr(p, "iteration ")); p++) {
        int i, of;
        if (sscanf(p, "iteration %d/%d", &i, &of) == 2) job->iteration = i;
    }
    /* The last non-empty lines that say something (not a dashed rule). */
    char *lines[6];
    int k = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        while (*line == ' ') line++;
        if (!*line || line[0] == '-' || line[0] == '=') continue;
        if (k == 6) {
            memmove(lines, lines + 1, sizeof lines[0] * 5);
            k = 5;
        }
        lines[k++] = line;
    }
    sm_strbuf b;
    sm_strbuf_init(&b);
    for (int i = k > 3 ? k - 3 : 0; i < k; i++) sm_strbuf_put(&b, "%s%s", b.n ? " | " : "", lines[i]);
    if (b.s) snprintf(tail, tlen, "%s", b.s);
    free(b.s);
}

static int read_exit(const sm_run_job *job, int *code)
{
    char *p = join(job->dir, "EXIT");
    FILE *f = fopen(p, "r");
    free(p);
    if (!f) return 0;
    int ok = fscanf(f, "%d", code) == 1;
    fclose(f);
    return ok;
}

static void finish(sm_run_job *job, int code)
{
    char tail[400];
    read_log(job, tail, sizeof tail);
    job->exit_code = code;
    if (code == 0 && access(job->result, R_OK) == 0) {
        job->state = SM_JOB_DONE;
        return;
    }
    job->state = SM_JOB_FAILED;
    if (code == 0)
        snprintf(job->why, sizeof job->why, "the job ended without writing %s: %s", job->result, tail);
    else
        snprintf(job->why, sizeof job->why, "mpirun exited %d (a rank died or refused its input): %s", code,
                 tail[0] ? tail : "no output");
}

void sm_run_job_poll(sm_run_job *job)
{
    if (job->state != SM_JOB_RUNNING) return;
    char tail[8];
    read_log(job, tail, sizeof tail);
    int code;
    if (!job->slurm) {
        int st;
        pid_t r = waitpid(job->pid, &st, WNOHANG);
        if (r == job->pid) {
            job->pid = -1;
            if (!read_exit(job, &code)) code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            finish(job, code);
        } else if (r < 0 && errno == ECHILD) {
            job->pid = -1;
            finish(job, read_exit(job, &code) ? code : -1);
        }
        return;
    }
    if (read_exit(job, &code)) {
        finish(job, code);
        return;
    }
    /* Still queued or running? */
    char out[512];
    char *argv[] = {"squeue", "-h", "-j", job->jobid, "-o", "%T", NULL};
    int st = capture(argv, NULL, out, sizeof out);
    trim(out);
    if (st == 0 && out[0] == '\0' && !read_exit(job, &code)) {
        job->state = SM_JOB_FAILED;
        job->exit_code = -1;
        snprintf(job->why, sizeof job->why,
                 "Slurm job %s left the queue without finishing (cancelled, time limit or node failure: "
                 "sacct -j %s)", job->jobid, job->jobid);
    } else if (st == 0 && out[0] == '\0') {
        finish(job, code);
    }
}

void sm_run_job_stop(sm_run_job *job)
{
    if (job->state != SM_JOB_RUNNING) return;
    if (job->slurm) {
        char out[256];
        char *argv[] = {"scancel", job->jobid, NULL};
        capture(argv, NULL, out, sizeof out);
    } else if (job->pid > 0) {
        kill(-job->pid, SIGTERM);
        int st;
        for (int i = 0; i < 50 && waitpid(job->pid, &st, WNOHANG) == 0; i++) sm_run_sleep_ms(100);
        if (waitpid(job->pid, &st, WNOHANG) == 0) {
            kill(-job->pid, SIGKILL);
            waitpid(job->pid, &st, 0);
        }
        job->pid = -1;
    }
    job->state = SM_JOB_FAILED;
    snprintf(job->why, sizeof job->why, "stopped (run stop)");
}

/* A start that fails leaves nothing behind: not the files (undo_written)
 * and not the paths it had named in job. */
int sm_run_job_start(const sm_session *s, const sm_run_opts *o, sm_run_job *job, sm_err *e)
{
    int rc = start_job(s, o, job, e);
    if (rc != 0) sm_run_job_free(job);
    return rc;
}

void sm_run_job_free(sm_run_job *job)
{
    free(job->dir);
    free(job->script);
    free(job->rankfile);
    free(job->blocks);
    free(job->log);
    free(job->result);
    memset(job, 0, sizeof *job);
    job->pid = -1;
}
