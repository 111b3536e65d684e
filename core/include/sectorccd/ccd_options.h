/* sectorccd — the tuning of an engine adapter's CCD world, one type for both
 * adapters (sectorccd_chipmunk.h, sectorccd_ode.h): the options, their
 * defaults and one validating merge, so both adapters accept and refuse the
 * same values. Lengths are in the engine's units, which is why the adapters
 * keep their own default skin (`overlap`). */
#ifndef SECTORCCD_CCD_OPTIONS_H
#define SECTORCCD_CCD_OPTIONS_H

#include "sectorccd/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Which shapes a CCD body is tested against.
typedef enum sccd_candidates {
    SCCD_CANDIDATES_SWEEP,     ///< everything the rotational sweep may touch (the library's method; never misses)
    SCCD_CANDIDATES_START_END, ///< only what the box around the start and end poses touches (what speculative CCD sees; a baseline)
} sccd_candidates;

/// Tuning of an adapter's CCD world; lengths in the engine's units.
typedef struct sccd_ccd_options {
    sccd_real overlap;          ///< contact skin, finite and > 0 (default: the adapter's): resting pairs may overlap 3 skins before the impact solver acts; a touch that does not approach may sink one
    sccd_real toi_tolerance;    ///< TOI distance tolerance, finite and > 0 (default overlap/4)
    int toi_max_iterations;     ///< cap on TOI runs per shape pair search (each of up to SCCD_TOI_MAX_ITERATIONS distance steps), ≥ 1 (default 8)
    sccd_candidates candidates; ///< candidate set (default SCCD_CANDIDATES_SWEEP)
} sccd_ccd_options;

/// The fields of sccd_ccd_options as bits: the set of invalid fields sccd_ccd_options_merge returns.
typedef enum sccd_ccd_option_bit {
    SCCD_OPTION_OVERLAP = 1 << 0,            ///< overlap
    SCCD_OPTION_TOI_TOLERANCE = 1 << 1,      ///< toi_tolerance
    SCCD_OPTION_TOI_MAX_ITERATIONS = 1 << 2, ///< toi_max_iterations
    SCCD_OPTION_CANDIDATES = 1 << 3,         ///< candidates
    SCCD_OPTION_ALL = (1 << 4) - 1,          ///< every field
} sccd_ccd_option_bit;

/// The defaults for a contact skin (the adapter's, in its length units): TOI tolerance overlap/4, 8 iterations, SCCD_CANDIDATES_SWEEP. overlap not finite or ≤ 0: SCCD_ASSERT and 0.001 is used.
sccd_ccd_options sccd_ccd_options_default(sccd_real overlap);

/// Copy every valid field of src into *dst; an invalid field of src leaves dst's value. Returns the invalid fields (sccd_ccd_option_bit set, 0: all copied). Reports nothing: the caller does. NULL dst: SCCD_ASSERT and SCCD_OPTION_ALL.
unsigned sccd_ccd_options_merge(sccd_ccd_options *dst, sccd_ccd_options src);

/// What is wrong with the lowest field set in invalid (a merge result), e.g. "overlap must be finite and > 0"; NULL when invalid has no field.
const char *sccd_ccd_options_problem(unsigned invalid);

#ifdef __cplusplus
}
#endif

#endif
