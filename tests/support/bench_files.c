#include "bench_files.h"
#include "bench_util.h"

bool sccd_bench_start(int argc, char **argv, const char *name, bool *quick, const char **out)
{
    *quick = false;
    *out = "build/bench";
    if (sccd_bench_args(argc, argv, quick, out))
        return true;
    fprintf(stderr, "usage: %s [--quick] [--out DIR]\n", name);
    return false;
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
