/* sha256.h - SHA-256 (FIPS 180-4) of a buffer, as lowercase hex: the
 * study directory's SPEC hash and each job's input hashes. */
#ifndef SM_SHA256_H
#define SM_SHA256_H

#include <stddef.h>

/* out receives 64 hex digits and a NUL. */
void sm_sha256_hex(const void *data, size_t len, char out[65]);

#endif
