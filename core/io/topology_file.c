/* topology_file.c - the machine description (topology JSON, SPEC 2.2
 * and 6): its strict reader with errors naming the file and the JSON
 * path, its writer, and a copy made through the same JSON (one code
 * path, always consistent with save and load). The in-memory topology
 * and its lookups: core/model/topology.h; which DVFS state a processor
 * runs in: core/model/topology_dvfs_states.c.
 * The strict reader and the writer of one format (types, DVFS states,
 * profiles, links with their sources) sit together so that every key
 * read is written back the same way; split, a key added to one half is
 * easily forgotten in the other. */
#include "topology_file.h"
#include "core/lib/atomic_file_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/jsonutil.h"

static const char *const param_keys[] = {
    "time_per_cell", "energy_per_cell", "flops", "bandwidth",
    "flops_per_cell", "bytes_per_cell", "energy_per_flop", "energy_per_byte",
    "p0", "p_idle", "memory", NULL};

/* Read parameter keys present in obj over *p (so states overlay base). */
static int read_params(const cJSON *obj, const char *path, sm_params *p,
                       sm_err *e)
{
    struct { const char *key; double *dst; double lo, hi; } f[] = {
        {"time_per_cell", &p->time_per_cell, 1e-30, 1e3},
        {"energy_per_cell", &p->energy_per_cell, 0, 1e6},
        {"flops", &p->flops, 1e-3, 1e21},
        {"bandwidth", &p->bandwidth, 1e-3, 1e21},
        {"flops_per_cell", &p->flops_per_cell, 0, 1e9},
        {"bytes_per_cell", &p->bytes_per_cell, 1e-9, 1e9},
        {"energy_per_flop", &p->energy_per_flop, 0, 1e3},
        {"energy_per_byte", &p->energy_per_byte, 0, 1e3},
        {"p0", &p->p0, 0, 1e9},
        {"p_idle", &p->p_idle, 0, 1e9},
        {"memory", &p->memory, 1, 1e18},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (sm_json_number(obj, path, f[i].key, 0, f[i].lo, f[i].hi, f[i].dst,
                           e) < 0)
            return -1;
    return 0;
}

static int has_any(const cJSON *obj, const char *const *keys)
{
    for (; *keys; keys++)
        if (cJSON_GetObjectItemCaseSensitive(obj, *keys)) return 1;
    return 0;
}

/* Decide direct or roofline and derive the per-cell figures. */
static int finish_params(const cJSON *obj, const char *path, sm_params *p,
                         int *mode, sm_err *e)
{
    static const char *const direct[] = {"time_per_cell", "energy_per_cell",
                                         NULL};
    static const char *const roof[] = {"flops", "bandwidth", "flops_per_cell",
                                       "energy_per_flop", "energy_per_byte",
                                       NULL};
    int d = has_any(obj, direct), r = has_any(obj, roof);
    if (d && r) {
        sm_err_set(e, "%s: expected either time_per_cell/energy_per_cell or "
                      "roofline parameters, not both",
                   path);
        return -1;
    }
    if (r) *mode = 1;
    else if (d) *mode = 0;
    if (*mode == 1) {
        if (p->flops <= 0 || p->bandwidth <= 0 || p->bytes_per_cell <= 0) {
            sm_err_set(e, "%s: roofline parameters need flops, bandwidth, "
                          "flops_per_cell, bytes_per_cell, energy_per_flop "
                          "and energy_per_byte",
                       path);
            return -1;
        }
        p->roofline = 1;
        double tw = p->flops_per_cell / p->flops;
        double tq = p->bytes_per_cell / p->bandwidth;
        p->time_per_cell = tw > tq ? tw : tq;
        p->energy_per_cell = p->flops_per_cell * p->energy_per_flop +
                             p->bytes_per_cell * p->energy_per_byte;
        if (!(p->time_per_cell > 0)) {
            sm_err_set(e, "%s: roofline gives zero time per cell", path);
            return -1;
        }
    } else {
        p->roofline = 0;
        if (!(p->time_per_cell > 0)) {
            sm_err_set(e, "%s.time_per_cell: missing (required)", path);
            return -1;
        }
        if (!cJSON_GetObjectItemCaseSensitive(obj, "energy_per_cell") &&
            *mode != 0) {
            sm_err_set(e, "%s.energy_per_cell: missing (required)", path);
            return -1;
        }
    }
    if (p->memory > 0 && !(p->bytes_per_cell > 0)) {
        sm_err_set(e, "%s.memory: needs bytes_per_cell to check capacity",
                   path);
        return -1;
    }
    return 0;
}

static int valid_name(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

static int load_profile(sm_type *t, const cJSON *pr, const char *path,
                        sm_err *e)
{
    if (!cJSON_IsArray(pr) || cJSON_GetArraySize(pr) > 1000000) {
        sm_err_set(e, "%s: expected an array of [blocks, time, energy]", path);
        return -1;
    }
    int n = cJSON_GetArraySize(pr);
    t->profile = sm_xcalloc((size_t)n, sizeof(sm_profile_pt));
    t->nprofile = n;
    char q[600];
    for (int i = 0; i < n; i++) {
        const cJSON *pt = cJSON_GetArrayItem(pr, i);
        sm_jpath_idx(q, sizeof q, path, i);
        const cJSON *b = cJSON_GetArrayItem(pt, 0), *tm = cJSON_GetArrayItem(pt, 1),
                    *en = cJSON_GetArrayItem(pt, 2);
        if (!cJSON_IsArray(pt) || cJSON_GetArraySize(pt) != 3 ||
            !cJSON_IsNumber(b) || !cJSON_IsNumber(tm) || !cJSON_IsNumber(en) ||
            b->valuedouble != floor(b->valuedouble) || b->valuedouble < 0 ||
            b->valuedouble > SM_MAX_PROCS * 64.0 || !isfinite(tm->valuedouble) ||
            tm->valuedouble < 0 || tm->valuedouble > SM_PROFILE_MAX_TIME ||
            !isfinite(en->valuedouble) || en->valuedouble < 0 ||
            en->valuedouble > SM_PROFILE_MAX_ENERGY) {
            sm_err_set(e, "%s: expected [blocks, time, energy] with a whole "
                          "number of blocks, time in [0, %g] s and energy in [0, %g] J",
                       q, SM_PROFILE_MAX_TIME, SM_PROFILE_MAX_ENERGY);
            return -1;
        }
        t->profile[i] = (sm_profile_pt){(int)b->valuedouble, tm->valuedouble,
                                        en->valuedouble};
        if (i > 0 && t->profile[i].blocks <= t->profile[i - 1].blocks) {
            sm_err_set(e, "%s: expected block counts in increasing order", q);
            return -1;
        }
        /* Blocks computed in no time: energies of time would be meaningless. */
        if (t->profile[i].blocks > 0 && t->profile[i].time == 0) {
            sm_err_set(e, "%s: %d blocks in time 0: a profile's time must be above 0 wherever "
                          "blocks are above 0", q, t->profile[i].blocks);
            return -1;
        }
    }
    return 0;
}

static int load_type(sm_type *t, const cJSON *obj, const char *path, sm_err *e)
{
    static const char *const keys[] = {
        "time_per_cell", "energy_per_cell", "flops", "bandwidth",
        "flops_per_cell", "bytes_per_cell", "energy_per_flop",
        "energy_per_byte", "p0", "p_idle", "memory", "states", "state",
        "profile", "estimated", "source", NULL};
    if (sm_json_expect_object(obj, path, e) ||
        sm_json_only_keys(obj, path, keys, e))
        return -1;
    memset(&t->base, 0, sizeof t->base);
    t->state = -1;
    int mode = -1;
    if (read_params(obj, path, &t->base, e)) return -1;
    if (sm_json_number(obj, path, "p0", 1, 0, 1e9, &t->base.p0, e) < 0 ||
        sm_json_number(obj, path, "p_idle", 1, 0, 1e9, &t->base.p_idle, e) < 0)
        return -1;
    /* A measured profile stands in for the per-cell figures. */
    static const char *const percell[] = {"time_per_cell", "energy_per_cell",
        "flops", "bandwidth", "flops_per_cell", "energy_per_flop",
        "energy_per_byte", NULL};
    int profile_only = cJSON_GetObjectItemCaseSensitive(obj, "profile") &&
                       !has_any(obj, percell);
    if (!profile_only && finish_params(obj, path, &t->base, &mode, e))
        return -1;
    char p[512], q[600];
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(obj, "states");
    if (st) {
        sm_jpath_key(p, sizeof p, path, "states");
        if (sm_json_expect_object(st, p, e)) return -1;
        int n = cJSON_GetArraySize(st);
        if (n > 64) {
            sm_err_set(e, "%s: expected at most 64 states", p);
            return -1;
        }
        t->nstates = n;
        t->state_names = sm_xcalloc((size_t)n, sizeof(char *));
        t->states = sm_xcalloc((size_t)n, sizeof(sm_params));
        int i = 0;
        const cJSON *s;
        cJSON_ArrayForEach(s, st) {
            sm_jpath_key(q, sizeof q, p, s->string);
            for (const unsigned char *c = (const unsigned char *)s->string; *c; c++)
                if (*c < 0x20 || *c == 0x7f) {
                    sm_err_set(e, "%s: a state name must not hold control characters", p);
                    return -1;
                }
            t->state_names[i] = sm_xstrdup(s->string);
            for (int k = 0; k < i; k++)
                if (strcmp(t->state_names[k], s->string) == 0) {
                    sm_err_set(e, "%s: duplicate state", q);
                    return -1;
                }
            if (sm_json_expect_object(s, q, e) ||
                sm_json_only_keys(s, q, param_keys, e))
                return -1;
            t->states[i] = t->base;
            int m = mode;
            if (read_params(s, q, &t->states[i], e) ||
                finish_params(s, q, &t->states[i], &m, e))
                return -1;
            i++;
        }
    }
    const char *sel = NULL;
    int rc = sm_json_string(obj, path, "state", 0, &sel, e);
    if (rc < 0) return -1;
    if (rc == 1) {
        for (int i = 0; i < t->nstates; i++)
            if (strcmp(t->state_names[i], sel) == 0) t->state = i;
        if (t->state < 0) {
            sm_err_set(e, "%s: unknown state \"%s\"",
                       sm_jpath_key(p, sizeof p, path, "state"), sel);
            return -1;
        }
    }
    const cJSON *pr = cJSON_GetObjectItemCaseSensitive(obj, "profile");
    if (pr && load_profile(t, pr, sm_jpath_key(p, sizeof p, path, "profile"), e))
        return -1;
    const char *est = NULL;
    if (sm_json_string(obj, path, "estimated", 0, &est, e) < 0) return -1;
    if (est) t->estimated = sm_xstrdup(est);
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(obj, "source");
    if (src) {
        sm_jpath_key(p, sizeof p, path, "source");
        if (sm_json_expect_object(src, p, e)) return -1;
        const cJSON *it;
        cJSON_ArrayForEach(it, src) {
            sm_jpath_key(q, sizeof q, p, it->string);
            int known = strcmp(it->string, "profile") == 0 || strcmp(it->string, "profile_energy") == 0;
            for (int k = 0; param_keys[k] && !known; k++) known = strcmp(it->string, param_keys[k]) == 0;
            if (!known) {
                sm_err_set(e, "%s: expected a parameter of the type (time_per_cell, energy_per_cell, "
                              "p0, p_idle, memory, flops, ..., profile or profile_energy)", q);
                return -1;
            }
            const char *v = cJSON_IsString(it) ? it->valuestring : NULL;
            if (!v || (strcmp(v, "measured") && strcmp(v, "fitted") && strcmp(v, "estimated") &&
                       strcmp(v, "published"))) {
                sm_err_set(e, "%s: expected \"measured\", \"fitted\", \"estimated\" or \"published\"", q);
                return -1;
            }
        }
        t->source = cJSON_Duplicate(src, 1);
    }
    return 0;
}

/* A link class's "source": which of its two figures were measured,
 * fitted, estimated or published (SPEC 8). */
static int load_link_source(const cJSON *obj, const char *path, cJSON **out, sm_err *e)
{
    char p[600], q[700];
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(obj, "source");
    if (!src) return 0;
    sm_jpath_key(p, sizeof p, path, "source");
    if (sm_json_expect_object(src, p, e)) return -1;
    const cJSON *it;
    cJSON_ArrayForEach(it, src) {
        sm_jpath_key(q, sizeof q, p, it->string);
        if (strcmp(it->string, "time_per_cell") && strcmp(it->string, "energy_per_cell")) {
            sm_err_set(e, "%s: expected time_per_cell or energy_per_cell", q);
            return -1;
        }
        const char *v = cJSON_IsString(it) ? it->valuestring : NULL;
        if (!v || (strcmp(v, "measured") && strcmp(v, "fitted") && strcmp(v, "estimated") && strcmp(v, "published"))) {
            sm_err_set(e, "%s: expected \"measured\", \"fitted\", \"estimated\" or \"published\"", q);
            return -1;
        }
    }
    *out = cJSON_Duplicate(src, 1);
    return 0;
}

/* An intra class may say its figures' source; an inter class may not. */
static int load_link(sm_link *l, const cJSON *obj, const char *path, int intra, sm_err *e)
{
    static const char *const keys[] = {"time_per_cell", "energy_per_cell",
                                       "source", NULL};
    static const char *const inter_keys[] = {"time_per_cell", "energy_per_cell", NULL};
    if (sm_json_expect_object(obj, path, e) ||
        sm_json_only_keys(obj, path, intra ? keys : inter_keys, e))
        return -1;
    if (sm_json_number(obj, path, "time_per_cell", 1, 0, 1e3,
                       &l->time_per_cell, e) < 0 ||
        sm_json_number(obj, path, "energy_per_cell", 1, 0, 1e6,
                       &l->energy_per_cell, e) < 0)
        return -1;
    return 0;
}

/* Orders processor indices by name, or by node then type. */
static int cmp_name(const void *a, const void *b, void *ctx)
{
    const sm_proc *sort_procs = ctx;
    int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(sort_procs[x].name, sort_procs[y].name);
    return c ? c : (x > y) - (x < y);
}
static int cmp_node(const void *a, const void *b, void *ctx)
{
    const sm_proc *sort_procs = ctx;
    const sm_proc *x = &sort_procs[*(const int *)a], *y = &sort_procs[*(const int *)b];
    if (x->node != y->node) return (x->node > y->node) - (x->node < y->node);
    return (x->type > y->type) - (x->type < y->type);
}
static void sort_procs_by(int *ord, int n, const sm_proc *procs,
                          sm_cmp_fn cmp)
{
    for (int k = 0; k < n; k++) ord[k] = k;
    sm_sort_r(ord, (size_t)n, sizeof(int), cmp, (void *)procs);
}

static int type_pair_key(const sm_topo *t, int a, int b, char *buf, size_t n)
{
    const char *x = t->types[a].name, *y = t->types[b].name;
    if (strcmp(x, y) > 0) { const char *s = x; x = y; y = s; }
    return snprintf(buf, n, "%s-%s", x, y);
}

static int load_links(sm_topo *t, const cJSON *root, sm_err *e)
{
    char p[512], q[600];
    const cJSON *links = cJSON_GetObjectItemCaseSensitive(root, "links");
    if (!links) {
        links = NULL;
    } else {
        static const char *const keys[] = {"intra", "inter", NULL};
        if (sm_json_expect_object(links, "links", e) ||
            sm_json_only_keys(links, "links", keys, e))
            return -1;
    }
    const cJSON *intra = links ? cJSON_GetObjectItemCaseSensitive(links, "intra") : NULL;
    if (intra) {
        if (sm_json_expect_object(intra, "links.intra", e)) return -1;
        int n = cJSON_GetArraySize(intra);
        t->intra = sm_xcalloc((size_t)n + 1, sizeof(sm_intra));
        const cJSON *c;
        cJSON_ArrayForEach(c, intra) {
            sm_jpath_key(p, sizeof p, "links.intra", c->string);
            sm_intra *in = &t->intra[t->nintra++];
            in->key = sm_xstrdup(c->string);
            if (load_link(&in->link, c, p, 1, e) || load_link_source(c, p, &in->source, e)) return -1;
            if (strcmp(c->string, "*") != 0) {
                char *dash = strchr(in->key, '-');
                int a = -1, b = -1;
                if (dash) {
                    *dash = '\0';
                    a = sm_topo_find_type(t, in->key);
                    b = sm_topo_find_type(t, dash + 1);
                    *dash = '-';
                }
                if (a < 0 || b < 0) {
                    sm_err_set(e, "%s: expected \"*\" or two known type names "
                                  "joined by '-'",
                               p);
                    return -1;
                }
                type_pair_key(t, a, b, q, sizeof q);
                if (strcmp(q, in->key) != 0) {
                    sm_err_set(e, "%s: type names must be sorted: \"%s\"", p, q);
                    return -1;
                }
            }
            for (int k = 0; k < t->nintra - 1; k++)
                if (strcmp(t->intra[k].key, in->key) == 0) {
                    sm_err_set(e, "%s: duplicate class", p);
                    return -1;
                }
        }
    }
    /* Resolve each type pair once. */
    int T = t->ntypes;
    t->intra_of = sm_xmalloc(sizeof(int) * (size_t)(T * T));
    for (int a = 0; a < T; a++)
        for (int b = 0; b < T; b++) {
            type_pair_key(t, a, b, q, sizeof q);
            int cls = -1, star = -1;
            for (int k = 0; k < t->nintra; k++) {
                if (strcmp(t->intra[k].key, q) == 0) cls = k;
                if (strcmp(t->intra[k].key, "*") == 0) star = k;
            }
            t->intra_of[a * T + b] = cls >= 0 ? cls : star;
        }
    /* Every type pair sharing a node needs a class: sort by node and
     * type, then check the distinct types within each node. */
    int *ord = sm_xmalloc(sizeof(int) * (size_t)t->nprocs);
    sort_procs_by(ord, t->nprocs, t->procs, cmp_node);
    for (int s = 0; s < t->nprocs;) {
        int end = s;
        while (end < t->nprocs && t->procs[ord[end]].node == t->procs[ord[s]].node)
            end++;
        /* Distinct types of this node (sorted, so equal types are
         * adjacent) and whether each occurs twice. */
        int distinct[SM_MAX_TYPES], twice[SM_MAX_TYPES], nd = 0;
        for (int i = s; i < end; i++) {
            int ty = t->procs[ord[i]].type;
            if (nd > 0 && distinct[nd - 1] == ty) twice[nd - 1] = 1;
            else { distinct[nd] = ty; twice[nd++] = 0; }
        }
        for (int i = 0; i < nd; i++)
            for (int j = twice[i] ? i : i + 1; j < nd; j++) {
                int a = distinct[i], b = distinct[j];
                if (t->intra_of[a * T + b] >= 0) continue;
                type_pair_key(t, a, b, q, sizeof q);
                sm_err_set(e, "links.intra: no class for \"%s\" (processors "
                              "of node %d) and no \"*\"",
                           q, t->procs[ord[s]].node);
                free(ord);
                return -1;
            }
        s = end;
    }
    free(ord);
    const cJSON *inter = links ? cJSON_GetObjectItemCaseSensitive(links, "inter") : NULL;
    if (inter) {
        if (!cJSON_IsArray(inter) || cJSON_GetArraySize(inter) > 64) {
            sm_err_set(e, "links.inter: expected an array of at most 64 "
                          "classes");
            return -1;
        }
        t->ninter = cJSON_GetArraySize(inter);
        t->inter = sm_xcalloc((size_t)t->ninter + 1, sizeof(sm_link));
        for (int i = 0; i < t->ninter; i++) {
            sm_jpath_idx(p, sizeof p, "links.inter", i);
            if (load_link(&t->inter[i], cJSON_GetArrayItem(inter, i), p, 0, e))
                return -1;
        }
    }
    /* Enough inter classes for every pair of nodes in use. */
    int lo = -1, hi = -1, need = 0;
    for (int i = 0; i < t->nprocs; i++) {
        int nd = t->procs[i].node;
        if (lo < 0 || nd < lo) lo = nd;
        if (nd > hi) hi = nd;
    }
    if (lo != hi) {
        if (t->net->ops->per_hop) need = 1;
        else if (t->net->ops == &sm_net_tree)
            need = t->net->ops->distance(t->net, lo, hi);
        else {
            char *used = sm_xcalloc((size_t)hi + 1, 1);
            for (int i = 0; i < t->nprocs; i++) used[t->procs[i].node] = 1;
            for (int a = lo; a <= hi; a++)
                for (int b = a + 1; used[a] && b <= hi; b++)
                    if (used[b]) {
                        int d = t->net->ops->distance(t->net, a, b);
                        if (d > need) need = d;
                    }
            free(used);
        }
    }
    if (t->ninter < need) {
        sm_err_set(e, "links.inter: expected at least %d class%s for the %s "
                      "network, got %d",
                   need, need == 1 ? "" : "es", t->net->ops->kind, t->ninter);
        return -1;
    }
    return 0;
}

sm_topo *sm_topo_from_json(const cJSON *root, const char *path, sm_err *e)
{
    (void)path;
    static const char *const keys[] = {"format", "version", "name", "comment",
                                       "types", "processors", "network",
                                       "links", NULL};
    if (sm_json_check_format(root, "stencilmap/topology", e) ||
        sm_json_only_keys(root, "", keys, e))
        return NULL;
    sm_topo *t = sm_xcalloc(1, sizeof *t);
    char p[512];
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "types");
    if (!types) {
        sm_err_set(e, "types: missing (required)");
        goto fail;
    }
    if (sm_json_expect_object(types, "types", e)) goto fail;
    int nt = cJSON_GetArraySize(types);
    if (nt < 1 || nt > SM_MAX_TYPES) {
        sm_err_set(e, "types: expected 1 to %d types, got %d", SM_MAX_TYPES, nt);
        goto fail;
    }
    t->types = sm_xcalloc((size_t)nt, sizeof(sm_type));
    const cJSON *ty;
    cJSON_ArrayForEach(ty, types) {
        sm_jpath_key(p, sizeof p, "types", ty->string);
        if (!valid_name(ty->string) || !ty->string[0]) {
            sm_err_set(e, "%s: expected a type name of letters, digits, '_' "
                          "or '.'",
                       p);
            goto fail;
        }
        if (sm_topo_find_type(t, ty->string) >= 0) {
            sm_err_set(e, "%s: duplicate type", p);
            goto fail;
        }
        sm_type *T = &t->types[t->ntypes++];
        T->name = sm_xstrdup(ty->string);
        if (load_type(T, ty, p, e)) goto fail;
    }

    const cJSON *net = cJSON_GetObjectItemCaseSensitive(root, "network");
    if (!net) {
        sm_err_set(e, "network: missing (required)");
        goto fail;
    }
    t->net = sm_net_load(net, "network", e);
    if (!t->net) goto fail;
    int cap = t->net->ops->capacity(t->net);

    const cJSON *procs = cJSON_GetObjectItemCaseSensitive(root, "processors");
    if (!procs) {
        sm_err_set(e, "processors: missing (required)");
        goto fail;
    }
    if (!cJSON_IsArray(procs) || cJSON_GetArraySize(procs) < 1 ||
        cJSON_GetArraySize(procs) > SM_MAX_PROCS) {
        sm_err_set(e, "processors: expected an array of 1 to %d processors",
                   SM_MAX_PROCS);
        goto fail;
    }
    int np = cJSON_GetArraySize(procs);
    t->procs = sm_xcalloc((size_t)np, sizeof(sm_proc));
    /* Names are checked for duplicates with a sorted copy, not O(n^2). */
    const cJSON *pr;
    int i = 0;
    cJSON_ArrayForEach(pr, procs) {
        static const char *const pkeys[] = {"name", "type", "node", "state", "place", NULL};
        sm_jpath_idx(p, sizeof p, "processors", i);
        if (sm_json_expect_object(pr, p, e) ||
            sm_json_only_keys(pr, p, pkeys, e))
            goto fail;
        const char *name, *type;
        int64_t node = 0;
        if (sm_json_string(pr, p, "name", 1, &name, e) < 0 ||
            sm_json_string(pr, p, "type", 1, &type, e) < 0 ||
            sm_json_integer(pr, p, "node", 1, 0,
                            cap > 0 ? cap - 1 : SM_MAX_NODES - 1, &node, e) < 0)
            goto fail;
        const char *why = sm_name_problem(name);
        if (why) {
            sm_err_set(e, "%s.name: %s", p, why);
            goto fail;
        }
        int tix = sm_topo_find_type(t, type);
        if (tix < 0) {
            sm_err_set(e, "%s.type: unknown type \"%s\"", p, type);
            goto fail;
        }
        /* A processor's own DVFS state (a solver chose it). */
        const char *st = NULL;
        int six = -1;
        if (sm_json_string(pr, p, "state", 0, &st, e) < 0) goto fail;
        if (st) {
            const sm_type *T = &t->types[tix];
            for (int k = 0; k < T->nstates; k++)
                if (strcmp(T->state_names[k], st) == 0) six = k;
            if (strcmp(st, "base") == 0) six = SM_STATE_BASE;
            if (six == -1) {
                sm_err_set(e, "%s.state: type \"%s\" has no state \"%s\"", p, type, st);
                goto fail;
            }
        }
        /* Its place in the node (topo detect, topo import -format hwloc). */
        sm_place *pl = NULL;
        const cJSON *pj = cJSON_GetObjectItemCaseSensitive(pr, "place");
        char pp[600];
        if (pj && !(pl = sm_place_from_json(pj, sm_jpath_key(pp, sizeof pp, p, "place"), e)))
            goto fail;
        t->procs[i] = (sm_proc){.name = sm_xstrdup(name), .type = tix, .node = (int)node,
                                .state = six, .place = pl};
        t->nprocs = ++i;
        if (node + 1 > t->nnodes) t->nnodes = (int)node + 1;
    }
    {
        int *ord = sm_xmalloc(sizeof(int) * (size_t)np);
        sort_procs_by(ord, np, t->procs, cmp_name);
        for (int k = 1; k < np; k++)
            if (strcmp(t->procs[ord[k]].name, t->procs[ord[k - 1]].name) == 0) {
                int a = ord[k] > ord[k - 1] ? ord[k] : ord[k - 1];
                sm_err_set(e, "processors[%d].name: duplicate name \"%s\"", a,
                           t->procs[a].name);
                free(ord);
                goto fail;
            }
        free(ord);
    }
    if (load_links(t, root, e)) goto fail;
    return t;
fail:
    sm_topo_free(t);
    return NULL;
}


static void params_to_json(const sm_params *p, const sm_params *base,
                           cJSON *o, int is_state)
{
    /* A state writes only what differs from the base. */
#define PUT(k, f)                                                              \
    do {                                                                       \
        if (!is_state || p->f != base->f) cJSON_AddNumberToObject(o, k, p->f); \
    } while (0)
    if (p->roofline) {
        PUT("flops", flops);
        PUT("bandwidth", bandwidth);
        PUT("flops_per_cell", flops_per_cell);
        PUT("energy_per_flop", energy_per_flop);
        PUT("energy_per_byte", energy_per_byte);
        PUT("bytes_per_cell", bytes_per_cell);
    } else if (p->time_per_cell > 0) { /* 0: a profile stands in */
        PUT("time_per_cell", time_per_cell);
        PUT("energy_per_cell", energy_per_cell);
        if (p->bytes_per_cell > 0) PUT("bytes_per_cell", bytes_per_cell);
    }
    PUT("p0", p0);
    PUT("p_idle", p_idle);
    if (p->memory > 0) PUT("memory", memory);
#undef PUT
}

cJSON *sm_topo_to_json(const sm_topo *t)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "format", "stencilmap/topology");
    cJSON_AddNumberToObject(j, "version", 1);
    cJSON *types = cJSON_AddObjectToObject(j, "types");
    for (int i = 0; i < t->ntypes; i++) {
        const sm_type *T = &t->types[i];
        cJSON *o = cJSON_AddObjectToObject(types, T->name);
        params_to_json(&T->base, &T->base, o, 0);
        if (T->nstates) {
            cJSON *s = cJSON_AddObjectToObject(o, "states");
            for (int k = 0; k < T->nstates; k++)
                params_to_json(&T->states[k], &T->base,
                               cJSON_AddObjectToObject(s, T->state_names[k]), 1);
        }
        if (T->state >= 0)
            cJSON_AddStringToObject(o, "state", T->state_names[T->state]);
        if (T->nprofile) {
            cJSON *pr = cJSON_AddArrayToObject(o, "profile");
            for (int k = 0; k < T->nprofile; k++) {
                double v[3] = {T->profile[k].blocks, T->profile[k].time,
                               T->profile[k].energy};
                cJSON_AddItemToArray(pr, cJSON_CreateDoubleArray(v, 3));
            }
        }
        if (T->estimated) cJSON_AddStringToObject(o, "estimated", T->estimated);
        if (T->source && cJSON_GetArraySize(T->source))
            cJSON_AddItemToObject(o, "source", cJSON_Duplicate(T->source, 1));
    }
    cJSON *procs = cJSON_AddArrayToObject(j, "processors");
    for (int i = 0; i < t->nprocs; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", t->procs[i].name);
        cJSON_AddStringToObject(o, "type", t->types[t->procs[i].type].name);
        cJSON_AddNumberToObject(o, "node", t->procs[i].node);
        const sm_type *T = &t->types[t->procs[i].type];
        if (t->procs[i].state >= 0 && t->procs[i].state < T->nstates)
            cJSON_AddStringToObject(o, "state", T->state_names[t->procs[i].state]);
        else if (t->procs[i].state == SM_STATE_BASE)
            cJSON_AddStringToObject(o, "state", "base");
        if (t->procs[i].place) cJSON_AddItemToObject(o, "place", sm_place_to_json(t->procs[i].place));
        cJSON_AddItemToArray(procs, o);
    }
    cJSON_AddItemToObject(j, "network", sm_net_save(t->net));
    cJSON *links = cJSON_AddObjectToObject(j, "links");
    cJSON *intra = cJSON_AddObjectToObject(links, "intra");
    for (int i = 0; i < t->nintra; i++) {
        cJSON *o = cJSON_AddObjectToObject(intra, t->intra[i].key);
        cJSON_AddNumberToObject(o, "time_per_cell", t->intra[i].link.time_per_cell);
        cJSON_AddNumberToObject(o, "energy_per_cell",
                                t->intra[i].link.energy_per_cell);
        if (t->intra[i].source && cJSON_GetArraySize(t->intra[i].source))
            cJSON_AddItemToObject(o, "source", cJSON_Duplicate(t->intra[i].source, 1));
    }
    cJSON *inter = cJSON_AddArrayToObject(links, "inter");
    for (int i = 0; i < t->ninter; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "time_per_cell", t->inter[i].time_per_cell);
        cJSON_AddNumberToObject(o, "energy_per_cell", t->inter[i].energy_per_cell);
        cJSON_AddItemToArray(inter, o);
    }
    return j;
}

sm_topo *sm_topo_parse_text(const char *text, size_t len, const char *name,
                            sm_err *e)
{
    cJSON *j = sm_json_parse(text, len, e);
    sm_topo *t = j ? sm_topo_from_json(j, "", e) : NULL;
    cJSON_Delete(j);
    if (!t) sm_err_prefix(e, "%s: ", name);
    return t;
}

sm_topo *sm_topo_load(const char *file, sm_err *e)
{
    size_t len;
    char *text = sm_read_file(file, SM_READ_ANY_SIZE, &len, e);
    if (!text) return NULL;
    sm_topo *t = sm_topo_parse_text(text, len, file, e);
    free(text);
    return t;
}

int sm_topo_save(const sm_topo *t, const char *file, sm_err *e)
{
    cJSON *j = sm_topo_to_json(t);
    char *s = sm_json_print(j);
    cJSON_Delete(j);
    int rc = sm_write_file_atomic(file, s, strlen(s), e);
    free(s);
    return rc;
}

sm_topo *sm_topo_clone(const sm_topo *t)
{
    /* Through JSON: one code path, always consistent with save/load. */
    cJSON *j = sm_topo_to_json(t);
    sm_err e;
    sm_topo *c = sm_topo_from_json(j, "", &e);
    cJSON_Delete(j);
    return c;
}
