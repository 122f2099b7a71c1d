/* mapping_value_text.h - the text of a mapping value (the "mapping" key of a
 * scenario, a mapping file, a journal's snapshot) in its two forms
 * (stencilmap-formats(5)):
 *   plain    ["cpu0", "gpu0", 3, ...]  a processor name or index a block;
 *   compact  {"encoding": "zlib-u16", "blocks": N, "crc32": "89abcdef",
 *             "data": BASE64}  the processor index of every block as
 *            16-bit little-endian words (SM_MAX_PROCS is 2^16), block
 *            order, a zlib stream (RFC 1950), base64; crc32 (IEEE, as
 *            zlib's crc32) of the 2N decoded bytes.
 * Both are read straight from the text, never as a tree of a node per
 * block: 16.7 M blocks took gigabytes and minutes that way. */
#ifndef SM_MAPPING_VALUE_TEXT_H
#define SM_MAPPING_VALUE_TEXT_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "core/model/topology.h"

/* Saves write the plain form up to this many blocks (readable, and what
 * earlier versions read), the compact one above. */
#define SM_MAPPING_PLAIN_MAX 65536

typedef enum { SM_MAPPING_AUTO, SM_MAPPING_PLAIN, SM_MAPPING_COMPACT } sm_mapping_form;

/* Parses the mapping value text[0, n) (JSON path `path` in messages) into
 * map[nblocks]; map may be partly written on error. */
int sm_mapping_parse_value(const char *text, size_t n, const char *path, const sm_topo *t,
                           int nblocks, int *map, sm_err *e);
/* The mapping value of a document parsed with sm_json_parse_lift: the
 * lifted text when there is one, else the tree's node. */
int sm_mapping_read_member(const cJSON *node, const char *text, size_t n, const char *path,
                           const sm_topo *t, int nblocks, int *map, sm_err *e);
/* The value's JSON text in the form asked for (AUTO: plain up to
 * SM_MAPPING_PLAIN_MAX blocks); *len its length; caller frees. */
char *sm_mapping_value_text(const sm_topo *t, const int *map, int nblocks, sm_mapping_form form,
                            int formatted, size_t *len);
/* "plain", "compact" or "auto" into *form; -1 for anything else. */
int sm_mapping_form_parse(const char *word, sm_mapping_form *form);

#endif
