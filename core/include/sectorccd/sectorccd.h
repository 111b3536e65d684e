/* sectorccd — rotation-aware continuous collision detection.
 * The umbrella header: include this one. */
#ifndef SECTORCCD_H
#define SECTORCCD_H

#include "sectorccd/base.h"
#include "sectorccd/math_functions.h"
#include "sectorccd/shapes.h"
#include "sectorccd/motion.h"
#include "sectorccd/geometry.h"
#include "sectorccd/discrete.h"
#include "sectorccd/catalogue.h"
#include "sectorccd/sector2.h"
#include "sectorccd/sweep2.h"
#include "sectorccd/sector3.h"
#include "sectorccd/sweep3.h"
#include "sectorccd/support.h"
#include "sectorccd/distance.h"
#include "sectorccd/toi.h"
#include "sectorccd/ccd.h"
#include "sectorccd/broadphase.h"

#endif
