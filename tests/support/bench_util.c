#include "bench_util.h"

#include <string.h>

void sccd_bench_args(int argc, char **argv, bool *quick, const char **out)
{
    *quick = false;
    *out = "build/bench";
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0)
            *quick = true;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            *out = argv[++i];
    }
}

FILE *sccd_bench_open(const char *dir, const char *name, const char *ext)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "%s: cannot write %s\n", name, path);
    return f;
}
