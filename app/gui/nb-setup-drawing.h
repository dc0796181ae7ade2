/* nb-setup-drawing.h — a configuration's set-up drawn to scale with cairo
 *
 * Draws an NbSetup (protocols/nb-setup.h: the runner's geometry) into a
 * width × height box: a 1 LU grid, a scale bar, the robot's footprint (a disc
 * of its width, nb-course.h) and what the clause lays out, labelled as the
 * standard names it (P0–P3, PG, A1–A4, the bearings).  y points up.
 */
#pragma once

#include <cairo.h>
#include <gdk/gdk.h>

#include "nb-setup.h"

G_BEGIN_DECLS

void  nb_setup_draw (cairo_t *cr, const NbSetup *setup, double width, double height,
                     const GdkRGBA *foreground);
/* What the drawing shows, in words (translated), for the line under it. */
char *nb_setup_describe (const NbSetup *setup);

G_END_DECLS
