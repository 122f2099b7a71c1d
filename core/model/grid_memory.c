/* grid_memory.c - the memory a grid will take, checked before building
 * it (see grid_memory.h). */
#include "grid_memory.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int64_t sm_grid_edges_bound(const sm_grid_spec *s)
{
    int64_t total = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int o[3] = {dx, dy, dz}, nz = (dx != 0) + (dy != 0) + (dz != 0);
                if (nz == 0) continue;
                if ((s->stencil == SM_ST_5PT || s->stencil == SM_ST_7PT) && nz != 1) continue;
                if ((s->stencil == SM_ST_5PT || s->stencil == SM_ST_9PT) && dz != 0) continue;
                /* Blocks with a neighbour at offset o: per axis, all of
                 * them when it does not move or wraps, one fewer when it
                 * stops at the edge, none along an axis of one block. */
                int64_t k = 1;
                for (int a = 0; a < 3; a++) {
                    int64_t b = s->blocks[a];
                    if (o[a] == 0) k *= b;
                    else if (b == 1) k = 0;
                    else k *= s->periodic[a] ? b : b - 1;
                }
                total += k;
            }
    return total;
}

int64_t sm_grid_memory_estimate(const sm_grid_spec *s)
{
    int64_t n = (int64_t)s->blocks[0] * s->blocks[1] * s->blocks[2];
    int64_t e = sm_grid_edges_bound(s);
    /* Task graph (grid.c): cells per block (8), the two offset arrays
     * (2 x 4) and the temporary fill array (4) per block; per edge the
     * edge (12), its two incidence entries (8) and room for two
     * neighbour entries (8). */
    int64_t graph = 20 * n + 28 * e;
    /* The cost state's mapping, the lb mapping it is built from and the
     * copies the session and the workbench keep (the journal's, the map
     * as last shown, the last-move marks, the selection): 22 bytes a
     * block; the undo log's touched blocks, an eighth of them. */
    int64_t state = 22 * n + n / 2;
    return graph + state;
}

const char *sm_memory_human(int64_t b, char *buf, size_t n)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) v /= 1024, u++;
    snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

int64_t sm_memory_available(const char **from, sm_err *e)
{
    const char *env = getenv("STENCILMAP_MEMORY");
    if (env && env[0]) {
        *from = "STENCILMAP_MEMORY";
        char *end;
        errno = 0;
        double v = strtod(env, &end);
        double mul = 1;
        switch (*end) {
        case 'K': case 'k': mul = 1024.0; end++; break;
        case 'M': case 'm': mul = 1024.0 * 1024; end++; break;
        case 'G': case 'g': mul = 1024.0 * 1024 * 1024; end++; break;
        case 'T': case 't': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
        }
        if (*end == 'B' || *end == 'b') end++;
        if (errno || end == env || *end || !(v >= 0) || v * mul > 9e18) {
            sm_err_set_code(e, "MEMORY",
                            "STENCILMAP_MEMORY: expected bytes, optionally with a K, M, G or T suffix "
                            "(\"16G\"), got \"%.100s\"", env);
            return -2;
        }
        return (int64_t)(v * mul);
    }
    *from = "MemAvailable in /proc/meminfo";
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return -1;
    char line[256];
    long long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) break;
    fclose(f);
    return kb < 0 ? -1 : (int64_t)kb * 1024;
}

/* What the address-space and data limits (ulimit -v, ulimit -d) leave
 * this process: the limit less what it maps now. -1 when neither is set.
 * malloc fails past them whatever MemAvailable says. */
int64_t sm_memory_rlimit_room(void)
{
    int64_t room = -1;
    long page = sysconf(_SC_PAGESIZE);
    long long vsz = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lld %lld", &vsz, &rss) != 2) vsz = 0;
        fclose(f);
    }
    static const int which[] = {RLIMIT_AS, RLIMIT_DATA};
    for (int i = 0; i < 2; i++) {
        struct rlimit rl;
        if (getrlimit(which[i], &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) continue;
        /* The data limit counts the heap, not the program's text and
         * libraries: against it, what is resident is the better guess. */
        int64_t used = (int64_t)(i == 0 ? vsz : rss) * page;
        int64_t r = (int64_t)rl.rlim_cur > used ? (int64_t)rl.rlim_cur - used : 0;
        if (room < 0 || r < room) room = r;
    }
    return room;
}

static int64_t cap = -1;
static const char *cap_what;

void sm_memory_set_cap(int64_t bytes, const char *what)
{
    cap = bytes;
    cap_what = what;
}

int64_t sm_memory_room(const char **from, int *capped, sm_err *e)
{
    int64_t avail = sm_memory_available(from, e);
    if (avail == -2) return -2;
    int64_t room = sm_memory_rlimit_room();
    if (room >= 0 && (avail < 0 || room < avail)) {
        avail = room;
        *from = "the process's RLIMIT_AS/RLIMIT_DATA (ulimit -v, -d) less what it maps now";
    }
    *capped = cap >= 0 && (avail < 0 || cap < avail);
    if (*capped) {
        avail = cap;
        *from = cap_what ? cap_what : "a cap";
    }
    return avail;
}

int sm_grid_memory_check(const sm_grid_spec *s, sm_err *e)
{
    const char *from = "";
    int capped = 0;
    int64_t avail = sm_memory_room(&from, &capped, e);
    if (avail == -2) return -1;
    if (avail < 0) return 0;
    int64_t need = sm_grid_memory_estimate(s);
    if (need <= avail) return 0;
    char a[32], b[32];
    int64_t n = (int64_t)s->blocks[0] * s->blocks[1] * s->blocks[2];
    sm_err_set_code(e, capped ? "SAFE LIMIT" : "MEMORY",
                    "%d x %d x %d = %lld blocks (%s, %lld task edges) need an estimated %s for the "
                    "task graph and cost state; %s available (%s)",
                    s->blocks[0], s->blocks[1], s->blocks[2], (long long)n, sm_stencil_name(s->stencil),
                    (long long)sm_grid_edges_bound(s), sm_memory_human(need, a, sizeof a), sm_memory_human(avail, b, sizeof b),
                    from);
    return -1;
}
