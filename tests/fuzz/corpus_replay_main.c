/* corpus_replay_main.c - runs a fuzz target over files given on the command
 * line (the seed corpus and saved findings), so `make check` replays them
 * under the sanitizers without needing clang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        sm_err e;
        size_t len;
        char *buf = sm_read_file(argv[i], SM_MAX_FILE_BYTES, &len, &e);
        if (!buf) {
            fprintf(stderr, "%s\n", e.msg);
            return 1;
        }
        LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
        free(buf);
        printf("%s\n", argv[i]);
    }
    return 0;
}
