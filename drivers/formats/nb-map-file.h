/* nb-map-file.h — ROS map_server maps on disk, and the clause 10 analysis of one
 *
 * A map is a YAML file (image, resolution, origin [x, y, yaw], negate,
 * occupied_thresh, free_thresh, mode trinary|scale|raw) and the image it
 * names, relative to the YAML's directory: PGM (P5 or P2, read here) or PNG
 * (read with cairo, averaged to grey).  Occupancy follows map_server:
 * p = (255 − v)/255 (v/255 with negate); occupied if p > occupied_thresh,
 * free if p < free_thresh, otherwise unknown — or, in scale mode, the value
 * 1 + 98·(p − free)/(occupied − free), and unknown where a PNG is not opaque.
 * Raw mode keeps v (the OccupancyGrid byte).
 *
 * Metres become millimetres here and only here (MM_PER_M in the .c).
 */
#pragma once

#include <glib.h>

#include "nb-map.h"
#include "nb-map-fit.h"

G_BEGIN_DECLS

/* NB_ERROR_INPUT naming the file and the key or line at fault. */
NbMap   *nb_map_read  (const char *yaml_path, GError **error);

typedef enum {
  NB_MAP_IMAGE_PGM,
  NB_MAP_IMAGE_PNG,
} NbMapImageFormat;

/* Writes DIR/NAME.yaml and DIR/NAME.pgm|.png, in the map's mode. */
gboolean nb_map_write (const NbMap *map, const char *dir, const char *name,
                       NbMapImageFormat format, GError **error);

/* ---------------------------------------------------- clause 10 analysis -- */

/* One map, read and analysed: what `map corners` prints and what a
 * campaign import records. */
typedef struct {
  NbMap *map;
  NbMapFit *fit;                /* corners numbered to the truth when there is one */
  gboolean has_truth;
  double truth_mm[4][2];
  double dm_mm;                 /* ISO 18646-2 10.2 Dm; NaN without truth */
  NbMapReference reference;     /* options->reference_mm given with a truth: whether the map
                                 * showed it (nb_map_fit_match_reference) */
} NbMapAnalysis;

/* truth_mm may be NULL; options NULL for the defaults. */
NbMapAnalysis *nb_map_analyse      (const char *yaml_path, const double (*truth_mm)[2],
                                    const NbMapFitOptions *options, GError **error);
void           nb_map_analysis_free (NbMapAnalysis *analysis);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbMapAnalysis, nb_map_analysis_free)

G_END_DECLS
