/* processor_place.c - a processor's place in its node: strict JSON, copies. */
#include "processor_place.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/jsonutil.h"

static int *copy_ints(const int *a, int n)
{
    if (n <= 0) return NULL;
    int *c = sm_xmalloc(sizeof *c * (size_t)n);
    memcpy(c, a, sizeof *c * (size_t)n);
    return c;
}

sm_place *sm_place_new_cpu(int package, const int *cores, int ncores, const int *pus,
                           int npus)
{
    sm_place *p = sm_xcalloc(1, sizeof *p);
    p->kind = SM_PLACE_CPU;
    p->package = package;
    p->ncores = ncores;
    p->cores = copy_ints(cores, ncores);
    p->npus = npus;
    p->pus = copy_ints(pus, npus);
    p->device = p->host_core = -1;
    return p;
}

sm_place *sm_place_new_gpu(int device, const char *pci, int host_core)
{
    sm_place *p = sm_xcalloc(1, sizeof *p);
    p->kind = SM_PLACE_GPU;
    p->package = -1;
    p->device = device;
    p->pci = pci ? sm_xstrdup(pci) : NULL;
    p->host_core = host_core;
    return p;
}

sm_place *sm_place_clone(const sm_place *p)
{
    if (!p) return NULL;
    if (p->kind == SM_PLACE_GPU) return sm_place_new_gpu(p->device, p->pci, p->host_core);
    return sm_place_new_cpu(p->package, p->cores, p->ncores, p->pus, p->npus);
}

void sm_place_free(sm_place *p)
{
    if (!p) return;
    free(p->cores);
    free(p->pus);
    free(p->pci);
    free(p);
}

int sm_place_pci_valid(const char *s)
{
    /* domain (4+ hex) ':' bus (2) ':' device (2) '.' function (1) */
    size_t n = 0;
    while (isxdigit((unsigned char)s[n])) n++;
    if (n < 4 || n > 8 || s[n] != ':') return 0;
    s += n + 1;
    for (int part = 0; part < 3; part++) {
        int want = part < 2 ? 2 : 1;
        for (int k = 0; k < want; k++, s++)
            if (!isxdigit((unsigned char)*s)) return 0;
        if (part < 2 && *s++ != (part == 0 ? ':' : '.')) return 0;
    }
    return *s == '\0';
}

/* An array of distinct ascending logical indexes at key; *out allocated. */
static int read_indexes(const cJSON *o, const char *path, const char *key, int **out,
                        int *n, sm_err *e)
{
    char p[560];
    sm_jpath_key(p, sizeof p, path, key);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!a) {
        sm_err_set(e, "%s: missing (required)", p);
        return -1;
    }
    int len = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : -1;
    if (len < 1 || len > SM_PLACE_MAX_CPUS) {
        sm_err_set(e, "%s: expected an array of 1 to %d logical indexes", p,
                   SM_PLACE_MAX_CPUS);
        return -1;
    }
    int64_t *v = sm_xmalloc(sizeof *v * (size_t)len);
    int rc = sm_json_int_array(o, path, key, 1, len, len, 0, SM_PLACE_MAX_CPUS * 64 - 1, v,
                               NULL, e);
    for (int i = 1; rc == 1 && i < len; i++)
        if (v[i] <= v[i - 1]) {
            char q[600];
            sm_err_set(e, "%s: expected distinct indexes in increasing order",
                       sm_jpath_idx(q, sizeof q, p, i));
            rc = -1;
        }
    if (rc == 1) {
        *out = sm_xmalloc(sizeof **out * (size_t)len);
        for (int i = 0; i < len; i++) (*out)[i] = (int)v[i];
        *n = len;
    }
    free(v);
    return rc == 1 ? 0 : -1;
}

sm_place *sm_place_from_json(const cJSON *o, const char *path, sm_err *e)
{
    static const char *const cpu_keys[] = {"package", "cores", "pus", NULL};
    static const char *const gpu_keys[] = {"device", "pci", "host_core", NULL};
    if (sm_json_expect_object(o, path, e)) return NULL;
    int gpu = cJSON_GetObjectItemCaseSensitive(o, "device") != NULL;
    if (!gpu && !cJSON_GetObjectItemCaseSensitive(o, "cores")) {
        sm_err_set(e, "%s: expected {package, cores, pus} for a CPU or {device, pci, "
                      "host_core} for a GPU", path);
        return NULL;
    }
    if (sm_json_only_keys(o, path, gpu ? gpu_keys : cpu_keys, e)) return NULL;
    int64_t v = -1;
    if (gpu) {
        int64_t dev = 0;
        const char *pci = NULL;
        if (sm_json_integer(o, path, "device", 1, 0, 1 << 20, &dev, e) < 0 ||
            sm_json_string(o, path, "pci", 0, &pci, e) < 0 ||
            sm_json_integer(o, path, "host_core", 0, 0, SM_PLACE_MAX_CPUS * 64 - 1, &v, e) < 0)
            return NULL;
        if (pci && !sm_place_pci_valid(pci)) {
            char p[560];
            sm_err_set(e, "%s: expected a PCI bus id such as \"0000:3b:00.0\", got \"%.40s\"",
                       sm_jpath_key(p, sizeof p, path, "pci"), pci);
            return NULL;
        }
        return sm_place_new_gpu((int)dev, pci, (int)v);
    }
    if (sm_json_integer(o, path, "package", 0, 0, SM_PLACE_MAX_CPUS - 1, &v, e) < 0)
        return NULL;
    sm_place *p = sm_place_new_cpu((int)v, NULL, 0, NULL, 0);
    if (read_indexes(o, path, "cores", &p->cores, &p->ncores, e) ||
        read_indexes(o, path, "pus", &p->pus, &p->npus, e)) {
        sm_place_free(p);
        return NULL;
    }
    if (p->npus < p->ncores) {
        char q[560];
        sm_err_set(e, "%s: %d cores but %d PUs (every core holds at least one PU)",
                   sm_jpath_key(q, sizeof q, path, "pus"), p->ncores, p->npus);
        sm_place_free(p);
        return NULL;
    }
    return p;
}

cJSON *sm_place_to_json(const sm_place *p)
{
    cJSON *o = cJSON_CreateObject();
    if (p->kind == SM_PLACE_GPU) {
        cJSON_AddNumberToObject(o, "device", p->device);
        if (p->pci) cJSON_AddStringToObject(o, "pci", p->pci);
        if (p->host_core >= 0) cJSON_AddNumberToObject(o, "host_core", p->host_core);
        return o;
    }
    if (p->package >= 0) cJSON_AddNumberToObject(o, "package", p->package);
    cJSON_AddItemToObject(o, "cores", cJSON_CreateIntArray(p->cores, p->ncores));
    cJSON_AddItemToObject(o, "pus", cJSON_CreateIntArray(p->pus, p->npus));
    return o;
}
