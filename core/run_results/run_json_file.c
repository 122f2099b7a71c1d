/* run_json_file.c - RUN.json (run_json_file.h): canonical hashes, writing, and a
 * strict reader for `run import`. */
#include "run_json_file.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/io/grid_file.h"
#include "core/lib/jsonutil.h"
#include "core/lib/sha256.h"
#include "core/lib/strbuf.h"
#include "core/io/topology_file.h"

void sm_run_scenario_sha256(const sm_grid *g, const sm_topo *t, char out[65])
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "grid", sm_grid_spec_to_json(&g->spec, 0));
    cJSON_AddItemToObject(j, "topology", sm_topo_to_json(t));
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    sm_sha256_hex(s ? s : "", s ? strlen(s) : 0, out);
    cJSON_free(s);
}

void sm_run_mapping_sha256(const int *map, int nblocks, char out[65])
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    for (int k = 0; k < nblocks; k++) sm_strbuf_put(&b, "%d\n", map[k]);
    sm_sha256_hex(b.s ? b.s : "", b.n, out);
    free(b.s);
}

char *sm_run_to_text(const sm_run *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "format", "stencilmap/run");
    cJSON_AddNumberToObject(j, "version", 1);
    cJSON_AddStringToObject(j, "scenario_sha256", r->scenario_sha256);
    cJSON_AddStringToObject(j, "mapping_sha256", r->mapping_sha256);
    cJSON_AddNumberToObject(j, "iters", r->iters);
    cJSON_AddStringToObject(j, "exchange", r->exchange);
    cJSON_AddStringToObject(j, "checksum", r->checksum);
    cJSON_AddNumberToObject(j, "rounds", (double)r->rounds);
    cJSON_AddStringToObject(j, "energy_source", r->energy_source ? r->energy_source : "none");
    if (r->energy_why) cJSON_AddStringToObject(j, "energy_why", r->energy_why);
    cJSON *ranks = cJSON_AddArrayToObject(j, "ranks");
    for (int i = 0; i < r->nranks; i++) {
        const sm_run_rank *k = &r->ranks[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "rank", k->rank);
        cJSON_AddStringToObject(o, "processor", k->processor);
        cJSON_AddStringToObject(o, "host", k->host);
        cJSON *c = cJSON_AddArrayToObject(o, "cores");
        for (int q = 0; q < k->ncores; q++) cJSON_AddItemToArray(c, cJSON_CreateNumber(k->cores[q]));
        if (k->device) cJSON_AddStringToObject(o, "device", k->device);
        cJSON_AddNumberToObject(o, "blocks", (double)k->blocks);
        cJSON_AddNumberToObject(o, "cells", (double)k->cells);
        cJSON_AddNumberToObject(o, "threads", k->threads);
        cJSON_AddNumberToObject(o, "compute_s", k->compute_s);
        cJSON_AddNumberToObject(o, "comm_s", k->comm_s);
        cJSON_AddNumberToObject(o, "wait_s", k->wait_s);
        cJSON_AddNumberToObject(o, "wall_s", k->wall_s);
        cJSON_AddNumberToObject(o, "compute_min_s", k->compute_min_s);
        cJSON_AddNumberToObject(o, "compute_median_s", k->compute_median_s);
        cJSON_AddNumberToObject(o, "wall_median_s", k->wall_median_s);
        cJSON_AddNumberToObject(o, "bytes", (double)k->bytes);
        cJSON_AddNumberToObject(o, "messages", (double)k->messages);
        if (k->has_energy) cJSON_AddNumberToObject(o, "energy_j", k->energy_j);
        else cJSON_AddNullToObject(o, "energy_j");
        if (k->has_energy && k->energy_counter) {
            cJSON_AddStringToObject(o, "energy_counter", k->energy_counter);
            cJSON_AddNumberToObject(o, "energy_share", k->energy_share);
        }
        cJSON_AddItemToArray(ranks, o);
    }
    char *s = sm_json_print(j);
    cJSON_Delete(j);
    return s;
}

void sm_run_free(sm_run *r)
{
    for (int i = 0; i < r->nranks; i++) {
        free(r->ranks[i].processor);
        free(r->ranks[i].host);
        free(r->ranks[i].cores);
        free(r->ranks[i].device);
        free(r->ranks[i].energy_counter);
    }
    free(r->ranks);
    free(r->energy_source);
    free(r->energy_why);
    memset(r, 0, sizeof *r);
}

static int hex_string(const cJSON *o, const char *key, size_t want, char *out, sm_err *e)
{
    const char *s;
    if (sm_json_string(o, "", key, 1, &s, e) < 0) return -1;
    size_t n = strlen(s);
    int ok = n == want;
    for (size_t i = 0; ok && i < n; i++) ok = isxdigit((unsigned char)s[i]) && !isupper((unsigned char)s[i]);
    if (!ok) {
        sm_err_set(e, "%s: expected %zu lowercase hex digits", key, want);
        return -1;
    }
    memcpy(out, s, n + 1);
    return 0;
}

static const char *const top_keys[] = {"format", "version", "scenario_sha256", "mapping_sha256", "iters",
                                       "exchange", "checksum", "rounds", "energy_source", "energy_why",
                                       "ranks", NULL};
static const char *const rank_keys[] = {"rank", "processor", "host", "cores", "device", "blocks", "cells", "threads",
                                        "compute_s", "comm_s", "wait_s", "wall_s", "compute_min_s", "compute_median_s", "wall_median_s",
                                        "bytes", "messages",
                                        "energy_j", "energy_counter", "energy_share", NULL};

static int parse_rank(const cJSON *o, const char *path, int want, sm_run_rank *k, sm_err *e)
{
    int64_t v;
    const char *s;
    char p[64];
    if (sm_json_expect_object(o, path, e) < 0 || sm_json_only_keys(o, path, rank_keys, e) < 0) return -1;
    if (sm_json_integer(o, path, "rank", 1, 0, SM_RUN_MAX_RANKS - 1, &v, e) < 0) return -1;
    if (v != want) {
        sm_err_set(e, "%s.rank: %lld, expected %d (ranks in order, each once)", path, (long long)v, want);
        return -1;
    }
    k->rank = want;
    if (sm_json_string(o, path, "processor", 1, &s, e) < 0) return -1;
    k->processor = sm_xstrdup(s);
    if (sm_json_string(o, path, "host", 1, &s, e) < 0) return -1;
    k->host = sm_xstrdup(s);
    if (sm_json_string(o, path, "device", 0, &s, e) < 0) return -1;
    if (cJSON_GetObjectItemCaseSensitive(o, "device")) k->device = sm_xstrdup(s);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "cores");
    if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) > 65536) {
        sm_err_set(e, "%s.cores: expected an array of CPU numbers", path);
        return -1;
    }
    k->ncores = cJSON_GetArraySize(c);
    k->cores = sm_xcalloc((size_t)(k->ncores ? k->ncores : 1), sizeof(int));
    int q = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, c) {
        if (sm_json_whole(it, 0, 1 << 20, &v) != 0) {
            sm_err_set(e, "%s: expected a CPU number", sm_jpath_idx(p, sizeof p, path, q));
            return -1;
        }
        k->cores[q++] = (int)v;
    }
    if (sm_json_integer(o, path, "blocks", 1, 0, SM_MAX_TASKS, &k->blocks, e) < 0) return -1;
    if (sm_json_integer(o, path, "cells", 1, 0, SM_MAX_CELLS, &k->cells, e) < 0) return -1;
    k->threads = 1;
    if (sm_json_integer(o, path, "threads", 0, 1, 65536, &v, e) < 0) return -1;
    if (cJSON_GetObjectItemCaseSensitive(o, "threads")) k->threads = (int)v;
    if (sm_json_number(o, path, "compute_s", 1, 0, 1e9, &k->compute_s, e) < 0) return -1;
    if (sm_json_number(o, path, "comm_s", 1, 0, 1e9, &k->comm_s, e) < 0) return -1;
    if (sm_json_number(o, path, "wait_s", 1, 0, 1e9, &k->wait_s, e) < 0) return -1;
    if (sm_json_number(o, path, "wall_s", 1, 0, 1e9, &k->wall_s, e) < 0) return -1;
    if (sm_json_number(o, path, "compute_min_s", 0, 0, 1e9, &k->compute_min_s, e) < 0) return -1;
    if (sm_json_number(o, path, "compute_median_s", 0, 0, 1e9, &k->compute_median_s, e) < 0) return -1;
    if (sm_json_number(o, path, "wall_median_s", 0, 0, 1e9, &k->wall_median_s, e) < 0) return -1;
    if (sm_json_integer(o, path, "bytes", 1, 0, INT64_C(1) << 62, &k->bytes, e) < 0) return -1;
    if (sm_json_integer(o, path, "messages", 1, 0, INT64_C(1) << 62, &k->messages, e) < 0) return -1;
    const cJSON *en = cJSON_GetObjectItemCaseSensitive(o, "energy_j");
    if (!en) {
        sm_err_set(e, "%s.energy_j: missing (null where not measured)", path);
        return -1;
    }
    if (!cJSON_IsNull(en)) {
        if (sm_json_number(o, path, "energy_j", 1, 0, 1e15, &k->energy_j, e) < 0) return -1;
        k->has_energy = 1;
    }
    if (sm_json_string(o, path, "energy_counter", 0, &s, e) < 0) return -1;
    if (cJSON_GetObjectItemCaseSensitive(o, "energy_counter")) k->energy_counter = sm_xstrdup(s);
    k->energy_share = k->energy_counter ? 1 : 0;
    if (sm_json_number(o, path, "energy_share", 0, 0, 1, &k->energy_share, e) < 0) return -1;
    return 0;
}

int sm_run_parse_text(const char *text, size_t len, const char *name, sm_run *r, sm_err *e)
{
    memset(r, 0, sizeof *r);
    cJSON *j = sm_json_parse(text, len, e);
    if (!j) {
        sm_err_prefix(e, "%s: ", name);
        return -1;
    }
    int rc = -1;
    int64_t v;
    const char *s;
    if (sm_json_expect_object(j, "", e) < 0 || sm_json_check_format(j, "stencilmap/run", e) < 0 ||
        sm_json_only_keys(j, "", top_keys, e) < 0)
        goto out;
    if (hex_string(j, "scenario_sha256", 64, r->scenario_sha256, e) < 0) goto out;
    if (hex_string(j, "mapping_sha256", 64, r->mapping_sha256, e) < 0) goto out;
    if (hex_string(j, "checksum", 16, r->checksum, e) < 0) goto out;
    if (sm_json_integer(j, "", "iters", 1, 1, INT64_C(1) << 30, &v, e) < 0) goto out;
    r->iters = (int)v;
    if (sm_json_string(j, "", "exchange", 1, &s, e) < 0) goto out;
    if (strcmp(s, "rounds") != 0 && strcmp(s, "all") != 0) {
        sm_err_set(e, "exchange: \"%.40s\", expected rounds or all", s);
        goto out;
    }
    snprintf(r->exchange, sizeof r->exchange, "%s", s);
    if (sm_json_integer(j, "", "rounds", 1, 0, INT64_C(1) << 40, &r->rounds, e) < 0) goto out;
    if (sm_json_string(j, "", "energy_source", 1, &s, e) < 0) goto out;
    r->energy_source = sm_xstrdup(s);
    if (sm_json_string(j, "", "energy_why", 0, &s, e) < 0) goto out;
    if (cJSON_GetObjectItemCaseSensitive(j, "energy_why")) r->energy_why = sm_xstrdup(s);
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(j, "ranks");
    if (!cJSON_IsArray(ranks) || cJSON_GetArraySize(ranks) < 1 || cJSON_GetArraySize(ranks) > SM_RUN_MAX_RANKS) {
        sm_err_set(e, "ranks: expected an array of 1 to %d ranks", SM_RUN_MAX_RANKS);
        goto out;
    }
    int n = cJSON_GetArraySize(ranks);
    r->ranks = sm_xcalloc((size_t)n, sizeof *r->ranks);
    const cJSON *it;
    cJSON_ArrayForEach(it, ranks) {
        char p[32];
        sm_jpath_idx(p, sizeof p, "ranks", r->nranks);
        r->nranks++;
        if (parse_rank(it, p, r->nranks - 1, &r->ranks[r->nranks - 1], e) < 0) goto out;
    }
    rc = 0;
out:
    cJSON_Delete(j);
    if (rc) {
        sm_err_prefix(e, "%s: ", name);
        sm_run_free(r);
    }
    return rc;
}

int sm_run_load(const char *file, sm_run *r, sm_err *e)
{
    size_t len;
    char *text = sm_read_file(file, SM_READ_ANY_SIZE, &len, e);
    if (!text) {
        memset(r, 0, sizeof *r);
        return -1;
    }
    int rc = sm_run_parse_text(text, len, file, r, e);
    free(text);
    return rc;
}
