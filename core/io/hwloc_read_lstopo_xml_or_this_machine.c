/* hwloc_read_lstopo_xml_or_this_machine.c - the hardware description from libhwloc: this machine, or an
 * lstopo XML file (or standard input, "-"). Without libhwloc
 * (SM_HAVE_HWLOC undefined) the calls fail with a message saying how to
 * get it.
 *
 * The rules (SPEC 8), so that the counts equal hwloc-calc's:
 * - a core is a Core object; a PU in no Core (machines whose XML has no
 *   Core objects: s390, some POWER dumps) counts as a core of its own;
 * - -per package groups cores by Package, cores in no package form one
 *   more processor (package -1); -per numa groups them by their local
 *   NUMA node (the nearest one holding them, ordinary DRAM before MCDRAM,
 *   HBM, NVM, CXL tiers), cores with none by package; -per core is one
 *   processor per core;
 * - every NUMA node's memory goes to the processors holding the cores it
 *   is local to, in proportion to their cores (memory-only nodes add
 *   memory, never cores), so the processors' memory sums to the machine's;
 * - a GPU is a PCI device with a compute OS device (CUDA, OpenCL, Level
 *   Zero, NEC VE, Xeon Phi: co-processors) or a managed GPU (NVML, RSMI);
 *   its model is GPUModel, else the PCI device name. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hwloc_read_lstopo_xml_or_this_machine.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"

#ifndef SM_HAVE_HWLOC

int sm_hwloc_available(void) { return 0; }

int sm_hwloc_read(const char *xml, int per, sm_hw_machine *m, sm_err *e)
{
    (void)xml; (void)per; (void)m;
    sm_err_set(e, "built without hwloc: install libhwloc-dev and rebuild");
    return -1;
}

#else
#include <hwloc.h>

int sm_hwloc_available(void) { return 1; }

/* ---- before libhwloc sees the text ---- */

/* libhwloc reads numbers with strtoull ("-5" becomes 1.8e19) and spends
 * minutes on tens of thousands of I/O objects; these checks come first,
 * naming the file and line. */
#define MAX_OBJECTS 200000
#define MAX_IO_OBJECTS 16384
#define MAX_MEMORY 1e18

static int starts(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* One pass, by hand: str* calls from every hit would rescan the rest of a
 * large file each time (and do, under AddressSanitizer). */
static int prescan(const char *text, size_t len, const char *name, sm_err *e)
{
    static const char *const sizes[] = {"local_memory", "cache_size", "size", "count", NULL};
    const char *end = text + len;
    long objects = 0, io = 0;
    int line = 1;
    for (const char *p = text; p < end; p++) {
        if (*p == '\n') { line++; continue; }
        if (*p == '<' && starts(p, end, "<object") && p + 7 < end &&
            (p[7] == ' ' || p[7] == '>' || p[7] == '\n' || p[7] == '\t')) {
            objects++;
            /* Its type, within the tag. */
            for (const char *q = p + 7; q < end && *q != '>'; q++)
                if (starts(q, end, " type=\"")) {
                    q += 7;
                    io += starts(q, end, "OSDev\"") || starts(q, end, "PCIDev\"") ||
                          starts(q, end, "Bridge\"");
                    break;
                }
            if (objects > MAX_OBJECTS || io > MAX_IO_OBJECTS) {
                sm_err_set(e, "%s: line %d: more than %d %s; a machine holds fewer (refused "
                              "before libhwloc reads it)", name, line,
                           io > MAX_IO_OBJECTS ? MAX_IO_OBJECTS : MAX_OBJECTS,
                           io > MAX_IO_OBJECTS ? "I/O objects (PCI devices, bridges, OS devices)"
                                               : "objects");
                return -1;
            }
            continue;
        }
        if (*p != '=' || p + 1 >= end || p[1] != '"') continue;
        /* name="value": a size or count must be a whole number of bytes. */
        const char *n0 = p;
        while (n0 > text && (isalnum((unsigned char)n0[-1]) || n0[-1] == '_')) n0--;
        int want = 0;
        for (const char *const *k = sizes; *k && !want; k++)
            want = (size_t)(p - n0) == strlen(*k) && memcmp(n0, *k, (size_t)(p - n0)) == 0;
        if (!want) continue;
        const char *v = p + 2, *q = v;
        double val = 0;
        while (q < end && *q >= '0' && *q <= '9' && val <= MAX_MEMORY) val = val * 10 + (*q++ - '0');
        if (q == v || q >= end || *q != '"' || val > MAX_MEMORY) {
            const char *close = v;
            while (close < end && close - v < 24 && *close != '"') close++;
            sm_err_set(e, "%s: line %d: %.*s=\"%.*s\": expected a whole number of bytes up "
                          "to %g", name, line, (int)(p - n0), n0, (int)(close - v), v, MAX_MEMORY);
            return -1;
        }
    }
    return 0;
}

/* libhwloc says why it refuses an XML only on stderr, when
 * HWLOC_XML_VERBOSE is set (read once, at its first XML): capture it. */
typedef struct captured {
    int saved;
    int set_env;         /* we set HWLOC_XML_VERBOSE (unset it after) */
    FILE *f;
} captured;

static void capture_begin(captured *c)
{
    c->set_env = getenv("HWLOC_XML_VERBOSE") == NULL;
    if (c->set_env) setenv("HWLOC_XML_VERBOSE", "1", 0);
    fflush(stderr);
    c->f = tmpfile();
    c->saved = c->f ? dup(2) : -1;
    if (c->saved >= 0) dup2(fileno(c->f), 2);
}

/* Noise libhwloc prints around its reason. */
static int noise(const char *line)
{
    static const char *const words[] = {"without DTD", "discovery failed", "Setting source XML",
                                        "Ignoring", NULL};
    for (const char *const *w = words; *w; w++)
        if (strstr(line, *w)) return 1;
    return strspn(line, " \t^") == strlen(line);
}

/* Restores stderr; libhwloc's reason (its first line that is not noise)
 * into buf, the buffer's name it prefixes dropped, its line kept. */
static void capture_end(captured *c, char *buf, size_t size)
{
    buf[0] = '\0';
    if (c->set_env) unsetenv("HWLOC_XML_VERBOSE");
    if (c->saved < 0) {
        if (c->f) fclose(c->f);
        return;
    }
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    rewind(c->f);
    char line[512];
    while (!buf[0] && fgets(line, sizeof line, c->f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (noise(line)) continue;
        const char *w = line, *colon = strchr(line, ':');
        if (colon && !memchr(line, ' ', (size_t)(colon - line))) {
            w = colon + 1;
            int n = 0;
            if (sscanf(w, "%*[0-9]%n", &n) >= 0 && n > 0 && w[n] == ':') {
                snprintf(buf, size, "line %.*s:%s", n, w, w + n + 1);
                break;
            }
            while (*w == ' ') w++;
        }
        snprintf(buf, size, "%s", w);
    }
    fclose(c->f);
}

/* ---- cores, processors, memory ---- */

typedef struct unit {
    hwloc_obj_t obj;     /* a Core, or a PU in no Core */
    int package;         /* its package's logical index, -1 none */
    int numa;            /* its local NUMA node's logical index, -1 none */
    int proc;            /* the processor (device index) it goes to */
} unit;

static const char *info_up(hwloc_obj_t o, const char *name)
{
    for (; o; o = o->parent) {
        const char *s = hwloc_obj_get_info_by_name(o, name);
        if (s) return s;
    }
    return NULL;
}

/* Ordinary memory first: no subtype or DRAM. */
static int numa_rank(hwloc_obj_t n)
{
    return !n->subtype || strcmp(n->subtype, "DRAM") == 0 ? 0 : 1;
}

/* The local NUMA node of a core: the smallest one whose cpuset holds it,
 * ordinary memory first, then hwloc's order; -1 when none holds it. */
static int local_numa(hwloc_topology_t t, hwloc_obj_t core)
{
    hwloc_obj_t best = NULL, n = NULL;
    while ((n = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, n))) {
        if (!n->cpuset || !hwloc_bitmap_isincluded(core->cpuset, n->cpuset)) continue;
        if (!best) { best = n; continue; }
        int wn = hwloc_bitmap_weight(n->cpuset), wb = hwloc_bitmap_weight(best->cpuset);
        if (wn < wb || (wn == wb && numa_rank(n) < numa_rank(best))) best = n;
    }
    return best ? (int)best->logical_index : -1;
}

static unit *collect_units(hwloc_topology_t t, int *n)
{
    int ncore = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
    int npu = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    unit *u = sm_xcalloc((size_t)(ncore + npu) + 1, sizeof *u);
    int k = 0;
    /* In hwloc's logical order: the cores, then PUs in no core. */
    for (int i = 0; i < ncore; i++) u[k++].obj = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, (unsigned)i);
    for (int i = 0; i < npu; i++) {
        hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, (unsigned)i);
        if (!hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_CORE, pu)) u[k++].obj = pu;
    }
    for (int i = 0; i < k; i++) {
        hwloc_obj_t p = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, u[i].obj);
        u[i].package = p ? (int)p->logical_index : -1;
        u[i].numa = local_numa(t, u[i].obj);
        u[i].proc = -1;
    }
    *n = k;
    return u;
}

/* The group key of a unit for the mode: package, NUMA node or itself. */
static long group_key(const unit *u, int i, int per)
{
    if (per == SM_HW_PER_CORE) return i;
    if (per == SM_HW_PER_NUMA && u[i].numa >= 0) return u[i].numa;
    /* Per package; -per numa's cores with no local node by package too,
     * kept apart from the NUMA keys. */
    long pkg = u[i].package + 1;
    return per == SM_HW_PER_NUMA ? -1 - pkg : pkg;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The CPU model of a group, and the core kind when the machine has
 * several (hybrid chips: a P-core and an E-core are different types). */
static void group_model(hwloc_topology_t t, hwloc_obj_t first, int same_kind, char *buf,
                        size_t size)
{
    const char *model = info_up(first, "CPUModel");
    if (!model) {
        /* The model may sit on a PU (Linux on some ARM and POWER). */
        hwloc_obj_t pu = first->type == HWLOC_OBJ_PU ? first
                         : hwloc_get_next_obj_inside_cpuset_by_type(t, first->cpuset, HWLOC_OBJ_PU, NULL);
        model = pu ? hwloc_obj_get_info_by_name(pu, "CPUModel") : NULL;
    }
    /* Cores in no package: the model the machine's packages give. */
    for (hwloc_obj_t p = NULL; !model && (p = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PACKAGE, p));)
        model = hwloc_obj_get_info_by_name(p, "CPUModel");
    snprintf(buf, size, "%s", model ? model : "CPU");
    if (!same_kind || hwloc_cpukinds_get_nr(t, 0) < 2) return;
    int kind = hwloc_cpukinds_get_by_cpuset(t, first->cpuset, 0);
    struct hwloc_info_s *infos = NULL;
    unsigned ninfos = 0;
    if (kind < 0 || hwloc_cpukinds_get_info(t, (unsigned)kind, NULL, NULL, &ninfos, &infos, 0) < 0)
        return;
    for (unsigned i = 0; i < ninfos; i++)
        if (strcmp(infos[i].name, "CoreType") == 0) {
            size_t n = strlen(buf);
            snprintf(buf + n, size - n, " %s", infos[i].value);
            return;
        }
    size_t n = strlen(buf);
    snprintf(buf + n, size - n, " kind%d", kind);
}

/* The processors of the mode; the units (cores) go to *units. */
static unit *read_cpus(hwloc_topology_t t, int per, sm_hw_machine *m, int *nunits)
{
    int n;
    unit *u = collect_units(t, &n);
    *nunits = n;
    /* Groups in order of their first unit (hwloc's logical order). */
    long *keys = sm_xmalloc(sizeof *keys * (size_t)n + 1);
    int ngroups = 0;
    int first_dev = m->ndev;
    int *cores = sm_xmalloc(sizeof *cores * (size_t)n + 1);
    int npu_all = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    int *pus = sm_xmalloc(sizeof *pus * (size_t)npu_all + 1);
    for (int i = 0; i < n; i++) {
        if (u[i].proc >= 0) continue;
        long key = group_key(u, i, per);
        keys[ngroups] = key;
        int nc = 0, np = 0, pkg = u[i].package, same_kind = 1;
        int kind0 = hwloc_cpukinds_get_by_cpuset(t, u[i].obj->cpuset, 0);
        for (int j = i; j < n; j++) {
            if (u[j].proc >= 0 || group_key(u, j, per) != key) continue;
            u[j].proc = m->ndev;
            cores[nc++] = (int)u[j].obj->logical_index;
            if (u[j].package != pkg) pkg = -1;
            if (hwloc_cpukinds_get_by_cpuset(t, u[j].obj->cpuset, 0) != kind0) same_kind = 0;
            hwloc_obj_t pu = NULL;
            if (u[j].obj->type == HWLOC_OBJ_PU) pus[np++] = (int)u[j].obj->logical_index;
            else
                while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(t, u[j].obj->cpuset,
                                                                       HWLOC_OBJ_PU, pu)))
                    if (np < npu_all) pus[np++] = (int)pu->logical_index;
        }
        ngroups++;
        qsort(cores, (size_t)nc, sizeof *cores, cmp_int);
        qsort(pus, (size_t)np, sizeof *pus, cmp_int);
        char model[256];
        group_model(t, u[i].obj, same_kind, model, sizeof model);
        sm_hw_dev *d = sm_hw_machine_add(m, 0, model, nc, 0);
        d->place = sm_place_new_cpu(pkg, cores, nc, pus, np);
    }
    /* Memory: each NUMA node's to the processors holding its cores, in
     * proportion; a node local to no core (an empty cpuset) to all. */
    hwloc_obj_t node = NULL;
    int *share = sm_xcalloc((size_t)(m->ndev - first_dev) + 1, sizeof *share);
    while ((node = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, node))) {
        double mem = (double)node->attr->numanode.local_memory;
        if (!(mem > 0)) continue;
        memset(share, 0, sizeof *share * (size_t)(m->ndev - first_dev));
        int held = 0;
        for (int i = 0; i < n; i++)
            if (node->cpuset && hwloc_bitmap_isincluded(u[i].obj->cpuset, node->cpuset)) {
                share[u[i].proc - first_dev]++;
                held++;
            }
        for (int d = first_dev; d < m->ndev; d++) {
            double part = held ? (double)share[d - first_dev] / held
                               : (double)m->dev[d].cores / n;
            m->dev[d].memory += mem * part;
        }
    }
    free(share);
    free(keys);
    free(cores);
    free(pus);
    return u;
}

/* ---- GPUs ---- */

/* The runtime's device number from an OS device name: cuda3, nvml3,
 * rsmi3, ze3, ve3, mic3 -> 3; opencl0d3 -> 3; -1 otherwise. */
static int device_number(const char *name)
{
    static const char *const prefixes[] = {"cuda", "rsmi", "nvml", "ze", "ve", "mic", NULL};
    if (!name) return -1;
    for (const char *const *p = prefixes; *p; p++) {
        size_t n = strlen(*p);
        if (strncmp(name, *p, n) == 0 && name[n] >= '0' && name[n] <= '9')
            return atoi(name + n);
    }
    const char *d = strncmp(name, "opencl", 6) == 0 ? strchr(name + 6, 'd') : NULL;
    return d && d[1] >= '0' && d[1] <= '9' ? atoi(d + 1) : -1;
}

static int compute_osdev(hwloc_obj_t o)
{
    if (o->type != HWLOC_OBJ_OS_DEVICE) return 0;
    if (o->attr->osdev.type == HWLOC_OBJ_OSDEV_COPROC) return 1;
    return o->attr->osdev.type == HWLOC_OBJ_OSDEV_GPU &&
           hwloc_obj_get_info_by_name(o, "GPUModel") != NULL;
}

/* Device memory in bytes from whichever runtime reported it (all KiB). */
static double gpu_memory(hwloc_obj_t o)
{
    static const char *const keys[] = {"CUDAGlobalMemorySize", "RSMIVRAMSize",
        "OpenCLGlobalMemorySize", "LevelZeroHBMSize", "VectorEngineMemorySize", NULL};
    for (const char *const *k = keys; *k; k++) {
        const char *v = hwloc_obj_get_info_by_name(o, *k);
        double kib = v ? strtod(v, NULL) : 0;
        if (kib > 0 && kib * 1024.0 <= MAX_MEMORY) return kib * 1024.0;
    }
    return 0;
}

/* One GPU per PCI device with a compute OS device (an OS device with no
 * PCI parent, as on this machine where PCI is not enumerated, is one GPU
 * itself). A display-only device (DRM card, renderD) is no compute GPU. */
static void read_gpus(hwloc_topology_t t, const unit *u, int nu, sm_hw_machine *m)
{
    hwloc_obj_t *done = NULL;
    int ndone = 0, ordinal = 0;
    hwloc_obj_t o = NULL;
    while ((o = hwloc_get_next_osdev(t, o))) {
        if (!compute_osdev(o)) continue;
        hwloc_obj_t pci = o->parent && o->parent->type == HWLOC_OBJ_PCI_DEVICE ? o->parent : NULL;
        hwloc_obj_t dev = pci ? pci : o;
        int dup = 0;
        for (int k = 0; k < ndone && !dup; k++) dup = done[k] == dev;
        if (dup) continue;
        done = sm_xrealloc(done, sizeof *done * (size_t)(ndone + 1));
        done[ndone++] = dev;
        /* Every compute OS device of the PCI device: the model, memory and
         * device number of whichever runtime gives them (CUDA first). */
        const char *model = NULL;
        double mem = 0;
        int number = -1, cuda = -1;
        for (hwloc_obj_t c = pci ? pci->io_first_child : o; c; c = pci ? c->next_sibling : NULL) {
            if (!compute_osdev(c)) continue;
            if (!model) model = hwloc_obj_get_info_by_name(c, "GPUModel");
            if (!(mem > 0)) mem = gpu_memory(c);
            int num = device_number(c->name);
            if (c->name && strncmp(c->name, "cuda", 4) == 0) cuda = num;
            if (number < 0) number = num;
        }
        if (cuda >= 0) number = cuda;
        if (number < 0) number = ordinal;
        ordinal++;
        if (!model && pci) model = hwloc_obj_get_info_by_name(pci, "PCIDevice");
        /* No runtime gave the memory (NVML in an XML): the model may say
         * it, as "Tesla V100-SXM3-32GB" does. */
        const char *gb = model ? strstr(model, "GB") : NULL;
        if (!(mem > 0) && gb && gb > model && isdigit((unsigned char)gb[-1])) {
            const char *d = gb;
            while (d > model && isdigit((unsigned char)d[-1])) d--;
            if (gb - d <= 4) mem = atof(d) * 1073741824.0;
        }
        /* No model at all: the generic GPU (an OS device's name, cuda3,
         * names no model). */
        char busid[32] = "";
        if (pci)
            snprintf(busid, sizeof busid, "%04x:%02x:%02x.%01x", pci->attr->pcidev.domain,
                     pci->attr->pcidev.bus, pci->attr->pcidev.dev, pci->attr->pcidev.func);
        /* A host core near it: the k-th GPU of a locality gets its k-th
         * core, so GPU ranks do not share one core. */
        hwloc_obj_t near = hwloc_get_non_io_ancestor_obj(t, o);
        int host = -1, before = 0, inside = 0;
        for (int k = 0; k < ndone - 1; k++)
            before += hwloc_get_non_io_ancestor_obj(t, done[k]) == near;
        for (int i = 0; i < nu; i++)
            inside += near->cpuset && hwloc_bitmap_isincluded(u[i].obj->cpuset, near->cpuset);
        for (int i = 0, want = inside ? before % inside : -1; i < nu && host < 0; i++)
            if (near->cpuset && hwloc_bitmap_isincluded(u[i].obj->cpuset, near->cpuset) &&
                want-- == 0)
                host = (int)u[i].obj->logical_index;
        sm_hw_dev *d = sm_hw_machine_add(m, 1, model, 0, mem);
        d->place = sm_place_new_gpu(number, pci ? busid : NULL, host);
    }
    free(done);
}

int sm_hwloc_read(const char *xml, int per, sm_hw_machine *m, sm_err *e)
{
    /* The XML is read by us (guarded, opened beneath the directory the
     * guard allows; "-" is standard input) and handed to hwloc as a
     * buffer: hwloc opening the name itself would open whatever it leads
     * to by then. */
    size_t xlen = 0;
    char *xtext = NULL;
    const char *name = xml && strcmp(xml, "-") == 0 ? "standard input" : xml;
    if (xml && !(xtext = sm_read_file(xml, SM_MAX_FILE_BYTES, &xlen, e))) return -1;
    if (xml && (memchr(xtext, '\0', xlen) || prescan(xtext, xlen, name, e) < 0)) {
        if (memchr(xtext, '\0', xlen))
            sm_err_set(e, "%s: not an hwloc XML topology (it holds NUL bytes)", name);
        free(xtext);
        return -1;
    }
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) < 0) {
        sm_err_set(e, "hwloc: cannot initialise");
        free(xtext);
        return -1;
    }
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    /* On this machine GPUs come from their compute OS devices (OpenCL,
     * CUDA, NVML, RSMI); PCI enumeration is skipped: libpciaccess leaks. */
    if (!xml) hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
    captured cap = {-1, 0, NULL};
    char why[512] = "";
    int rc = 0;
    if (xml) {
        capture_begin(&cap);
        rc = hwloc_topology_set_xmlbuffer(t, xtext, (int)xlen + 1);
        if (rc == 0) rc = hwloc_topology_load(t);
        capture_end(&cap, why, sizeof why);
    } else {
        rc = hwloc_topology_load(t);
    }
    if (rc < 0) {
        int err = errno;
        const char *w = why;
        if (xml)
            sm_err_set(e, "%s: libhwloc %s refuses it: %s", name, HWLOC_VERSION,
                       *w ? w : err ? strerror(err) : "not an hwloc XML topology "
                       "(expected the output of lstopo --of xml)");
        else sm_err_set(e, "hwloc: cannot discover this machine (%s)", strerror(err));
        hwloc_topology_destroy(t);
        free(xtext);
        return -1;
    }
    int nu;
    unit *u = read_cpus(t, per, m, &nu);
    read_gpus(t, u, nu, m);
    free(u);
    hwloc_topology_destroy(t);
    free(xtext);
    double total = 0;
    for (int i = 0; i < m->ndev; i++) total += m->dev[i].memory;
    if (total > MAX_MEMORY) {
        sm_err_set(e, "%s: the machine's memory adds up to %g bytes; expected at most %g",
                   name ? name : "hwloc", total, MAX_MEMORY);
        return -1;
    }
    return 0;
}

#endif
