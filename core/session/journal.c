/* journal.c - the session journal (see journal.h). */
#define _POSIX_C_SOURCE 200809L
#include "journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/lib/jsonutil.h"

struct sm_journal {
    char *path;
    int fd;
    unsigned long long structure; /* of the last snapshot */
    const sm_session *session;    /* the session last synced */
    int *map;                     /* the mapping as journaled */
    int n;
    int fresh;                    /* nothing written yet */
};

#define MAGIC "stencilmap-journal 1\n"

char *sm_journal_dir(void)
{
    const char *x = getenv("XDG_STATE_HOME");
    char *base;
    if (x && x[0] == '/') base = sm_xstrdup(x);
    else {
        const char *h = getenv("HOME");
        base = sm_path_join(h && *h ? h : "/tmp", ".local/state");
    }
    char *d = sm_path_join(base, "stencilmap");
    free(base);
    return d;
}

static int mkdirs(const char *path)
{
    char *p = sm_xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = mkdir(p, 0700) != 0 && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

sm_journal *sm_journal_open(const char *dir, sm_err *e)
{
    char *d = dir ? sm_xstrdup(dir) : sm_journal_dir();
    if (mkdirs(d) != 0) {
        sm_err_set(e, "%s: cannot create the journal directory: %s", d, strerror(errno));
        free(d);
        return NULL;
    }
    char name[64];
    snprintf(name, sizeof name, "session-%ld.journal", (long)getpid());
    sm_journal *j = sm_xcalloc(1, sizeof *j);
    j->path = sm_path_join(d, name);
    free(d);
    j->fd = open(j->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (j->fd < 0) {
        sm_err_set(e, "%s: cannot create: %s", j->path, strerror(errno));
        free(j->path);
        free(j);
        return NULL;
    }
    j->fresh = 1;
    return j;
}

const char *sm_journal_path(const sm_journal *j)
{
    return j->path;
}

static int put(sm_journal *j, const char *buf, size_t len, sm_err *e)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(j->fd, buf + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            sm_err_set(e, "%s: write failed: %s", j->path, strerror(errno));
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

static int snapshot(sm_journal *j, const sm_session *s, sm_err *e)
{
    const int *map = sm_session_map(s);
    cJSON *json = sm_scenario_to_json(s->grid, s->topo, &s->model, map);
    char *text = cJSON_PrintUnformatted(json);
    cJSON_Delete(json);
    if (!text) {
        sm_err_set(e, "%s: out of memory writing a snapshot", j->path);
        return -1;
    }
    size_t len = strlen(text);
    char head[64];
    int hn = snprintf(head, sizeof head, "%sS %zu\n", j->fresh ? MAGIC : "", len);
    int rc = put(j, head, (size_t)hn, e) || put(j, text, len, e) || put(j, "\nC 0\n", 5, e);
    free(text);
    if (rc) return -1;
    j->fresh = 0;
    j->n = s->grid->ntasks;
    j->map = sm_xrealloc(j->map, sizeof(int) * (size_t)(j->n ? j->n : 1));
    memcpy(j->map, map, sizeof(int) * (size_t)j->n);
    j->structure = s->structure;
    j->session = s;
    return 0;
}

int sm_journal_sync(sm_journal *j, const sm_session *s, sm_err *e)
{
    int rc;
    if (j->fresh || j->session != s || j->structure != s->structure || j->n != s->grid->ntasks) {
        rc = snapshot(j, s, e);
    } else {
        const int *map = sm_session_map(s);
        int changed = 0;
        for (int b = 0; b < j->n; b++) changed += map[b] != j->map[b];
        if (changed == 0) return 0;
        /* A big change (a solver's mapping) is smaller as a snapshot. */
        if (changed > j->n / 4 + 16) {
            rc = snapshot(j, s, e);
        } else {
            size_t cap = (size_t)changed * 28 + 32, len = 0;
            char *buf = sm_xmalloc(cap);
            for (int b = 0; b < j->n; b++)
                if (map[b] != j->map[b]) {
                    len += (size_t)snprintf(buf + len, cap - len, "M %d %d\n", b, map[b]);
                    j->map[b] = map[b];
                }
            len += (size_t)snprintf(buf + len, cap - len, "C %d\n", changed);
            rc = put(j, buf, len, e);
            free(buf);
        }
    }
    /* On disk before the next key: a kill -9 loses nothing. */
    if (rc == 0 && fdatasync(j->fd) != 0 && errno != EINVAL) {
        sm_err_set(e, "%s: sync failed: %s", j->path, strerror(errno));
        rc = -1;
    }
    return rc;
}

void sm_journal_close(sm_journal *j, int remove_file)
{
    if (!j) return;
    close(j->fd);
    if (remove_file) unlink(j->path);
    free(j->path);
    free(j->map);
    free(j);
}

char *sm_journal_find_orphan(const char *dir)
{
    char *d = dir ? sm_xstrdup(dir) : sm_journal_dir();
    DIR *dh = opendir(d);
    char *best = NULL;
    time_t best_t = 0;
    if (dh) {
        struct dirent *de;
        while ((de = readdir(dh)) != NULL) {
            long pid;
            char tail[16];
            if (sscanf(de->d_name, "session-%ld.%15s", &pid, tail) != 2 ||
                strcmp(tail, "journal") != 0)
                continue;
            if (pid == (long)getpid()) continue;
            if (kill((pid_t)pid, 0) == 0 || errno == EPERM) continue; /* still running */
            char *p = sm_path_join(d, de->d_name);
            struct stat st;
            if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
                (!best || st.st_mtime >= best_t)) {
                free(best);
                best = p;
                best_t = st.st_mtime;
            } else {
                free(p);
            }
        }
        closedir(dh);
    }
    free(d);
    return best;
}

int sm_journal_read(const char *path, sm_scenario *out, sm_err *e)
{
    size_t len;
    char *text = sm_read_file(path, 1u << 30, &len, e);
    if (!text) return -1;
    memset(out, 0, sizeof *out);
    if (strncmp(text, MAGIC, strlen(MAGIC)) != 0) {
        sm_err_set(e, "%s: not a stencilmap journal", path);
        free(text);
        return -1;
    }
    char *p = text + strlen(MAGIC), *end = text + len;
    int have = 0, n = 0;
    int *pending_b = NULL, *pending_p = NULL, npend = 0, cap = 0;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break; /* a torn last line */
        if (p[0] == 'S') {
            size_t sz = strtoull(p + 2, NULL, 10);
            char *body = nl + 1;
            if (sz > (size_t)(end - body) || body + sz >= end || body[sz] != '\n') break;
            sm_scenario sc;
            sm_err e2;
            char save = body[sz];
            body[sz] = '\0';
            int bad = sm_scenario_parse_text(body, sz, path, ".", &sc, &e2);
            body[sz] = save;
            if (bad) break;
            if (have) sm_scenario_release(out);
            *out = sc;
            n = out->grid->ntasks;
            if (!out->map) {
                out->map = sm_xcalloc((size_t)(n ? n : 1), sizeof(int));
            }
            have = 1;
            npend = 0;
            p = body + sz + 1;
            continue;
        }
        if (p[0] == 'M' && have) {
            long b, q;
            if (sscanf(p, "M %ld %ld", &b, &q) != 2 || b < 0 || b >= n || q < 0 ||
                q >= out->topo->nprocs)
                break;
            if (npend == cap) {
                cap = cap ? 2 * cap : 64;
                pending_b = sm_xrealloc(pending_b, sizeof(int) * (size_t)cap);
                pending_p = sm_xrealloc(pending_p, sizeof(int) * (size_t)cap);
            }
            pending_b[npend] = (int)b;
            pending_p[npend++] = (int)q;
        } else if (p[0] == 'C' && have) {
            for (int i = 0; i < npend; i++) out->map[pending_b[i]] = pending_p[i];
            npend = 0;
        } else {
            break;
        }
        p = nl + 1;
    }
    free(pending_b);
    free(pending_p);
    free(text);
    if (!have) {
        sm_err_set(e, "%s: no complete snapshot in the journal", path);
        return -1;
    }
    return 0;
}
