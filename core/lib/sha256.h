/* sha256.h - SHA-256 (FIPS 180-4) of a buffer, a stream or a file, as
 * lowercase hex: the study directory's SPEC hash and each job's input
 * hashes (a scenario of any size, hashed as it is read). */
#ifndef SM_SHA256_H
#define SM_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include "core/lib/util.h"

/* out receives 64 hex digits and a NUL. */
void sm_sha256_hex(const void *data, size_t len, char out[65]);

/* The same over data given in pieces of any sizes. */
typedef struct sm_sha256 {
    uint32_t h[8];
    unsigned char buf[64];
    size_t nbuf;
    uint64_t total;
} sm_sha256;
void sm_sha256_init(sm_sha256 *c);
void sm_sha256_update(sm_sha256 *c, const void *data, size_t len);
void sm_sha256_final_hex(sm_sha256 *c, char out[65]);

/* A file's hash, read a piece at a time (no copy of the file in
 * memory, no size limit); -1 with e set (and out "") when it cannot be
 * read. */
int sm_sha256_file_hex(const char *path, char out[65], sm_err *e);

#endif
