/* jsonutil.h - strict cJSON readers that name the JSON path on error. */
#ifndef SM_JSONUTIL_H
#define SM_JSONUTIL_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include "util.h"

/* Parse text; on failure the message gives line and column. */
cJSON *sm_json_parse(const char *text, size_t len, sm_err *e);
/* sm_json_parse for a document whose top-level key holds most of its
 * bytes (a mapping of millions of blocks): that value is not built as a
 * tree but handed back as text (*value, *value_len, pointing into text;
 * NULL when the key is absent or written with escapes), for a reader of
 * its own; the tree holds a 0 in its place. The other keys are checked
 * as by sm_json_parse. */
cJSON *sm_json_parse_lift(const char *text, size_t len, const char *key, const char **value,
                          size_t *value_len, sm_err *e);
/* Serialise object j with key: value (JSON text, value_len bytes) added
 * as its last member; a trailing newline; *len its length. Caller frees. */
char *sm_json_print_with(const cJSON *j, int formatted, const char *key, const char *value,
                         size_t value_len, size_t *len);
/* Serialise with a trailing newline; caller frees. */
char *sm_json_print(const cJSON *j);

/* Child path "parent.key" or "parent[i]" into buf. */
const char *sm_jpath_key(char *buf, size_t n, const char *parent,
                         const char *key);
const char *sm_jpath_idx(char *buf, size_t n, const char *parent, int i);

/* Each getter: 1 found and valid, 0 absent (and not required), -1 error.
 * Numbers must be finite and within [lo, hi]. */
int sm_json_number(const cJSON *obj, const char *path, const char *key,
                   int required, double lo, double hi, double *out, sm_err *e);
int sm_json_integer(const cJSON *obj, const char *path, const char *key,
                    int required, int64_t lo, int64_t hi, int64_t *out,
                    sm_err *e);
int sm_json_string(const cJSON *obj, const char *path, const char *key,
                   int required, const char **out, sm_err *e);
/* A flag: JSON true/false or the numbers 0/1 (SPEC 6). */
int sm_json_flag(const cJSON *obj, const char *path, const char *key,
                 int required, int *out, sm_err *e);
/* Fixed-length array of flags (true/false or 0/1 per entry). */
int sm_json_flag_array(const cJSON *obj, const char *path, const char *key,
                       int required, int len, int *out, sm_err *e);
/* A JSON number that is a whole number in [lo, hi], checked before any
 * float-to-int conversion (hostile values such as 1e300 stay defined). */
int sm_json_whole(const cJSON *j, double lo, double hi, int64_t *out);
/* Fixed-length array of integers. */
int sm_json_int_array(const cJSON *obj, const char *path, const char *key,
                      int required, int minlen, int maxlen, int64_t lo,
                      int64_t hi, int64_t *out, int *len, sm_err *e);
/* Object check: reject keys not in the NULL-terminated allowed list. */
int sm_json_only_keys(const cJSON *obj, const char *path,
                      const char *const *allowed, sm_err *e);
int sm_json_expect_object(const cJSON *j, const char *path, sm_err *e);
/* Check "format" and "version": 1. */
int sm_json_check_format(const cJSON *root, const char *format, sm_err *e);

#endif
