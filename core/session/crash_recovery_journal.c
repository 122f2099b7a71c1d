/* crash_recovery_journal.c - the session journal (see crash_recovery_journal.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* flock, realpath */
#include "crash_recovery_journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/lib/jsonutil.h"

struct sm_journal {
    char *path;
    int fd;                       /* holds the flock while open */
    unsigned long long structure; /* of the last snapshot */
    const sm_session *session;    /* the session last synced */
    int *map;                     /* the mapping as journaled */
    int n;
    unsigned long long mark;      /* the session's touched-block log, as synced */
    unsigned unsaved;             /* the D record last written */
    int fresh;                    /* nothing written yet */
    int need_snapshot;            /* adopted: the next sync snapshots */
};

#define MAGIC "stencilmap-journal 2\n"
#define MAGIC1 "stencilmap-journal 1\n"
#define MAGIC_LEN 21

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

char *sm_journal_key(const char *file)
{
    if (!file || !*file) return sm_xstrdup("");
    char *r = realpath(file, NULL);
    if (r) {
        char *k = sm_xstrdup(r);
        free(r);
        return k;
    }
    /* Not there (yet): absolute, as named. */
    if (file[0] == '/') return sm_xstrdup(file);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return sm_xstrdup(file);
    return sm_path_join(cwd, file);
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

static int put(sm_journal *j, const char *buf, size_t len, sm_err *e);

static int put_scenario(sm_journal *j, const char *file, sm_err *e)
{
    char *key = sm_journal_key(file);
    size_t kl = strlen(key);
    char head[64];
    int hn = snprintf(head, sizeof head, "%sF %zu\n", j->fresh ? MAGIC : "", kl);
    int rc = put(j, head, (size_t)hn, e) || put(j, key, kl, e) || put(j, "\n", 1, e);
    free(key);
    if (rc == 0) j->fresh = 0;
    return rc ? -1 : 0;
}

sm_journal *sm_journal_open(const char *dir, const char *scenario_file, sm_err *e)
{
    char *d = dir ? sm_xstrdup(dir) : sm_journal_dir();
    if (mkdirs(d) != 0) {
        sm_err_set(e, "%s: cannot create the journal directory: %s", d, strerror(errno));
        free(d);
        return NULL;
    }
    sm_journal *j = sm_xcalloc(1, sizeof *j);
    j->fd = -1;
    /* A new name, never an old journal's: a dead workbench may have had
     * this pid, and its journal is someone's only copy. */
    for (int k = 0; k < 1000 && j->fd < 0; k++) {
        char name[80];
        snprintf(name, sizeof name, "session-%ld-%d.journal", (long)getpid(), k);
        free(j->path);
        j->path = sm_path_join(d, name);
        j->fd = open(j->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (j->fd < 0 && errno != EEXIST) break;
    }
    free(d);
    if (j->fd < 0) {
        sm_err_set(e, "%s: cannot create: %s", j->path, strerror(errno));
        free(j->path);
        free(j);
        return NULL;
    }
    if (flock(j->fd, LOCK_EX | LOCK_NB) != 0) {
        sm_err_set(e, "%s: cannot lock: %s", j->path, strerror(errno));
        sm_journal_close(j, 1);
        return NULL;
    }
    j->fresh = 1;
    if (put_scenario(j, scenario_file, e)) {
        sm_journal_close(j, 1);
        return NULL;
    }
    return j;
}

sm_journal *sm_journal_adopt(const char *path, sm_err *e)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        sm_err_set(e, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        sm_err_set(e, "%s: not a journal (not a regular file)", path);
        close(fd);
        return NULL;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        sm_err_set(e, "%s: in use by a running workbench", path);
        close(fd);
        return NULL;
    }
    sm_journal *j = sm_xcalloc(1, sizeof *j);
    j->path = sm_xstrdup(path);
    j->fd = fd;
    j->need_snapshot = 1;
    j->unsaved = ~0u; /* the next sync says what is unsaved now */
    return j;
}

const char *sm_journal_path(const sm_journal *j)
{
    return j->path;
}

int sm_journal_set_scenario(sm_journal *j, const char *scenario_file, sm_err *e)
{
    if (put_scenario(j, scenario_file, e)) return -1;
    if (fdatasync(j->fd) != 0 && errno != EINVAL) {
        sm_err_set(e, "%s: sync failed: %s", j->path, strerror(errno));
        return -1;
    }
    return 0;
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
    /* The mapping compact above SM_MAPPING_PLAIN_MAX blocks: a whole
     * Summit's snapshot is megabytes, not 250. */
    size_t len;
    char *text = sm_scenario_print(s->grid, s->topo, &s->model, map, SM_MAPPING_AUTO, 0, &len);
    if (!text) {
        sm_err_set(e, "%s: out of memory writing a snapshot", j->path);
        return -1;
    }
    char head[64];
    int hn = snprintf(head, sizeof head, "%sS %zu\n", j->fresh ? MAGIC : "", len);
    int rc = put(j, head, (size_t)hn, e) || put(j, text, len, e) || put(j, "\nC 0\n", 5, e);
    free(text);
    if (rc) return -1;
    j->fresh = 0;
    j->need_snapshot = 0;
    j->n = s->grid->ntasks;
    j->map = sm_xrealloc(j->map, sizeof(int) * (size_t)(j->n ? j->n : 1));
    memcpy(j->map, map, sizeof(int) * (size_t)j->n);
    j->structure = s->structure;
    j->session = s;
    j->mark = sm_session_touch_mark(s);
    return 0;
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The M records of the blocks that differ from the journaled mapping
 * (in block order), and the C that ends their group. */
static int put_group(sm_journal *j, const int *map, int *blocks, int changed, sm_err *e)
{
    qsort(blocks, (size_t)changed, sizeof *blocks, int_cmp);
    size_t cap = (size_t)changed * 28 + 32, len = 0;
    char *buf = sm_xmalloc(cap);
    for (int i = 0; i < changed; i++) {
        len += (size_t)snprintf(buf + len, cap - len, "M %d %d\n", blocks[i], map[blocks[i]]);
        j->map[blocks[i]] = map[blocks[i]];
    }
    len += (size_t)snprintf(buf + len, cap - len, "C %d\n", changed);
    int rc = put(j, buf, len, e);
    free(buf);
    return rc;
}

static int put_changes(sm_journal *j, const sm_session *s, sm_err *e)
{
    if (j->fresh || j->need_snapshot || j->session != s || j->structure != s->structure ||
        j->n != s->grid->ntasks)
        return snapshot(j, s, e);
    const int *map = sm_session_map(s);
    /* What the session changed since the last sync, when its log reaches
     * back that far: an edit costs what it moved, not the grid. */
    int nt;
    const int *t = sm_session_touched_since(s, j->mark, &nt);
    j->mark = sm_session_touch_mark(s);
    if (t) {
        if (nt == 0) return 0;
        int *blocks = sm_xmalloc(sizeof(int) * (size_t)nt), changed = 0;
        for (int i = 0; i < nt; i++) {
            int b = t[i];
            if (j->map[b] < 0 || map[b] == j->map[b]) continue;
            j->map[b] = -1 - j->map[b]; /* listed once, restored below */
            blocks[changed++] = b;
        }
        for (int i = 0; i < changed; i++) j->map[blocks[i]] = -1 - j->map[blocks[i]];
        int rc = changed ? put_group(j, map, blocks, changed, e) : 0;
        free(blocks);
        return rc;
    }
    int changed = 0;
    for (int b = 0; b < j->n; b++) changed += map[b] != j->map[b];
    if (changed == 0) return 0;
    /* A big change (a solver's mapping) is smaller as a snapshot. */
    if (changed > j->n / 4 + 16) return snapshot(j, s, e);
    int *blocks = sm_xmalloc(sizeof(int) * (size_t)changed);
    changed = 0;
    for (int b = 0; b < j->n; b++)
        if (map[b] != j->map[b]) blocks[changed++] = b;
    int rc = put_group(j, map, blocks, changed, e);
    free(blocks);
    return rc;
}

int sm_journal_sync(sm_journal *j, const sm_session *s, sm_err *e)
{
    off_t before = lseek(j->fd, 0, SEEK_END);
    int rc = put_changes(j, s, e);
    /* What is not on disk yet, so the next start offers only real work. */
    unsigned unsaved = s->dirty_parts & SM_PART_ALL;
    if (rc == 0 && unsaved != j->unsaved) {
        char d[32];
        int n = snprintf(d, sizeof d, "D %u\n", unsaved);
        rc = put(j, d, (size_t)n, e);
        if (rc == 0) j->unsaved = unsaved;
    }
    /* On disk before the next key: a kill -9 loses nothing. */
    if (rc == 0 && lseek(j->fd, 0, SEEK_END) != before && fdatasync(j->fd) != 0 && errno != EINVAL) {
        sm_err_set(e, "%s: sync failed: %s", j->path, strerror(errno));
        rc = -1;
    }
    return rc;
}

void sm_journal_close(sm_journal *j, int remove_file)
{
    if (!j) return;
    /* Removed while still locked: nobody takes it over in between. */
    if (remove_file) unlink(j->path);
    if (j->fd >= 0) close(j->fd);
    free(j->path);
    free(j->map);
    free(j);
}

/* The F and D records of a journal, read without its snapshots' text. */
static int scan(FILE *f, char **scenario, unsigned *unsaved, int *version)
{
    char line[128];
    if (!fgets(line, sizeof line, f)) return -1;
    if (strcmp(line, MAGIC) == 0) *version = 2;
    else if (strcmp(line, MAGIC1) == 0) *version = 1;
    else return -1;
    *scenario = sm_xstrdup("");
    *unsaved = *version == 1 ? SM_PART_ALL : 0;
    while (fgets(line, sizeof line, f)) {
        size_t ll = strlen(line);
        if (ll == 0 || line[ll - 1] != '\n') break; /* torn, or not ours */
        unsigned long long n;
        if (line[0] == 'S' && sscanf(line, "S %llu", &n) == 1) {
            if (n > (1ull << 40) || fseeko(f, (off_t)n + 1, SEEK_CUR) != 0) break;
        } else if (line[0] == 'F' && sscanf(line, "F %llu", &n) == 1 && n < 65536) {
            char *k = sm_xmalloc((size_t)n + 2);
            if (fread(k, 1, (size_t)n + 1, f) != (size_t)n + 1 || k[n] != '\n') {
                free(k);
                break;
            }
            k[n] = '\0';
            free(*scenario);
            *scenario = k;
        } else if (line[0] == 'D' && sscanf(line, "D %llu", &n) == 1) {
            *unsaved = (unsigned)n & SM_PART_ALL;
        }
    }
    return 0;
}

/* A version 1 journal (no lock) is live while the pid in its name runs. */
static int v1_live(int version, const char *name)
{
    long pid;
    char tail[16];
    return version == 1 && sscanf(name, "session-%ld.%15s", &pid, tail) == 2 &&
           pid != (long)getpid() && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* Is a journal's workbench running? Its lock says. */
static int is_live(int fd, int version, const char *name)
{
    if (flock(fd, LOCK_SH | LOCK_NB) != 0) return errno == EWOULDBLOCK || errno == EAGAIN;
    flock(fd, LOCK_UN);
    return v1_live(version, name);
}

static int cmp_newest(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    const sm_journal_info *x = a, *y = b;
    if (x->modified != y->modified) return x->modified > y->modified ? -1 : 1;
    return strcmp(x->path, y->path);
}

int sm_journal_list(const char *dir, sm_journal_info **out)
{
    char *d = dir ? sm_xstrdup(dir) : sm_journal_dir();
    DIR *dh = opendir(d);
    sm_journal_info *v = NULL;
    int n = 0, cap = 0;
    if (dh) {
        struct dirent *de;
        while ((de = readdir(dh)) != NULL) {
            size_t nl = strlen(de->d_name);
            if (nl < 9 || strcmp(de->d_name + nl - 8, ".journal") != 0) continue;
            char *p = sm_path_join(d, de->d_name);
            int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
            struct stat st;
            FILE *f = NULL;
            if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
                if (fd >= 0) close(fd);
                free(p);
                continue;
            }
            char *scenario = NULL;
            unsigned unsaved = 0;
            int version = 0;
            if (scan(f, &scenario, &unsaved, &version) != 0) {
                fclose(f);
                free(scenario);
                free(p);
                continue;
            }
            if (n == cap) v = sm_xrealloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 8));
            v[n++] = (sm_journal_info){p, scenario, is_live(fileno(f), version, de->d_name), unsaved,
                                       (long long)st.st_size, st.st_mtime};
            fclose(f);
        }
        closedir(dh);
    }
    free(d);
    if (n > 1) sm_sort_r(v, (size_t)n, sizeof *v, cmp_newest, NULL);
    *out = v;
    return n;
}

void sm_journal_list_free(sm_journal_info *v, int n)
{
    for (int i = 0; i < n; i++) {
        free(v[i].path);
        free(v[i].scenario);
    }
    free(v);
}

int sm_journal_discard(const char *path, sm_err *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        sm_err_set(e, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    char head[MAGIC_LEN + 1] = "";
    ssize_t got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, head, MAGIC_LEN) : -1;
    if (got != MAGIC_LEN || (memcmp(head, MAGIC, MAGIC_LEN) != 0 && memcmp(head, MAGIC1, MAGIC_LEN) != 0)) {
        sm_err_set(e, "%s: not a stencilmap journal", path);
        close(fd);
        return -1;
    }
    const char *base = strrchr(path, '/');
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 ||
        v1_live(memcmp(head, MAGIC1, MAGIC_LEN) == 0 ? 1 : 2, base ? base + 1 : path)) {
        sm_err_set(e, "%s: in use by a running workbench (never removed)", path);
        close(fd);
        return -1;
    }
    int rc = unlink(path);
    int err = errno;
    close(fd);
    if (rc != 0) {
        sm_err_set(e, "%s: cannot remove: %s", path, strerror(err));
        return -1;
    }
    return 0;
}

int sm_journal_read(const char *path, sm_scenario *out, char **scenario, unsigned *unsaved, sm_err *e)
{
    size_t len;
    char *text = sm_read_file(path, SM_READ_ANY_SIZE, &len, e);
    if (!text) return -1;
    int rc = sm_journal_parse(text, len, path, out, scenario, unsaved, e);
    free(text);
    return rc;
}

int sm_journal_parse(char *text, size_t len, const char *path, sm_scenario *out, char **scenario,
                     unsigned *unsaved, sm_err *e)
{
    memset(out, 0, sizeof *out);
    if (len < MAGIC_LEN ||
        (memcmp(text, MAGIC, MAGIC_LEN) != 0 && memcmp(text, MAGIC1, MAGIC_LEN) != 0)) {
        sm_err_set(e, "%s: not a stencilmap journal", path);
        return -1;
    }
    unsigned parts = memcmp(text, MAGIC1, MAGIC_LEN) == 0 ? SM_PART_ALL : 0;
    char *file = sm_xstrdup("");
    char *p = text + MAGIC_LEN, *end = text + len;
    int have = 0, n = 0;
    int *pending_b = NULL, *pending_p = NULL, npend = 0, cap = 0;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break; /* a torn last line */
        if (p[0] == 'S' || p[0] == 'F') {
            char *num_end;
            unsigned long long sz = strtoull(p + 2, &num_end, 10);
            char *body = nl + 1;
            if (p[1] != ' ' || num_end != nl || sz > (size_t)(end - body) || body + sz >= end ||
                body[sz] != '\n')
                break;
            if (p[0] == 'F') {
                free(file);
                file = sm_xmalloc((size_t)sz + 1);
                memcpy(file, body, (size_t)sz);
                file[sz] = '\0';
                p = body + sz + 1;
                continue;
            }
            sm_scenario sc;
            sm_err e2;
            char save = body[sz];
            body[sz] = '\0';
            int bad = sm_scenario_parse_text(body, (size_t)sz, path, ".", &sc, &e2);
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
        if (p[0] == 'D') {
            unsigned long long d;
            if (sscanf(p, "D %llu", &d) != 1) break;
            parts = (unsigned)d & SM_PART_ALL;
        } else if (p[0] == 'M' && have) {
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
    if (!have) {
        free(file);
        sm_err_set(e, "%s: no complete snapshot in the journal", path);
        return -1;
    }
    if (scenario) *scenario = file;
    else free(file);
    if (unsaved) *unsaved = parts;
    return 0;
}
