/* haec_box_wireless_boards.c - the HAEC box: boards stacked along the slowest axis, each a
 * 2-D torus; a wireless hop reaches any node of the adjacent board, so the
 * distance is the torus distance on one board, else |delta board|. */
#include "net.h"
#include "core/lib/jsonutil.h"

static int load(sm_net *n, const cJSON *j, const char *path, sm_err *e)
{
    static const char *const keys[] = {"kind", "boards", "board_dims", NULL};
    if (sm_json_only_keys(j, path, keys, e)) return -1;
    int64_t boards;
    if (sm_json_integer(j, path, "boards", 1, 1, 4096, &boards, e) < 0)
        return -1;
    n->dims[0] = (int)boards;
    n->ndims = 1;
    if (sm_net_load_dims(n, j, path, "board_dims", 2, 2, e)) return -1;
    if ((long long)n->dims[0] * n->dims[1] * n->dims[2] > SM_MAX_NODES) {
        sm_err_set(e, "%s: expected at most %d nodes in all",
                   path[0] ? path : "network", SM_MAX_NODES);
        return -1;
    }
    return 0;
}

static void save(const sm_net *n, cJSON *j)
{
    cJSON_AddNumberToObject(j, "boards", n->dims[0]);
    cJSON_AddItemToObject(j, "board_dims", cJSON_CreateIntArray(n->dims + 1, 2));
}

static int capacity(const sm_net *n) { return n->dims[0] * n->dims[1] * n->dims[2]; }

/* Boards first: nodes on two boards need no position (the hot path of
 * the hop and cardinality objectives; a division each, not three). */
static int distance(const sm_net *n, int a, int b)
{
    int per = n->dims[1] * n->dims[2];
    int ba = a / per, bb = b / per;
    if (ba != bb) return ba > bb ? ba - bb : bb - ba;
    int ra = a - ba * per, rb = b - bb * per;
    int xa = ra / n->dims[2], xb = rb / n->dims[2];
    return sm_net_axis_dist(xa, xb, n->dims[1], 1) +
           sm_net_axis_dist(ra - xa * n->dims[2], rb - xb * n->dims[2], n->dims[2], 1);
}

/* On a board: dimension order on the torus. Across boards: one wireless
 * link per board crossed, from the current position to the target's
 * position on the next board (bit 62 marks wireless links). */
static int route(const sm_net *n, int a, int b, uint64_t *l, int max)
{
    int c[3], cb[3], k = 0;
    sm_net_unrank(n->dims, 3, a, c);
    sm_net_unrank(n->dims, 3, b, cb);
    int per = n->dims[1] * n->dims[2];
    if (c[0] != cb[0]) {
        int pos = c[1] * n->dims[2] + c[2];
        int tpos = cb[1] * n->dims[2] + cb[2];
        while (c[0] != cb[0] && k < max) {
            int step = cb[0] > c[0] ? 1 : -1;
            l[k++] = (1ull << 62) | ((uint64_t)(c[0] * per + pos) << 21) |
                     (uint64_t)((c[0] + step) * per + tpos);
            c[0] += step;
            pos = tpos;
        }
        return k;
    }
    for (int d = 1; d < 3; d++) {
        int size = n->dims[d];
        while (c[d] != cb[d] && k < max) {
            int fwd = (cb[d] - c[d] + size) % size;
            int step = fwd <= size - fwd ? 1 : -1;
            int node = (c[0] * n->dims[1] + c[1]) * n->dims[2] + c[2];
            l[k++] = ((uint64_t)node << 5) | ((uint64_t)d << 1) |
                     (uint64_t)(step < 0);
            c[d] = (c[d] + step + size) % size;
        }
    }
    return k;
}

/* A network group is a board. */
static int group(const sm_net *n, int node) { return node / (n->dims[1] * n->dims[2]); }

/* The torus neighbours on a's board, and every node of the boards
 * above and below (one wireless hop). */
static int adjacent(const sm_net *n, int a, int nnodes, int *lo, int *len, int max)
{
    int per = n->dims[1] * n->dims[2], ba = a / per, r = a - ba * per, k = 0;
    int c[2] = {r / n->dims[2], r % n->dims[2]}, stride[2] = {n->dims[2], 1};
    for (int d = 0; d < 2; d++)
        for (int step = -1; step <= 1; step += 2) {
            int size = n->dims[1 + d], to = (c[d] + step + size) % size;
            int b = a + (to - c[d]) * stride[d];
            if (to == c[d] || b >= nnodes || k == max) continue;
            lo[k] = b;
            len[k++] = 1;
        }
    for (int bb = ba - 1; bb <= ba + 1; bb += 2) {
        long long first = (long long)bb * per, last = first + per;
        if (bb < 0 || bb >= n->dims[0] || first >= nnodes || k == max) continue;
        lo[k] = (int)first;
        len[k++] = (int)((last < nnodes ? last : nnodes) - first);
    }
    return k;
}

const sm_net_ops sm_net_haec = {"haec", 1, load, save, capacity,
                                distance, distance, route, group, adjacent};
