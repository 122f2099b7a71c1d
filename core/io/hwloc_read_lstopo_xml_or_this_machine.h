/* hwloc_read_lstopo_xml_or_this_machine.h - the hardware description (hwloc_description_to_topology.h) read
 * by libhwloc from this machine or an lstopo XML file (hwloc_read_lstopo_xml_or_this_machine.c).
 * libhwloc is optional: without it (SM_HAVE_HWLOC undefined) the reads
 * fail with a message saying how to get it. */
#ifndef SM_HWLOC_READ_LSTOPO_XML_OR_THIS_MACHINE_H
#define SM_HWLOC_READ_LSTOPO_XML_OR_THIS_MACHINE_H

#include "hwloc_description_to_topology.h"

/* 1 when built with libhwloc. */
int sm_hwloc_available(void);
/* What one CPU processor is: a package, a NUMA node holding cores, a core. */
enum { SM_HW_PER_PACKAGE, SM_HW_PER_NUMA, SM_HW_PER_CORE };
/* Reads the machine from an lstopo XML file ("-": standard input), or
 * this machine when xml is NULL: one device per package, NUMA node or
 * core (per, above), and one per GPU, each with its place. */
int sm_hwloc_read(const char *xml, int per, sm_hw_machine *m, sm_err *e);

#endif
