/* rank_binding_to_processor_places.h - binding the ranks of a launch (rankfile.h) to
 * their processors' places (rank_binding_to_processor_places.c). */
#ifndef SM_RANK_BINDING_TO_PROCESSOR_PLACES_H
#define SM_RANK_BINDING_TO_PROCESSOR_PLACES_H

#include "rankfile.h"

/* Binds every rank to its processor's place (core/model/processor_place.h): a CPU
 * rank to its package and cores, "P:C0-C1" with cores counted from the
 * package's first (as Open MPI's rankfile reads them; the package's first
 * core is the lowest of the node's processors in it), less the host cores
 * of the node's GPU ranks while any core is left; a GPU rank to its host
 * core, and its device index noted. -1 with e (code "RUN PLACE") when a
 * processor has no place, a GPU has no host core in a CPU processor's
 * place, or a node would hold more ranks than it has cores; the message
 * says how to get places. */
int sm_launch_bind(const sm_topo *t, sm_launch *l, sm_err *e);

#endif
