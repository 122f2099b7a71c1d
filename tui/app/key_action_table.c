/* key_action_table.c - the key table's lookups (the table itself is in key_action_table.h). */
#include "key_action_table.h"

#include <stdio.h>
#include <string.h>

const char *const sm_action_names[SM_ACT_COUNT] = {
#define X(id, help) #id,
    SM_ACTIONS(X)
#undef X
};
const char *const sm_action_help[SM_ACT_COUNT] = {
#define X(id, help) help,
    SM_ACTIONS(X)
#undef X
};

const sm_keydef sm_keymap[] = {
#define K(key, act) {key, SM_ACT_##act},
    SM_KEYMAP(K)
#undef K
};
const int sm_nkeymap = (int)(sizeof sm_keymap / sizeof sm_keymap[0]);

int sm_key_action(const char *key)
{
    for (int i = 0; i < sm_nkeymap; i++)
        if (strcmp(sm_keymap[i].key, key) == 0) return (int)sm_keymap[i].action;
    return -1;
}

const char *sm_action_keys(sm_action a, char *buf, int n)
{
    int len = 0;
    buf[0] = '\0';
    for (int i = 0; i < sm_nkeymap && len < n; i++) {
        if (sm_keymap[i].action != a) continue;
        len += snprintf(buf + len, (size_t)(n - len), "%s%s", len ? ", " : "", sm_keymap[i].key);
    }
    return buf;
}

int sm_key_name_valid(const char *key)
{
    static const char *const named[] = {"Left", "Right", "Up", "Down", "PgUp", "PgDn", "Home",
                                        "End", "Enter", "Esc", "Tab", "BTab", "Space",
                                        "Backspace", "Delete", "Insert", NULL};
    size_t n = strlen(key);
    if (n == 1) return key[0] > ' ' && key[0] < 127;
    if (n == 3 && key[0] == 'C' && key[1] == '-') return key[2] >= 'a' && key[2] <= 'z';
    for (int i = 0; named[i]; i++)
        if (strcmp(named[i], key) == 0) return 1;
    if (key[0] == 'F') {
        int f = 0;
        if (sscanf(key + 1, "%d", &f) == 1 && f >= 1 && f <= 12) {
            char b[8];
            snprintf(b, sizeof b, "F%d", f);
            return strcmp(b, key) == 0;
        }
    }
    return 0;
}
