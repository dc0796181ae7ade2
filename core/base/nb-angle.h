/* nb-angle.h — angles in the standard's terms */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* ISO 18646-2 5.2.1: recast() maps an angle to (−180°, +180°]. */
double nb_angle_recast_deg (double angle_deg);

G_END_DECLS
