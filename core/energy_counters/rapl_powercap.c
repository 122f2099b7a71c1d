/* rapl_powercap.c - RAPL energy counters through Linux powercap (rapl_powercap.h). */
#include "rapl_powercap.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sm_powercap_root(void)
{
    const char *r = getenv("STENCILMAP_POWERCAP");
    return r && *r ? r : "/sys/class/powercap";
}

/* Reads a small file whole; its first line without the newline. */
static int read_line(const char *path, char *buf, size_t len, char *why, size_t wlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == EACCES || errno == EPERM)
            snprintf(why, wlen,
                     "%s: %s (Linux 5.10 and later let only root read RAPL energy counters)",
                     path, strerror(errno));
        else snprintf(why, wlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t n = fread(buf, 1, len - 1, f);
    int err = ferror(f);
    fclose(f);
    if (err) {
        snprintf(why, wlen, "%s: read error", path);
        return -1;
    }
    buf[n] = 0;
    buf[strcspn(buf, "\n")] = 0;
    return 0;
}

static int read_u64(const char *path, uint64_t *out, char *why, size_t wlen)
{
    char buf[64], *end;
    if (read_line(path, buf, sizeof buf, why, wlen)) return -1;
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 10);
    if (end == buf || *end || errno || buf[0] == '-') {
        snprintf(why, wlen, "%s: expected a count of microjoules, got \"%.32s\"", path, buf);
        return -1;
    }
    *out = v;
    return 0;
}

uint64_t sm_rapl_delta(uint64_t before, uint64_t after, uint64_t max_range)
{
    if (after >= before) return after - before;
    /* Wrapped once: up to the top of the range, then from 0. */
    return max_range >= before ? (max_range - before) + after : after;
}

/* "intel-rapl:P" or "intel-rapl:P:S"; 1 for a zone, 2 for a subzone. */
static int zone_depth(const char *id)
{
    if (strncmp(id, "intel-rapl:", 11) != 0) return 0;
    const char *p = id + 11;
    int depth = 0;
    while (*p) {
        if (*p < '0' || *p > '9') return 0;
        while (*p >= '0' && *p <= '9') p++;
        depth++;
        if (*p == ':') p++;
        else if (*p) return 0;
    }
    return depth;
}

static int cmp_id(const void *a, const void *b)
{
    return strcmp(((const sm_rapl_zone *)a)->id, ((const sm_rapl_zone *)b)->id);
}

static char *join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 3;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s/%s%s%s", a, b, *c ? "/" : "", c);
    return s;
}

sm_powercap *sm_powercap_open(const char *root, char *why, size_t len)
{
    if (!root) root = sm_powercap_root();
    DIR *d = opendir(root);
    if (!d) {
        snprintf(why, len, "no powercap at %s (%s): the kernel exposes no RAPL counters here",
                 root, strerror(errno));
        return NULL;
    }
    sm_powercap *pc = calloc(1, sizeof *pc);
    if (!pc || !(pc->root = strdup(root))) {
        free(pc);
        closedir(d);
        snprintf(why, len, "out of memory");
        return NULL;
    }
    int cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        int depth = zone_depth(de->d_name);
        if (!depth || strlen(de->d_name) >= sizeof pc->zones[0].id) continue;
        char name[64] = "", w[256];
        char *np = join(root, de->d_name, "name");
        int ok = np && read_line(np, name, sizeof name, w, sizeof w) == 0;
        free(np);
        if (!ok) continue;
        int package = -1, dram = 0;
        if (depth == 1) {
            if (sscanf(name, "package-%d", &package) != 1) continue; /* psys */
        } else {
            if (strcmp(name, "dram") != 0) continue; /* core, uncore: inside the package */
            dram = 1;
        }
        if (pc->nzones == cap) {
            cap = cap ? 2 * cap : 8;
            sm_rapl_zone *z = realloc(pc->zones, (size_t)cap * sizeof *z);
            if (!z) break;
            pc->zones = z;
        }
        sm_rapl_zone *z = &pc->zones[pc->nzones++];
        memset(z, 0, sizeof *z);
        snprintf(z->id, sizeof z->id, "%s", de->d_name);
        snprintf(z->name, sizeof z->name, "%s", name);
        z->package = package;
        z->dram = dram;
        z->energy_path = join(root, de->d_name, "energy_uj");
        char *mp = join(root, de->d_name, "max_energy_range_uj");
        if (!z->energy_path || !mp) snprintf(z->why, sizeof z->why, "out of memory");
        else if (read_u64(mp, &z->max_range, z->why, sizeof z->why) == 0)
            read_u64(z->energy_path, &z->last, z->why, sizeof z->why);
        free(mp);
    }
    closedir(d);
    if (pc->nzones == 0) {
        snprintf(why, len, "%s holds no RAPL package zone (intel-rapl:N named package-N)", root);
        sm_powercap_close(pc);
        return NULL;
    }
    qsort(pc->zones, (size_t)pc->nzones, sizeof *pc->zones, cmp_id);
    /* A subzone belongs to the package of its zone. */
    for (int i = 0; i < pc->nzones; i++) {
        sm_rapl_zone *z = &pc->zones[i];
        if (!z->dram) continue;
        for (int k = 0; k < pc->nzones; k++) {
            size_t n = strlen(pc->zones[k].id);
            if (!pc->zones[k].dram && strncmp(z->id, pc->zones[k].id, n) == 0 && z->id[n] == ':')
                z->package = pc->zones[k].package;
        }
    }
    return pc;
}

void sm_powercap_close(sm_powercap *pc)
{
    if (!pc) return;
    for (int i = 0; i < pc->nzones; i++) free(pc->zones[i].energy_path);
    free(pc->zones);
    free(pc->root);
    free(pc);
}

int sm_powercap_package(const sm_powercap *pc, int package)
{
    for (int i = 0; i < pc->nzones; i++)
        if (!pc->zones[i].dram && pc->zones[i].package == package) return i;
    return -1;
}

int sm_powercap_readable(const sm_powercap *pc, int package, char *why, size_t len)
{
    int z = sm_powercap_package(pc, package);
    if (z < 0) {
        snprintf(why, len, "%s has no zone for package %d", pc->root, package);
        return 0;
    }
    for (int i = 0; i < pc->nzones; i++)
        if (pc->zones[i].package == package && pc->zones[i].why[0]) {
            snprintf(why, len, "%s", pc->zones[i].why);
            return 0;
        }
    return 1;
}

int sm_powercap_sample(sm_powercap *pc, char *why, size_t len)
{
    int rc = 0;
    for (int i = 0; i < pc->nzones; i++) {
        sm_rapl_zone *z = &pc->zones[i];
        if (z->why[0]) continue;
        uint64_t now;
        if (read_u64(z->energy_path, &now, why, len)) {
            rc = -1;
            continue;
        }
        z->joules += (double)sm_rapl_delta(z->last, now, z->max_range) * 1e-6;
        z->last = now;
    }
    return rc;
}

void sm_powercap_reset(sm_powercap *pc)
{
    for (int i = 0; i < pc->nzones; i++) pc->zones[i].joules = 0;
}

double sm_powercap_joules(const sm_powercap *pc, int package, int with_dram)
{
    double j = 0;
    for (int i = 0; i < pc->nzones; i++)
        if (pc->zones[i].package == package && (with_dram || !pc->zones[i].dram))
            j += pc->zones[i].joules;
    return j;
}
