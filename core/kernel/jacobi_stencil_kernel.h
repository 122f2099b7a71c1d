/* jacobi_stencil_kernel.h - the stencil kernel: ONE implementation that `topo measure`
 * times and stencilmap-run (run/, SPEC 9) runs (SPEC 2.1, 8, 9).
 *
 * A global grid (sm_kgrid) of X x Y x Z cells is cut into BX x BY x BZ
 * blocks exactly as SPEC 2.1 cuts it (block id = i + j*BX + k*BX*BY; the
 * remainder of X/BX goes one cell each to the first blocks). A block
 * (sm_kblock) holds its interior cells and a halo of width h around them
 * (h along X and Y, and along Z for the 3-D stencils; a 2-D grid has one
 * cell along Z and no Z halo), in two fields: `cur` and `next`.
 *
 * One sweep is a damped Jacobi step for the Laplace equation: every
 * interior cell of `next` becomes the mean of the stencil's points in
 * `cur` (the cell itself and its neighbours), which is Jacobi with
 * weight (np-1)/np. Stencils of halo width h:
 *   5pt  the 2-D star of radius h (4h+1 points)
 *   9pt  the 2-D box of radius h ((2h+1)^2 points)
 *   7pt  the 3-D star of radius h (6h+1 points)
 *   27pt the 3-D box of radius h ((2h+1)^3 points)
 * The points are summed in one fixed order (the order of the offsets,
 * which depends on the stencil and h only), so a cell's new value depends
 * only on its neighbours' values, never on the decomposition: a grid cut
 * into blocks (in one process or across ranks) gives the same bits as the
 * grid in one block, as long as the halos were exchanged before each
 * sweep. Build with strict IEEE semantics (no -ffast-math).
 *
 * Values: the initial value of a cell and the fixed value of a cell
 * outside a non-periodic side of the grid are functions of its GLOBAL
 * coordinates only (a hash of them, in [0, 1)); coordinates along a
 * periodic axis are wrapped first. sm_kblock_init writes them into both
 * fields; halo cells outside the grid are never written again.
 *
 * Halos: before each sweep every block's halo must hold its neighbours'
 * current interior cells. The neighbour of a block in direction d
 * (d in {-1,0,1}^3, d != 0) is sm_kgrid_neighbour (periodic axes wrap;
 * -1 outside a non-periodic side: those halo cells keep their fixed
 * values). The star stencils need the face directions only; the box
 * stencils also need edges and corners (sm_kernel_directions). Within a
 * process, sm_kblock_copy_halo copies directly; across processes a rank
 * packs sm_kblock_send_box of its block for direction d, sends it, and the
 * neighbour unpacks it into sm_kblock_recv_box for direction -d; both
 * boxes have the same shape and pack/unpack walk them in the same order
 * (x fastest). Every block must have at least h cells along every axis
 * that has a halo (sm_kgrid_check), so a halo comes from one neighbour.
 *
 * Checksum: sm_kblock_checksum hashes each interior cell's global index
 * with its value's bits and ADDS the hashes modulo 2^64, so the checksum
 * of a grid is the sum (mod 2^64, e.g. MPI_SUM over uint64) of its
 * blocks' checksums in any order, and equal bit for bit to the checksum
 * of the same grid in one block.
 *
 * Threads: sm_kblock_sweep takes a range of rows of the outermost axis
 * (Z planes in 3-D, Y rows in 2-D); threads may sweep disjoint ranges of
 * one block, or different blocks, at once. Nothing here keeps global
 * state. Includes libc only.
 */
#ifndef SM_JACOBI_STENCIL_KERNEL_H
#define SM_JACOBI_STENCIL_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* Same order as sm_stencil in core/model/grid.h. */
typedef enum { SM_K_5PT, SM_K_9PT, SM_K_7PT, SM_K_27PT } sm_kstencil;

#define SM_K_MAX_HALO 8
#define SM_K_MAX_DIRS 26

typedef struct sm_kgrid {
    sm_kstencil stencil;
    int halo;          /* h >= 1 */
    int64_t cells[3];  /* X Y Z; Z = 1 for 5pt/9pt */
    int blocks[3];     /* BX BY BZ; BZ = 1 for 5pt/9pt */
    int periodic[3];   /* 0 or 1 per axis */
} sm_kgrid;

typedef struct sm_kblock {
    sm_kstencil stencil;
    int halo;
    int id;
    int64_t lo[3];     /* global coordinates of the first interior cell */
    int64_t n[3];      /* interior cells per axis */
    int64_t h[3];      /* halo per axis: h h h, or h h 0 in 2-D */
    int64_t stride[3]; /* of a field: x fastest; stride[0] = 1 */
    int64_t size;      /* doubles per field, halo included */
    double *field[2];  /* field[cur] is cur, field[!cur] is next */
    int cur;
    int npoints;       /* stencil points */
    int64_t *offset;   /* npoints offsets in a field, in summing order */
} sm_kblock;

/* A box of cells in a block, in interior coordinates (the first interior
 * cell is 0; halo cells are negative or >= n), half open: [lo, hi). */
typedef struct sm_kbox {
    int64_t lo[3], hi[3];
} sm_kbox;

const char *sm_kernel_stencil_name(sm_kstencil s);
/* 0 and *out on "5pt" "9pt" "7pt" "27pt"; -1 otherwise. */
int sm_kernel_stencil_parse(const char *name, sm_kstencil *out);
int sm_kernel_dims(sm_kstencil s);                 /* 2 or 3 */
int sm_kernel_points(sm_kstencil s, int halo);     /* points of one update */
/* The directions a block's halo comes from (faces first, then edges and
 * corners for the box stencils); returns their count (4, 6, 8 or 26). */
int sm_kernel_directions(sm_kstencil s, int d[SM_K_MAX_DIRS][3]);
/* Floating-point operations of one cell update (np-1 adds, 1 multiply). */
int sm_kernel_flops(sm_kstencil s, int halo);

/* 0 if the grid can run; else -1 and a sentence in why. */
int sm_kgrid_check(const sm_kgrid *g, char *why, size_t whylen);
int sm_kgrid_nblocks(const sm_kgrid *g);
void sm_kgrid_coords(const sm_kgrid *g, int id, int c[3]);
/* First global cell and cells of block index b along axis a. */
void sm_kgrid_range(const sm_kgrid *g, int axis, int b, int64_t *lo, int64_t *n);
/* The block next to block id in direction d, or -1 (non-periodic side). */
int sm_kgrid_neighbour(const sm_kgrid *g, int id, const int d[3]);
/* Bytes block id needs (two fields with halo, plus its offsets). */
size_t sm_kgrid_block_bytes(const sm_kgrid *g, int id);

/* Allocates block id's fields and writes the initial and boundary values
 * into both. 0, or -1 when memory runs out (b is then empty). */
int sm_kblock_init(sm_kblock *b, const sm_kgrid *g, int id);
void sm_kblock_free(sm_kblock *b);
static inline double *sm_kblock_cur(const sm_kblock *b) { return b->field[b->cur]; }
static inline double *sm_kblock_next(const sm_kblock *b) { return b->field[!b->cur]; }
/* Index in a field of the cell at interior coordinates (x, y, z). */
static inline int64_t sm_kblock_index(const sm_kblock *b, int64_t x, int64_t y, int64_t z)
{
    return (x + b->h[0]) + (y + b->h[1]) * b->stride[1] + (z + b->h[2]) * b->stride[2];
}
/* Rows of the outermost axis a sweep walks: n[2] in 3-D, n[1] in 2-D. */
int64_t sm_kblock_rows(const sm_kblock *b);
/* Updates rows [r0, r1) of next from cur. Reads cur's halo. */
void sm_kblock_sweep(sm_kblock *b, int64_t r0, int64_t r1);
/* next becomes cur (after every row of every block was swept). */
void sm_kblock_swap(sm_kblock *b);

/* Halo cells of b that come from its neighbour in direction d. */
void sm_kblock_recv_box(const sm_kblock *b, const int d[3], sm_kbox *box);
/* Interior cells of b that its neighbour in direction d needs. */
void sm_kblock_send_box(const sm_kblock *b, const int d[3], sm_kbox *box);
int64_t sm_kbox_cells(const sm_kbox *box);
/* Copies a box of cur into buf / buf into a box of cur, x fastest. */
void sm_kblock_pack(const sm_kblock *b, const sm_kbox *box, double *buf);
void sm_kblock_unpack(sm_kblock *b, const sm_kbox *box, const double *buf);
/* src is dst's neighbour in direction d: fills dst's halo toward d from
 * src's cur. src may be dst itself (one block along a periodic axis). */
void sm_kblock_copy_halo(sm_kblock *dst, const sm_kblock *src, const int d[3]);
/* Every halo of every block of g, all held here: blocks[id] for every id
 * (a block whose field[0] is NULL is skipped, and so is its halo). */
void sm_kgrid_exchange(const sm_kgrid *g, sm_kblock *blocks);
/* The same for block id's halo alone: writes only block id, reads its
 * neighbours' interiors, so threads may fill different blocks at once. */
void sm_kgrid_exchange_block(const sm_kgrid *g, sm_kblock *blocks, int id);

/* Interior cells' order-free hash (see above). */
uint64_t sm_kblock_checksum(const sm_kblock *b, const sm_kgrid *g);
/* The fixed values, exposed for tests. */
double sm_kernel_initial(int64_t gx, int64_t gy, int64_t gz);
double sm_kernel_boundary(int64_t gx, int64_t gy, int64_t gz);

#endif
