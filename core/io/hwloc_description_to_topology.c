/* hwloc_description_to_topology.c - a topology from a hardware description (hwloc_description_to_topology.h). */
#include <ctype.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwloc_description_to_topology.h"

/* Known processors: public peak figures (FP64), memory bandwidth and a
 * rough power split. Every figure is still an estimate for the user's
 * stencil; the topology says so. CPU figures are per whole package of
 * `cores` cores and scale with the cores a device holds. */
typedef struct hw_known {
    const char *match;     /* case-insensitive substring of the model */
    const char *name;      /* type name (no '-': intra keys join by '-') */
    int gpu, cores, nvlink;
    double flops, bandwidth, energy_per_flop, energy_per_byte, p0, p_idle, memory;
} hw_known;

static const hw_known known[] = {
    {"Gold 6148", "xeon_gold_6148", 0, 20, 0, 1.536e12, 128e9, 6e-11, 8e-10, 150, 50, 0},
    {"Platinum 8380", "xeon_platinum_8380", 0, 40, 0, 2.944e12, 204.8e9, 5e-11, 7e-10, 270, 90, 0},
    {"Platinum 8480", "xeon_platinum_8480", 0, 56, 0, 4.3e12, 307.2e9, 4e-11, 6e-10, 350, 110, 0},
    {"E5-2690 v3", "xeon_e5_2690v3", 0, 12, 0, 499e9, 60e9, 8e-11, 9e-10, 85, 40, 0},
    {"EPYC 7763", "epyc_7763", 0, 64, 0, 2.5e12, 204.8e9, 5e-11, 7e-10, 280, 90, 0},
    {"EPYC 9654", "epyc_9654", 0, 96, 0, 5.4e12, 460.8e9, 4e-11, 6e-10, 360, 110, 0},
    {"POWER9", "power9", 0, 22, 0, 540e9, 135e9, 5e-11, 7e-10, 90, 45, 0},
    {"A64FX", "a64fx", 0, 48, 0, 3.38e12, 920e9, 1.5e-11, 2.2e-10, 100, 48, 0},
    {"V100", "v100", 1, 0, 1, 7.8e12, 790e9, 1.5e-11, 2.5e-10, 60, 40, 16e9},
    {"A100", "a100", 1, 0, 1, 9.7e12, 1555e9, 1.2e-11, 2e-10, 150, 50, 40e9},
    {"H100", "h100", 1, 0, 1, 34e12, 3350e9, 8e-12, 1.5e-10, 350, 70, 80e9},
    {"P100", "p100", 1, 0, 0, 4.7e12, 550e9, 2e-11, 3e-10, 70, 35, 16e9},
    {"MI250X", "mi250x", 1, 0, 0, 47.9e12, 3276.8e9, 1e-11, 1.5e-10, 400, 90, 128e9},
};
#define NKNOWN ((int)(sizeof known / sizeof known[0]))

/* Unknown processors: a core at 2.5 GHz with AVX2 FMA (16 flop/cycle),
 * 10 GB/s a core up to 200 GB/s; a mid-range data-centre GPU. */
#define CORE_FLOPS 40e9
#define CORE_BANDWIDTH 10e9
#define CPU_BANDWIDTH_MAX 200e9
#define CORE_P0 5.0
#define CORE_P_IDLE 1.5
static const hw_known generic_gpu = {"", "gpu", 1, 0, 0, 7e12, 900e9, 1.5e-11, 2.5e-10, 200, 40, 16e9};

/* A 7-point stencil in double precision: what a cell costs. */
#define FLOPS_PER_CELL 8
#define BYTES_PER_CELL 24

/* Links, per halo cell of 8 bytes: socket interconnect, PCIe 3 x16,
 * NVLink 2 and a 100 Gb/s network. */
static const struct { double time, energy; } link_socket = {2e-10, 1.28e-8},
    link_pcie = {6.4e-10, 2.4e-8}, link_nvlink = {1.6e-10, 1.04e-8},
    link_network = {6.4e-10, 4.8e-8};

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0) return 1;
    return 0;
}

static const hw_known *find_known(const char *model, int gpu)
{
    for (int i = 0; i < NKNOWN; i++)
        if (known[i].gpu == gpu && model && contains_nocase(model, known[i].match))
            return &known[i];
    return NULL;
}

const char *sm_hw_known_type(const char *model, int gpu)
{
    const hw_known *k = find_known(model, gpu);
    return k ? k->name : NULL;
}

sm_hw_dev *sm_hw_machine_add(sm_hw_machine *m, int gpu, const char *model, int cores,
                             double memory)
{
    m->dev = sm_xrealloc(m->dev, sizeof *m->dev * (size_t)(m->ndev + 1));
    sm_hw_dev *d = &m->dev[m->ndev++];
    d->gpu = gpu;
    d->model = sm_xstrdup(model && *model ? model : gpu ? "GPU" : "CPU");
    d->cores = cores;
    d->memory = memory;
    d->place = NULL;
    return d;
}

void sm_hw_machine_free(sm_hw_machine *m)
{
    for (int i = 0; i < m->ndev; i++) {
        free(m->dev[i].model);
        sm_place_free(m->dev[i].place);
    }
    free(m->dev);
    m->dev = NULL;
    m->ndev = 0;
}

/* "Intel(R) Xeon(R) CPU X @ 2.4GHz" -> "intel_xeon_cpu_x_2_4ghz", at most
 * 40 characters: a type name for an unknown model. */
static void slug(const char *s, char *out, size_t size)
{
    size_t n = 0;
    int gap = 0;
    for (; *s && n + 2 < size && n < 40; s++) {
        if (isalnum((unsigned char)*s)) {
            if (gap && n) out[n++] = '_';
            out[n++] = (char)tolower((unsigned char)*s);
            gap = 0;
        } else if (*s == '(' && (s[1] == 'R' || s[1] == 'r' || s[1] == 'T') &&
                   (s[2] == ')' || s[3] == ')')) {
            s += s[2] == ')' ? 2 : 3;   /* drop (R) and (TM) */
        } else {
            gap = 1;
        }
    }
    if (!n) out[n++] = 'x';
    out[n] = '\0';
}

/* A type for one device: name, parameters and what is estimated. */
typedef struct hw_type {
    char name[64];
    int gpu, nvlink;
    double flops, bandwidth, energy_per_flop, energy_per_byte, p0, p_idle, memory;
    char estimated[256];
} hw_type;

static void type_of(const sm_hw_dev *d, hw_type *t)
{
    const hw_known *k = find_known(d->model, d->gpu);
    memset(t, 0, sizeof *t);
    t->gpu = d->gpu;
    if (d->gpu) {
        const hw_known *g = k ? k : &generic_gpu;
        /* An unknown GPU is named by its model: a K40m and a Radeon are
         * two types, each with its own memory. */
        if (k) snprintf(t->name, sizeof t->name, "%s", g->name);
        else slug(d->model, t->name, sizeof t->name);
        t->nvlink = g->nvlink;
        t->flops = g->flops;
        t->bandwidth = g->bandwidth;
        t->energy_per_flop = g->energy_per_flop;
        t->energy_per_byte = g->energy_per_byte;
        t->p0 = g->p0;
        t->p_idle = g->p_idle;
        t->memory = d->memory > 0 ? d->memory : g->memory;
    } else {
        int cores = d->cores > 0 ? d->cores : 1;
        char base[48];
        if (k) snprintf(base, sizeof base, "%s", k->name);
        else slug(d->model, base, sizeof base);
        /* A part of a known package (a NUMA node) is its own type. */
        if (k && cores == k->cores) snprintf(t->name, sizeof t->name, "%s", base);
        else snprintf(t->name, sizeof t->name, "%s_%dc", base, cores);
        double share = k ? (double)cores / k->cores : 0;
        t->flops = k ? k->flops * share : CORE_FLOPS * cores;
        t->bandwidth = k ? k->bandwidth * share
                         : (CORE_BANDWIDTH * cores < CPU_BANDWIDTH_MAX
                                ? CORE_BANDWIDTH * cores : CPU_BANDWIDTH_MAX);
        t->energy_per_flop = k ? k->energy_per_flop : 6e-11;
        t->energy_per_byte = k ? k->energy_per_byte : 8e-10;
        t->p0 = k ? k->p0 * share : CORE_P0 * cores + 20;
        t->p_idle = k ? k->p_idle * share : CORE_P_IDLE * cores + 10;
        t->memory = d->memory;
    }
    snprintf(t->estimated, sizeof t->estimated,
             "%s %s: flops bandwidth energy_per_flop energy_per_byte p0 p_idle%s; "
             "flops_per_cell bytes_per_cell for a 7-point double stencil",
             k ? "table entry" : "defaults for an unknown", k ? k->match : d->gpu ? "GPU" : "CPU",
             d->gpu && d->memory <= 0 ? " memory" : "");
}

static void add_link(cJSON *intra, const char *a, const char *b, double time, double energy)
{
    char key[160];
    if (strcmp(a, b) <= 0) snprintf(key, sizeof key, "%s-%s", a, b);
    else snprintf(key, sizeof key, "%s-%s", b, a);
    if (cJSON_GetObjectItemCaseSensitive(intra, key)) return;
    cJSON *l = cJSON_AddObjectToObject(intra, key);
    cJSON_AddNumberToObject(l, "time_per_cell", time);
    cJSON_AddNumberToObject(l, "energy_per_cell", energy);
}

cJSON *sm_hw_topology_json(const sm_hw_machine *m, int nmachines, int nnodes,
                           sm_err *e)
{
    if (nmachines < 1 || nnodes < nmachines || nnodes > SM_MAX_PROCS) {
        sm_err_set(e, "expected 1 to %d nodes, at least one a machine", SM_MAX_PROCS);
        return NULL;
    }
    long nprocs = 0;
    for (int n = 0; n < nnodes; n++) nprocs += m[n % nmachines].ndev;
    if (nprocs == 0 || nprocs > SM_MAX_PROCS) {
        sm_err_set(e, "the machine has %ld processors; expected 1 to %d (packages, "
                   "NUMA nodes or GPUs)", nprocs, SM_MAX_PROCS);
        return NULL;
    }
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "format", "stencilmap/topology");
    cJSON_AddNumberToObject(j, "version", 1);
    cJSON *types = cJSON_AddObjectToObject(j, "types");
    cJSON *procs = cJSON_AddArrayToObject(j, "processors");
    /* The types first: one per name, its memory the least any of its
     * processors has (a capacity every one of them meets). */
    int ntypes = 0, cap = 8;
    hw_type *tl = sm_xmalloc(sizeof *tl * (size_t)cap);
    for (int n = 0; n < nmachines; n++)
        for (int i = 0; i < m[n].ndev; i++) {
            hw_type t;
            type_of(&m[n].dev[i], &t);
            int k = 0;
            while (k < ntypes && strcmp(tl[k].name, t.name) != 0) k++;
            if (k < ntypes) {
                if (t.memory > 0 && (tl[k].memory <= 0 || t.memory < tl[k].memory))
                    tl[k].memory = t.memory;
                continue;
            }
            if (ntypes == SM_MAX_TYPES) {
                sm_err_set(e, "the machine has more than %d processor models; expected at most %d",
                           SM_MAX_TYPES, SM_MAX_TYPES);
                free(tl);
                cJSON_Delete(j);
                return NULL;
            }
            if (ntypes == cap) tl = sm_xrealloc(tl, sizeof *tl * (size_t)(cap *= 2));
            tl[ntypes++] = t;
        }
    for (int k = 0; k < ntypes; k++) {
        const hw_type *t = &tl[k];
        cJSON *o = cJSON_AddObjectToObject(types, t->name);
        cJSON_AddNumberToObject(o, "flops", t->flops);
        cJSON_AddNumberToObject(o, "bandwidth", t->bandwidth);
        cJSON_AddNumberToObject(o, "flops_per_cell", FLOPS_PER_CELL);
        cJSON_AddNumberToObject(o, "bytes_per_cell", BYTES_PER_CELL);
        cJSON_AddNumberToObject(o, "energy_per_flop", t->energy_per_flop);
        cJSON_AddNumberToObject(o, "energy_per_byte", t->energy_per_byte);
        cJSON_AddNumberToObject(o, "p0", t->p0);
        cJSON_AddNumberToObject(o, "p_idle", t->p_idle);
        if (t->memory > 0) cJSON_AddNumberToObject(o, "memory", t->memory);
        cJSON_AddStringToObject(o, "estimated", t->estimated);
    }
    for (int n = 0; n < nnodes; n++) {
        const sm_hw_machine *mm = &m[n % nmachines];
        int npkg = 0, ngpu = 0;
        for (int i = 0; i < mm->ndev; i++) {
            hw_type t;
            type_of(&mm->dev[i], &t);
            char name[96];
            int idx = t.gpu ? ngpu++ : npkg++;
            if (nnodes == 1) snprintf(name, sizeof name, "%s%d", t.gpu ? "gpu" : "cpu", idx);
            else snprintf(name, sizeof name, "n%0*d.%s%d", nnodes > 100 ? 4 : 2, n,
                          t.gpu ? "gpu" : "cpu", idx);
            cJSON *p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "name", name);
            cJSON_AddStringToObject(p, "type", t.name);
            cJSON_AddNumberToObject(p, "node", n);
            if (mm->dev[i].place) cJSON_AddItemToObject(p, "place", sm_place_to_json(mm->dev[i].place));
            cJSON_AddItemToArray(procs, p);
        }
    }
    cJSON *net = cJSON_AddObjectToObject(j, "network");
    cJSON *links = cJSON_AddObjectToObject(j, "links");
    cJSON *intra = cJSON_AddObjectToObject(links, "intra");
    /* Every pair of types gets a class: sockets, PCIe, or NVLink between
     * GPUs that have it (and to POWER9, which speaks NVLink). */
    for (int a = 0; a < ntypes; a++)
        for (int b = a; b < ntypes; b++) {
            const hw_type *x = &tl[a], *y = &tl[b];
            if (!x->gpu && !y->gpu) {
                add_link(intra, x->name, y->name, link_socket.time, link_socket.energy);
            } else {
                const hw_type *g = x->gpu ? x : y, *o = x->gpu ? y : x;
                int nv = g->nvlink && (o->gpu ? o->nvlink : strncmp(o->name, "power9", 6) == 0);
                add_link(intra, x->name, y->name, nv ? link_nvlink.time : link_pcie.time,
                         nv ? link_nvlink.energy : link_pcie.energy);
            }
        }
    if (nnodes == 1) {
        cJSON_AddStringToObject(net, "kind", "single");
    } else {
        /* One switch: every pair of nodes one level apart. */
        cJSON_AddStringToObject(net, "kind", "tree");
        cJSON *g = cJSON_AddArrayToObject(net, "group_sizes");
        cJSON_AddItemToArray(g, cJSON_CreateNumber(nnodes));
        cJSON *inter = cJSON_AddArrayToObject(links, "inter");
        for (int l = 0; l < 2; l++) {
            cJSON *c = cJSON_CreateObject();
            cJSON_AddNumberToObject(c, "time_per_cell", link_network.time);
            cJSON_AddNumberToObject(c, "energy_per_cell", link_network.energy);
            cJSON_AddItemToArray(inter, c);
        }
    }
    cJSON_AddStringToObject(j, "comment", "from hwloc; link classes are estimates "
                            "(socket interconnect, PCIe 3, NVLink 2, 100 Gb/s network)");
    free(tl);
    return j;
}
