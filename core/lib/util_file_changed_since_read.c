/* util_file_changed_since_read.c - what this process last read or wrote at each path, so a
 * save can tell that another program (another instance of stencilmap,
 * an editor) changed the file since: the "file changed since reading it"
 * check of an editor (SPEC 5, Two instances). A path is known by its
 * directory's real path and its name; a file by device, inode, size and
 * modification time (another instance's atomic save makes a new inode). */
#define _GNU_SOURCE
#include "util.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct seen {
    char *key;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
} seen;

static seen *tab;
static int ntab, cap;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

int (*sm_file_changed_hook)(const char *path);

/* dir's real path (held open as dfd) joined with name; NULL if unknown. */
static char *key_at(int dfd, const char *name)
{
    char link[64], dir[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", dfd);
    ssize_t n = readlink(link, dir, sizeof dir - 1);
    if (n <= 0) return NULL;
    dir[n] = '\0';
    size_t len = (size_t)n + strlen(name) + 2;
    char *k = sm_xmalloc(len);
    snprintf(k, len, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
    return k;
}

static char *key_of(const char *path)
{
    return realpath(path, NULL);
}

static seen *find(const char *key)
{
    for (int i = 0; i < ntab; i++)
        if (strcmp(tab[i].key, key) == 0) return &tab[i];
    return NULL;
}

static void note(char *key, const struct stat *st)
{
    if (!key) return;
    pthread_mutex_lock(&mu);
    seen *s = find(key);
    if (s) {
        free(key);
    } else {
        if (ntab == cap) {
            cap = cap ? 2 * cap : 16;
            tab = sm_xrealloc(tab, sizeof *tab * (size_t)cap);
        }
        s = &tab[ntab++];
        s->key = key;
    }
    s->dev = st->st_dev;
    s->ino = st->st_ino;
    s->size = st->st_size;
    s->mtime = st->st_mtim;
    pthread_mutex_unlock(&mu);
}

void sm_filestate_note_read(const char *path, const struct stat *st)
{
    if (S_ISREG(st->st_mode)) note(key_of(path), st);
}

void sm_filestate_note_saved(int dfd, const char *name)
{
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) note(key_at(dfd, name), &st);
}

int sm_filestate_changed(int dfd, const char *name, const struct stat *now)
{
    char *key = key_at(dfd, name);
    if (!key) return 0;
    pthread_mutex_lock(&mu);
    const seen *s = find(key);
    int changed = s && (s->dev != now->st_dev || s->ino != now->st_ino || s->size != now->st_size ||
                        s->mtime.tv_sec != now->st_mtim.tv_sec ||
                        s->mtime.tv_nsec != now->st_mtim.tv_nsec);
    pthread_mutex_unlock(&mu);
    free(key);
    return changed;
}

void sm_filestate_forget(const char *path)
{
    char *key = key_of(path);
    if (!key) return;
    pthread_mutex_lock(&mu);
    seen *s = find(key);
    if (s) {
        free(s->key);
        *s = tab[--ntab];
    }
    pthread_mutex_unlock(&mu);
    free(key);
}

void sm_filestate_forget_all(void)
{
    pthread_mutex_lock(&mu);
    for (int i = 0; i < ntab; i++) free(tab[i].key);
    free(tab);
    tab = NULL;
    ntab = cap = 0;
    pthread_mutex_unlock(&mu);
}
