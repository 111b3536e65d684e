/* sectorccd — rotation-aware continuous collision detection.
 * The umbrella header: include this one. Each header it includes has its own
 * extern "C" block, so C++ includes it as it is. */
#ifndef SECTORCCD_H
#define SECTORCCD_H

/* foundations */
#include "sectorccd/base.h"
#include "sectorccd/math_functions.h"
#include "sectorccd/shapes.h"
#include "sectorccd/motion.h"
/* primitive geometry and tests */
#include "sectorccd/geometry.h"
#include "sectorccd/discrete.h"
#include "sectorccd/catalogue.h"
/* sectors and sweeps */
#include "sectorccd/sector2.h"
#include "sectorccd/sector3.h"
#include "sectorccd/sweep2.h"
#include "sectorccd/sweep3.h"
/* distance, time of impact, the CCD pipeline */
#include "sectorccd/support.h"
#include "sectorccd/distance.h"
#include "sectorccd/toi.h"
#include "sectorccd/ccd.h"
#include "sectorccd/ccd_options.h"
#include "sectorccd/impact.h"
/* broadphase */
#include "sectorccd/broadphase.h"
/* meshes and sphere trees */
#include "sectorccd/mesh.h"
#include "sectorccd/spherefill.h"
#include "sectorccd/spheretree.h"
#include "sectorccd/meshtree.h"

#endif
