/* sfc_curve_keys.h - space-filling curves over a box of any size (SPEC 4, mapping
 * strategies): sweep, scan (snake), morton (bit interleaving), hilbert
 * (Skilling's transpose form) and gray (Gray-code order of the morton key).
 * Axis 0 is x, the fastest; the last axis is the slowest. */
#ifndef SM_SFC_CURVE_KEYS_H
#define SM_SFC_CURVE_KEYS_H

#include <stdint.h>
#include "core/lib/util.h"

typedef enum { SM_CURVE_SWEEP, SM_CURVE_SCAN, SM_CURVE_MORTON, SM_CURVE_HILBERT,
               SM_CURVE_GRAY } sm_curve;

#define SM_CURVE_NAMES "sweep|scan|morton|hilbert|gray"
#define SM_CURVE_MAXDIMS 8

int sm_curve_parse(const char *name, sm_curve *out);
const char *sm_curve_name(sm_curve c);

/* The points of the box size[0..nd-1] in curve order, written to order[] as
 * x-fastest linear indices (x + y*size[0] + ...). Sizes that are not powers
 * of two: the keys come from the enclosing 2^b cube and the points outside
 * the box are skipped, so every point appears once, in the curve's order,
 * and steps across the skipped part are longer than one. Returns -1 (and
 * sets e) when the keys would not fit 63 bits. */
int sm_curve_order(sm_curve c, int nd, const int *size, int *order, sm_err *e);

/* The curve key of one point (coordinates c[], x first) in a 2^bits cube;
 * sweep and scan use the box sizes directly. Exposed for tests. */
uint64_t sm_curve_key(sm_curve c, int nd, const int *size, int bits, const int *coord);

#endif
