/* base64.h - RFC 4648 base64 (standard alphabet, '=' padding), strict on
 * reading: nothing but the alphabet and the final padding. */
#ifndef SM_BASE64_H
#define SM_BASE64_H

#include <stddef.h>

/* The encoding of n bytes (NUL-terminated, 4 * ceil(n / 3) characters,
 * *len when not NULL); caller frees. */
char *sm_base64_encode(const unsigned char *data, size_t n, size_t *len);
/* Decodes text (n characters) into a new buffer (*out, *out_len); -1 with
 * *bad set to the offset of the first character that is not base64 where
 * it stands (or n for a length that is not a multiple of 4). */
int sm_base64_decode(const char *text, size_t n, unsigned char **out, size_t *out_len, size_t *bad);

#endif
