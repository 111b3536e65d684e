/* The adapters' CCD options (ccd_options.h): defaults and the validating
 * merge both adapters' set_options calls. */
#include "sectorccd/ccd_options.h"

/* Used when a caller asks for the defaults of an invalid overlap: the ODE
 * adapter's default (a millimetre in metres). */
#define FALLBACK_OVERLAP 0.001

sccd_ccd_options sccd_ccd_options_default(sccd_real overlap)
{
    bool ok = sccd_is_valid_real(overlap) && overlap > 0.0;
    SCCD_ASSERT(ok);
    sccd_real d = ok ? overlap : FALLBACK_OVERLAP;
    return (sccd_ccd_options){d, 0.25 * d, 8, SCCD_CANDIDATES_SWEEP};
}

static bool positive(sccd_real x) { return sccd_is_valid_real(x) && x > 0.0; }

unsigned sccd_ccd_options_merge(sccd_ccd_options *dst, sccd_ccd_options src)
{
    SCCD_ASSERT(dst != NULL);
    if (dst == NULL)
        return SCCD_OPTION_ALL;
    unsigned invalid = 0;
    if (positive(src.overlap))
        dst->overlap = src.overlap;
    else
        invalid |= SCCD_OPTION_OVERLAP;
    if (positive(src.toi_tolerance))
        dst->toi_tolerance = src.toi_tolerance;
    else
        invalid |= SCCD_OPTION_TOI_TOLERANCE;
    if (src.toi_max_iterations >= 1)
        dst->toi_max_iterations = src.toi_max_iterations;
    else
        invalid |= SCCD_OPTION_TOI_MAX_ITERATIONS;
    /* An enum may hold any int: compare against the named values. */
    if (src.candidates == SCCD_CANDIDATES_SWEEP || src.candidates == SCCD_CANDIDATES_START_END)
        dst->candidates = src.candidates;
    else
        invalid |= SCCD_OPTION_CANDIDATES;
    return invalid;
}

const char *sccd_ccd_options_problem(unsigned invalid)
{
    static const char *const problem[] = {
        "overlap must be finite and > 0",
        "toi_tolerance must be finite and > 0",
        "toi_max_iterations must be >= 1",
        "candidates is not a sccd_candidates value",
    };
    for (int i = 0; i < (int)(sizeof problem / sizeof problem[0]); ++i)
        if (invalid & (1u << i))
            return problem[i];
    return NULL;
}
