/* jacobi_stencil_kernel_halo_regions.c - the halo regions of a block and their copies: the boxes a
 * block sends and receives per direction, packing for messages, and the
 * exchange between blocks held in one process (jacobi_stencil_kernel.h). */
#include "jacobi_stencil_kernel.h"

#include <string.h>

void sm_kblock_recv_box(const sm_kblock *b, const int d[3], sm_kbox *box)
{
    for (int a = 0; a < 3; a++) {
        if (d[a] < 0) {
            box->lo[a] = -b->h[a];
            box->hi[a] = 0;
        } else if (d[a] > 0) {
            box->lo[a] = b->n[a];
            box->hi[a] = b->n[a] + b->h[a];
        } else {
            box->lo[a] = 0;
            box->hi[a] = b->n[a];
        }
    }
}

void sm_kblock_send_box(const sm_kblock *b, const int d[3], sm_kbox *box)
{
    for (int a = 0; a < 3; a++) {
        if (d[a] < 0) {
            box->lo[a] = 0;
            box->hi[a] = b->h[a];
        } else if (d[a] > 0) {
            box->lo[a] = b->n[a] - b->h[a];
            box->hi[a] = b->n[a];
        } else {
            box->lo[a] = 0;
            box->hi[a] = b->n[a];
        }
    }
}

int64_t sm_kbox_cells(const sm_kbox *box)
{
    int64_t n = 1;
    for (int a = 0; a < 3; a++) n *= box->hi[a] > box->lo[a] ? box->hi[a] - box->lo[a] : 0;
    return n;
}

void sm_kblock_pack(const sm_kblock *b, const sm_kbox *box, double *buf)
{
    const double *f = b->field[b->cur];
    size_t w = (size_t)(box->hi[0] - box->lo[0]);
    for (int64_t z = box->lo[2]; z < box->hi[2]; z++)
        for (int64_t y = box->lo[1]; y < box->hi[1]; y++) {
            memcpy(buf, f + sm_kblock_index(b, box->lo[0], y, z), w * sizeof *buf);
            buf += w;
        }
}

void sm_kblock_unpack(sm_kblock *b, const sm_kbox *box, const double *buf)
{
    double *f = b->field[b->cur];
    size_t w = (size_t)(box->hi[0] - box->lo[0]);
    for (int64_t z = box->lo[2]; z < box->hi[2]; z++)
        for (int64_t y = box->lo[1]; y < box->hi[1]; y++) {
            memcpy(f + sm_kblock_index(b, box->lo[0], y, z), buf, w * sizeof *buf);
            buf += w;
        }
}

void sm_kblock_copy_halo(sm_kblock *dst, const sm_kblock *src, const int d[3])
{
    int back[3] = {-d[0], -d[1], -d[2]};
    sm_kbox to, from;
    sm_kblock_recv_box(dst, d, &to);
    sm_kblock_send_box(src, back, &from);
    const double *s = src->field[src->cur];
    double *t = dst->field[dst->cur];
    size_t w = (size_t)(to.hi[0] - to.lo[0]);
    int64_t dy = from.lo[1] - to.lo[1], dz = from.lo[2] - to.lo[2];
    for (int64_t z = to.lo[2]; z < to.hi[2]; z++)
        for (int64_t y = to.lo[1]; y < to.hi[1]; y++)
            /* memmove: src may be dst (a periodic axis of one block); the
             * rows never overlap then, but memmove costs nothing more. */
            memmove(t + sm_kblock_index(dst, to.lo[0], y, z),
                    s + sm_kblock_index(src, from.lo[0], y + dy, z + dz), w * sizeof(double));
}

void sm_kgrid_exchange_block(const sm_kgrid *g, sm_kblock *blocks, int id)
{
    int d[SM_K_MAX_DIRS][3];
    int nd = sm_kernel_directions(g->stencil, d);
    if (!blocks[id].field[0]) return;
    for (int k = 0; k < nd; k++) {
        int nbr = sm_kgrid_neighbour(g, id, d[k]);
        if (nbr < 0 || !blocks[nbr].field[0]) continue;
        sm_kblock_copy_halo(&blocks[id], &blocks[nbr], d[k]);
    }
}

void sm_kgrid_exchange(const sm_kgrid *g, sm_kblock *blocks)
{
    int nb = sm_kgrid_nblocks(g);
    for (int id = 0; id < nb; id++) sm_kgrid_exchange_block(g, blocks, id);
}
