#include "bench_files.h"

FILE *sccd_bench_open(const char *dir, const char *name, const char *ext)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "%s: cannot write %s\n", name, path);
    return f;
}
