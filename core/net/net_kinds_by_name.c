/* net_kinds_by_name.c - the network kinds by name: a network's JSON object is read by
 * the module of its "kind" (single_node.c, fat_tree_dragonfly_levels.c, torus_mesh_routing.c, haec_box_wireless_boards.c, explicit_level_matrix.c).
 * A new kind is one more module and one more row here. */
#include "net.h"

#include <string.h>
#include "core/lib/jsonutil.h"

static const sm_net_ops *const kinds[] = {
    &sm_net_single, &sm_net_tree, &sm_net_torus,
    &sm_net_mesh,   &sm_net_haec, &sm_net_matrix,
};

sm_net *sm_net_load(const cJSON *j, const char *path, sm_err *e)
{
    if (sm_json_expect_object(j, path, e)) return NULL;
    const char *kind;
    if (sm_json_string(j, path, "kind", 1, &kind, e) < 0) return NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strcmp(kinds[i]->kind, kind) != 0) continue;
        sm_net *n = sm_xcalloc(1, sizeof *n);
        n->ops = kinds[i];
        if (n->ops->load(n, j, path, e) != 0) {
            sm_net_free(n);
            return NULL;
        }
        return n;
    }
    char p[512];
    sm_err_set(e, "%s: unknown network kind \"%s\" (expected single, tree, "
                  "torus, mesh, haec or matrix)",
               sm_jpath_key(p, sizeof p, path, "kind"), kind);
    return NULL;
}
