/* nb-map-plot.h — a robot's map with what clause 10 found in it, as PNG
 *
 * The occupancy grid (free white, occupied black, unknown grey), the fitted
 * walls (blue), the corners A'_1..A'_4 with their uncertainty, the truth
 * corners A_1..A_4 when given (green), the defects (red: free space outside
 * the outline and the opening it came through; orange: a shadow), a scale
 * bar in mm and a caption.  The map itself is nb-map-draw.h's drawing, the
 * one the window draws its maps with; this adds the words (in English, the
 * CLI's), the scale bar and the legend.
 */
#pragma once

#include <glib.h>

#include "nb-map.h"
#include "nb-map-fit.h"

G_BEGIN_DECLS

/* truth_mm may be NULL; dm_mm NaN to leave it out of the caption. */
gboolean nb_map_plot_png (const NbMap *map, const NbMapFit *fit, const double (*truth_mm)[2],
                          double dm_mm, const char *path, GError **error);

G_END_DECLS
