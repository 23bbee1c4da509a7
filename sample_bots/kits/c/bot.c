/* A Truco Arena stdio bot in C (docs/protocol.md, "Stdio bots").
   Reads one JSON object per line; answers each decision with an action id.
   Its one idea: accept every bet, else play a card, never go to the mazo. */
#include <stdio.h>
#include <string.h>

static char line[1 << 20];

/* Index of the first legal action starting with `prefix`, or -1. */
static int find(const char *legal, const char *prefix) {
    int i = 0;
    for (const char *p = legal; *p && *p != ']'; i++) {
        p = strchr(p, '"');                 /* action texts hold no quotes */
        if (!p) break;
        if (strncmp(p + 1, prefix, strlen(prefix)) == 0) return i;
        p = strchr(p + 1, '"') + 1;         /* past the closing quote */
    }
    return -1;
}

int main(void) {
    while (fgets(line, sizeof line, stdin)) {
        if (!strstr(line, "\"type\":\"decision\"")) continue;  /* game_start, hand_end, game_end */
        const char *legal = strstr(line, "\"legal_actions\":[") + 17;
        int id = find(legal, "quiero");
        if (id < 0) id = find(legal, "play ");
        if (id < 0) id = 0;
        fprintf(stderr, "c bot: action %d\n", id);
        printf("%d\n", id);
        fflush(stdout);
    }
    return 0;
}
