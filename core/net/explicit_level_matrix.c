/* explicit_level_matrix.c - an explicit node-by-node level matrix. */
#include "net.h"

#include <stdio.h>
#include <stdlib.h>
#include "core/lib/jsonutil.h"

static int load(sm_net *n, const cJSON *j, const char *path, sm_err *e)
{
    static const char *const keys[] = {"kind", "levels", NULL};
    if (sm_json_only_keys(j, path, keys, e)) return -1;
    char p[512], q[560], r[600];
    sm_jpath_key(p, sizeof p, path, "levels");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "levels");
    if (!m) {
        sm_err_set(e, "%s: missing (required)", p);
        return -1;
    }
    if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) < 1 ||
        cJSON_GetArraySize(m) > 4096) {
        sm_err_set(e, "%s: expected an array of 1 to 4096 rows", p);
        return -1;
    }
    int N = cJSON_GetArraySize(m);
    n->msize = N;
    n->matrix = calloc((size_t)N * (size_t)N, sizeof(int));
    if (!n->matrix) {
        sm_err_set(e, "%s: too large", p);
        return -1;
    }
    for (int i = 0; i < N; i++) {
        sm_jpath_idx(q, sizeof q, p, i);
        const cJSON *row = cJSON_GetArrayItem(m, i);
        if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != N) {
            sm_err_set(e, "%s: expected an array of %d levels", q, N);
            return -1;
        }
        for (int k = 0; k < N; k++) {
            const cJSON *v = cJSON_GetArrayItem(row, k);
            sm_jpath_idx(r, sizeof r, q, k);
            int64_t lv;
            if (sm_json_whole(v, 0, 64, &lv)) {
                sm_err_set(e, "%s: expected a whole level in [0, 64]", r);
                return -1;
            }
            n->matrix[i * N + k] = (int)lv;
        }
    }
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++) {
            int v = n->matrix[i * N + k];
            if ((i == k) != (v == 0) || v != n->matrix[k * N + i]) {
                snprintf(q, sizeof q, "%s[%d][%d]", p, i, k);
                sm_err_set(e, "%s: expected a symmetric matrix with zeros "
                              "exactly on the diagonal", q);
                return -1;
            }
        }
    return 0;
}

static void save(const sm_net *n, cJSON *j)
{
    cJSON *m = cJSON_AddArrayToObject(j, "levels");
    for (int i = 0; i < n->msize; i++)
        cJSON_AddItemToArray(
            m, cJSON_CreateIntArray(n->matrix + i * n->msize, n->msize));
}

static int capacity(const sm_net *n) { return n->msize; }

static int distance(const sm_net *n, int a, int b)
{
    return n->matrix[a * n->msize + b];
}

/* A level is one logical link between the two nodes. */
static int route(const sm_net *n, int a, int b, uint64_t *l, int max)
{
    if (a == b || max < 1) return 0;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    l[0] = ((uint64_t)lo << 24) | (uint64_t)hi;
    (void)n;
    return 1;
}

const sm_net_ops sm_net_matrix = {"matrix", 0, load, save, capacity,
                                  distance, distance, route, NULL, NULL};
