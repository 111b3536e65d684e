/* libFuzzer target for the mesh loaders: the first byte picks the format
 * (AUTO, OBJ, STL, OFF), the rest is the file. Each load must return a
 * status, and a loaded mesh must be consistent (indices in range, finite
 * vertices) and survive the report. Build and run: make fuzz. */
#include <stdint.h>
#include <stdlib.h>

#include "sectorccd/sectorccd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const sccd_mesh_format formats[4] = {SCCD_MESH_AUTO, SCCD_MESH_OBJ, SCCD_MESH_STL, SCCD_MESH_OFF};
    sccd_mesh m;
    sccd_mesh_init(&m);
    sccd_load_status s = sccd_mesh_load_buffer(&m, data + 1, size - 1, formats[data[0] % 4]);
    if (s.state == SCCD_LOAD_OK) {
        for (int i = 0; i < m.nv; ++i)
            if (!sccd_is_valid_v3(m.v[i]))
                abort();
        for (int i = 0; i < m.nt; ++i)
            for (int k = 0; k < 3; ++k)
                if (m.t[i][k] < 0 || m.t[i][k] >= m.nv)
                    abort();
        sccd_mesh_report r = sccd_mesh_report_make(&m);
        if (r.triangles != m.nt)
            abort();
    } else if (m.nv != 0 || m.nt != 0 || s.message[0] == '\0') {
        abort();
    }
    sccd_mesh_destroy(&m);
    return 0;
}
