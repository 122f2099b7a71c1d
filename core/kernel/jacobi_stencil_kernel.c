/* jacobi_stencil_kernel.c - grid geometry, block fields, the sweep and the checksum of
 * the stencil kernel (jacobi_stencil_kernel.h says what each guarantees). */
#include "jacobi_stencil_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *names[] = {"5pt", "9pt", "7pt", "27pt"};

const char *sm_kernel_stencil_name(sm_kstencil s)
{
    return (unsigned)s < 4 ? names[s] : "?";
}

int sm_kernel_stencil_parse(const char *name, sm_kstencil *out)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (sm_kstencil)i;
            return 0;
        }
    return -1;
}

int sm_kernel_dims(sm_kstencil s) { return s == SM_K_5PT || s == SM_K_9PT ? 2 : 3; }

static int is_box(sm_kstencil s) { return s == SM_K_9PT || s == SM_K_27PT; }

int sm_kernel_points(sm_kstencil s, int h)
{
    int w = 2 * h + 1;
    switch (s) {
    case SM_K_5PT: return 4 * h + 1;
    case SM_K_9PT: return w * w;
    case SM_K_7PT: return 6 * h + 1;
    default: return w * w * w;
    }
}

int sm_kernel_flops(sm_kstencil s, int h) { return sm_kernel_points(s, h); }

int sm_kernel_directions(sm_kstencil s, int d[SM_K_MAX_DIRS][3])
{
    int n = 0, dims = sm_kernel_dims(s);
    /* Faces first (one non-zero component), then edges, then corners. */
    for (int nz = 1; nz <= dims; nz++) {
        if (nz > 1 && !is_box(s)) break;
        for (int dz = (dims == 3 ? -1 : 0); dz <= (dims == 3 ? 1 : 0); dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    if ((dx != 0) + (dy != 0) + (dz != 0) != nz) continue;
                    d[n][0] = dx;
                    d[n][1] = dy;
                    d[n][2] = dz;
                    n++;
                }
    }
    return n;
}

int sm_kgrid_check(const sm_kgrid *g, char *why, size_t len)
{
    static const char axis[] = "XYZ";
    if ((unsigned)g->stencil > SM_K_27PT) {
        snprintf(why, len, "unknown stencil %d", (int)g->stencil);
        return -1;
    }
    if (g->halo < 1 || g->halo > SM_K_MAX_HALO) {
        snprintf(why, len, "halo %d: the kernel runs halos of 1 to %d cells", g->halo,
                 SM_K_MAX_HALO);
        return -1;
    }
    int dims = sm_kernel_dims(g->stencil);
    int64_t nb = 1;
    for (int a = 0; a < 3; a++) {
        if (g->blocks[a] < 1 || g->cells[a] < g->blocks[a]) {
            snprintf(why, len, "%c: %lld cells in %d blocks; expected at least one cell per block",
                     axis[a], (long long)g->cells[a], g->blocks[a]);
            return -1;
        }
        nb *= g->blocks[a];
        if (nb > (1 << 30)) {
            snprintf(why, len, "too many blocks");
            return -1;
        }
        if (a == 2 && dims == 2) {
            if (g->cells[2] != 1 || g->blocks[2] != 1) {
                snprintf(why, len, "%s is 2-D: expected one cell and one block along Z",
                         sm_kernel_stencil_name(g->stencil));
                return -1;
            }
            continue;
        }
        /* The smallest block along a has cells/blocks cells. */
        if (g->cells[a] / g->blocks[a] < g->halo) {
            snprintf(why, len,
                     "%c: blocks of %lld cells are thinner than the halo of %d; "
                     "each block needs at least halo cells along every axis",
                     axis[a], (long long)(g->cells[a] / g->blocks[a]), g->halo);
            return -1;
        }
    }
    return 0;
}

int sm_kgrid_nblocks(const sm_kgrid *g) { return g->blocks[0] * g->blocks[1] * g->blocks[2]; }

void sm_kgrid_coords(const sm_kgrid *g, int id, int c[3])
{
    c[0] = id % g->blocks[0];
    c[1] = (id / g->blocks[0]) % g->blocks[1];
    c[2] = id / (g->blocks[0] * g->blocks[1]);
}

void sm_kgrid_range(const sm_kgrid *g, int a, int b, int64_t *lo, int64_t *n)
{
    int64_t base = g->cells[a] / g->blocks[a], rem = g->cells[a] % g->blocks[a];
    *n = base + (b < rem ? 1 : 0);
    *lo = (int64_t)b * base + (b < rem ? b : rem);
}

int sm_kgrid_neighbour(const sm_kgrid *g, int id, const int d[3])
{
    int c[3];
    sm_kgrid_coords(g, id, c);
    for (int a = 0; a < 3; a++) {
        c[a] += d[a];
        if (c[a] < 0 || c[a] >= g->blocks[a]) {
            if (!g->periodic[a]) return -1;
            c[a] = (c[a] + g->blocks[a]) % g->blocks[a];
        }
    }
    return c[0] + g->blocks[0] * (c[1] + g->blocks[1] * c[2]);
}

static void geometry(const sm_kgrid *g, int id, int64_t lo[3], int64_t n[3], int64_t h[3])
{
    int c[3];
    sm_kgrid_coords(g, id, c);
    for (int a = 0; a < 3; a++) {
        sm_kgrid_range(g, a, c[a], &lo[a], &n[a]);
        h[a] = (a == 2 && sm_kernel_dims(g->stencil) == 2) ? 0 : g->halo;
    }
}

size_t sm_kgrid_block_bytes(const sm_kgrid *g, int id)
{
    int64_t lo[3], n[3], h[3];
    geometry(g, id, lo, n, h);
    double size = 1;
    for (int a = 0; a < 3; a++) size *= (double)(n[a] + 2 * h[a]);
    double bytes = 2 * size * sizeof(double) +
                   sm_kernel_points(g->stencil, g->halo) * sizeof(int64_t);
    return bytes >= (double)SIZE_MAX ? SIZE_MAX : (size_t)bytes;
}

/* splitmix64's finaliser: a bijection of 64-bit words. */
static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double hash3(uint64_t seed, int64_t x, int64_t y, int64_t z)
{
    uint64_t v = mix(seed ^ (uint64_t)x);
    v = mix(v ^ (uint64_t)y);
    v = mix(v ^ (uint64_t)z);
    return (double)(v >> 11) * 0x1.0p-53;
}

double sm_kernel_initial(int64_t gx, int64_t gy, int64_t gz)
{
    return hash3(0x5e9c11a0d1ULL, gx, gy, gz);
}

double sm_kernel_boundary(int64_t gx, int64_t gy, int64_t gz)
{
    return hash3(0xb0a4da47e5ULL, gx, gy, gz);
}

static int64_t wrap(int64_t v, int64_t n) { return ((v % n) + n) % n; }

int sm_kblock_init(sm_kblock *b, const sm_kgrid *g, int id)
{
    memset(b, 0, sizeof *b);
    b->stencil = g->stencil;
    b->halo = g->halo;
    b->id = id;
    geometry(g, id, b->lo, b->n, b->h);
    b->stride[0] = 1;
    b->stride[1] = b->n[0] + 2 * b->h[0];
    b->stride[2] = b->stride[1] * (b->n[1] + 2 * b->h[1]);
    b->size = b->stride[2] * (b->n[2] + 2 * b->h[2]);
    b->npoints = sm_kernel_points(g->stencil, g->halo);
    b->offset = malloc((size_t)b->npoints * sizeof *b->offset);
    b->field[0] = malloc((size_t)b->size * sizeof(double));
    b->field[1] = malloc((size_t)b->size * sizeof(double));
    if (!b->offset || !b->field[0] || !b->field[1]) {
        sm_kblock_free(b);
        return -1;
    }
    /* Summing order: the centre, then the stencil's offsets z, y, x
     * ascending (a property of the stencil and h, not of the block). */
    int k = 0, H = g->halo, dims = sm_kernel_dims(g->stencil);
    b->offset[k++] = 0;
    for (int dz = (dims == 3 ? -H : 0); dz <= (dims == 3 ? H : 0); dz++)
        for (int dy = -H; dy <= H; dy++)
            for (int dx = -H; dx <= H; dx++) {
                int nz = (dx != 0) + (dy != 0) + (dz != 0);
                if (nz == 0 || (!is_box(g->stencil) && nz != 1)) continue;
                b->offset[k++] = dx + dy * b->stride[1] + dz * b->stride[2];
            }
    /* Values from global coordinates; a cell outside a non-periodic side
     * gets the boundary value, one outside a periodic side is a halo to
     * be exchanged (given its wrapped initial value meanwhile). */
    for (int64_t z = -b->h[2]; z < b->n[2] + b->h[2]; z++)
        for (int64_t y = -b->h[1]; y < b->n[1] + b->h[1]; y++)
            for (int64_t x = -b->h[0]; x < b->n[0] + b->h[0]; x++) {
                int64_t gc[3] = {b->lo[0] + x, b->lo[1] + y, b->lo[2] + z};
                int outside = 0;
                for (int a = 0; a < 3; a++)
                    if (gc[a] < 0 || gc[a] >= g->cells[a]) {
                        if (g->periodic[a]) gc[a] = wrap(gc[a], g->cells[a]);
                        else outside = 1;
                    }
                double v = outside ? sm_kernel_boundary(gc[0], gc[1], gc[2])
                                   : sm_kernel_initial(gc[0], gc[1], gc[2]);
                int64_t i = sm_kblock_index(b, x, y, z);
                b->field[0][i] = v;
                b->field[1][i] = v;
            }
    return 0;
}

void sm_kblock_free(sm_kblock *b)
{
    free(b->field[0]);
    free(b->field[1]);
    free(b->offset);
    b->field[0] = b->field[1] = NULL;
    b->offset = NULL;
}

int64_t sm_kblock_rows(const sm_kblock *b)
{
    return sm_kernel_dims(b->stencil) == 3 ? b->n[2] : b->n[1];
}

enum { CHUNK = 32 };

void sm_kblock_sweep(sm_kblock *b, int64_t r0, int64_t r1)
{
    const double *restrict cur = b->field[b->cur];
    double *restrict next = b->field[!b->cur];
    const int64_t *off = b->offset;
    const int np = b->npoints;
    const double inv = 1.0 / np;
    const int64_t nx = b->n[0];
    int three = sm_kernel_dims(b->stencil) == 3;
    int64_t zr0 = three ? r0 : 0, zr1 = three ? r1 : 1;
    int64_t yr0 = three ? 0 : r0, yr1 = three ? b->n[1] : r1;
    for (int64_t z = zr0; z < zr1; z++)
        for (int64_t y = yr0; y < yr1; y++) {
            int64_t row = sm_kblock_index(b, 0, y, z);
            double *restrict out = next + row;
            const double *in = cur + row;
            if (np == 7 && three) {
                /* 7pt, halo 1: the same sum in the same order, fused. */
                const int64_t sy = b->stride[1], sz = b->stride[2];
                for (int64_t x = 0; x < nx; x++)
                    out[x] = (((((in[x] + in[x - sz]) + in[x - sy]) + in[x - 1]) + in[x + 1]) + in[x + sy] +
                              in[x + sz]) * inv;
                continue;
            }
            if (np == 5 && !three) {
                const int64_t sy = b->stride[1];
                for (int64_t x = 0; x < nx; x++)
                    out[x] = ((((in[x] + in[x - sy]) + in[x - 1]) + in[x + 1]) + in[x + sy]) * inv;
                continue;
            }
            /* Every cell sums its points in the offsets' order, from the
             * first: a chunk of cells at a time in registers, one pass of
             * the chunk per point (the compiler vectorises along x). */
            for (int64_t x0 = 0; x0 < nx; x0 += CHUNK) {
                int w = nx - x0 < CHUNK ? (int)(nx - x0) : CHUNK;
                double acc[CHUNK];
                const double *p = in + x0 + off[0];
                for (int j = 0; j < w; j++) acc[j] = p[j];
                for (int k = 1; k < np; k++) {
                    p = in + x0 + off[k];
                    for (int j = 0; j < w; j++) acc[j] += p[j];
                }
                for (int j = 0; j < w; j++) out[x0 + j] = acc[j] * inv;
            }
        }
}

void sm_kblock_swap(sm_kblock *b) { b->cur = !b->cur; }

uint64_t sm_kblock_checksum(const sm_kblock *b, const sm_kgrid *g)
{
    const double *f = b->field[b->cur];
    uint64_t sum = 0;
    for (int64_t z = 0; z < b->n[2]; z++)
        for (int64_t y = 0; y < b->n[1]; y++)
            for (int64_t x = 0; x < b->n[0]; x++) {
                uint64_t gi = (uint64_t)(b->lo[0] + x) +
                              (uint64_t)g->cells[0] *
                                  ((uint64_t)(b->lo[1] + y) + (uint64_t)g->cells[1] * (uint64_t)(b->lo[2] + z));
                uint64_t bits;
                double v = f[sm_kblock_index(b, x, y, z)];
                memcpy(&bits, &v, sizeof bits);
                sum += mix(mix(gi) ^ bits);
            }
    return sum;
}
