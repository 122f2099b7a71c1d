/* hwloc_read.c - the hardware description from libhwloc: this machine, or an
 * lstopo XML file. Without libhwloc (SM_HAVE_HWLOC undefined) the calls
 * fail with a message saying how to get it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hwloc_read.h"
#include "core/lib/path_guard.h"

#ifndef SM_HAVE_HWLOC

int sm_hwloc_available(void) { return 0; }

int sm_hwloc_read(const char *xml, int per_numa, sm_hw_machine *m, sm_err *e)
{
    (void)xml; (void)per_numa; (void)m;
    sm_err_set(e, "built without hwloc: install libhwloc-dev and rebuild");
    return -1;
}

#else
#include <hwloc.h>

int sm_hwloc_available(void) { return 1; }

static double memory_in(hwloc_topology_t t, hwloc_obj_t o)
{
    if (o->type == HWLOC_OBJ_NUMANODE) return (double)o->attr->numanode.local_memory;
    double sum = 0;
    hwloc_obj_t n = NULL;
    while ((n = hwloc_get_next_obj_inside_cpuset_by_type(t, o->cpuset, HWLOC_OBJ_NUMANODE, n)))
        sum += (double)n->attr->numanode.local_memory;
    return sum;
}

static const char *cpu_model(hwloc_obj_t o)
{
    for (; o; o = o->parent) {
        const char *s = hwloc_obj_get_info_by_name(o, "CPUModel");
        if (s) return s;
    }
    return NULL;
}

/* Packages (or NUMA nodes); the whole machine when hwloc found neither. */
static void read_cpus(hwloc_topology_t t, int per_numa, sm_hw_machine *m)
{
    hwloc_obj_type_t type = per_numa ? HWLOC_OBJ_NUMANODE : HWLOC_OBJ_PACKAGE;
    int n = hwloc_get_nbobjs_by_type(t, type);
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t, type, (unsigned)i);
        int cores = hwloc_get_nbobjs_inside_cpuset_by_type(t, o->cpuset, HWLOC_OBJ_CORE);
        if (cores <= 0) continue;   /* a memory-only NUMA node (HBM, CXL) */
        sm_hw_machine_add(m, 0, cpu_model(o), cores, memory_in(t, o));
    }
    if (m->ndev == 0) {
        hwloc_obj_t root = hwloc_get_root_obj(t);
        int cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
        const char *model = NULL;
        hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, 0);
        if (pu) model = cpu_model(pu);
        sm_hw_machine_add(m, 0, model, cores > 0 ? cores : 1, memory_in(t, root));
    }
}

/* One GPU per PCI device with a compute OS device (CUDA, OpenCL, Level
 * Zero: co-processors) or a managed GPU (NVML, RSMI: a GPUModel). A
 * display-only device (DRM card, renderD) is no compute GPU. */
static void read_gpus(hwloc_topology_t t, sm_hw_machine *m)
{
    hwloc_obj_t seen[256];
    int nseen = 0;
    hwloc_obj_t o = NULL;
    while ((o = hwloc_get_next_osdev(t, o))) {
        const char *model = hwloc_obj_get_info_by_name(o, "GPUModel");
        if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_COPROC &&
            !(o->attr->osdev.type == HWLOC_OBJ_OSDEV_GPU && model))
            continue;
        hwloc_obj_t pci = o->parent && o->parent->type == HWLOC_OBJ_PCI_DEVICE ? o->parent : NULL;
        int dup = 0;
        for (int k = 0; k < nseen && pci; k++) dup |= seen[k] == pci;
        if (dup) continue;
        if (pci && nseen < 256) seen[nseen++] = pci;
        if (!model && pci) model = hwloc_obj_get_info_by_name(pci, "PCIDevice");
        if (!model) model = o->name;
        /* CUDA reports global memory in KiB. */
        const char *mem = hwloc_obj_get_info_by_name(o, "CUDAGlobalMemorySize");
        sm_hw_machine_add(m, 1, model, 0, mem ? strtod(mem, NULL) * 1024.0 : 0);
    }
}

int sm_hwloc_read(const char *xml, int per_numa, sm_hw_machine *m, sm_err *e)
{
    /* The XML is read by us (guarded, opened beneath the directory the
     * guard allows) and handed to hwloc as a buffer: hwloc opening the
     * name itself would open whatever it leads to by then. */
    size_t xlen = 0;
    char *xtext = NULL;
    if (xml && !(xtext = sm_read_file(xml, SM_MAX_FILE_BYTES, &xlen, e))) return -1;
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
    if (xml && hwloc_topology_set_xmlbuffer(t, xtext, (int)xlen + 1) < 0) {
        sm_err_set(e, "%s: hwloc cannot read it (%s)", xml, strerror(errno));
        hwloc_topology_destroy(t);
        free(xtext);
        return -1;
    }
    if (hwloc_topology_load(t) < 0) {
        if (xml) sm_err_set(e, "%s: not an hwloc XML topology (expected the output of "
                            "lstopo --of xml)", xml);
        else sm_err_set(e, "hwloc: cannot discover this machine (%s)", strerror(errno));
        hwloc_topology_destroy(t);
        free(xtext);
        return -1;
    }
    read_cpus(t, per_numa, m);
    read_gpus(t, m);
    hwloc_topology_destroy(t);
    free(xtext);
    return 0;
}

#endif
