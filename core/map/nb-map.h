/* nb-map.h — an occupancy grid as a robot saves it, and the arena it should show
 *
 * The grid follows ROS map_server / nav_msgs/OccupancyGrid: cell values are
 * occupancy percentages 0..100 with NB_MAP_UNKNOWN for "not seen".  Unlike
 * map_server, every length here is in millimetres: the file reader converts
 * the YAML's metres once (drivers/file/nb-map-file.c), so the CLI and the
 * protocol see mm only.
 *
 * Frames.  Cell (col, row) has row 0 at the image top.  Its centre in the
 * grid frame is u = (col + ½)·res, v = (height − row − ½)·res; the map frame
 * is the grid frame rotated by the origin yaw and shifted by the origin
 * (map_server: "origin: the 2-D pose of the lower-left pixel in the map, as
 * (x, y, yaw), with yaw as counterclockwise rotation"):
 *   x = x0 + cos ψ·u − sin ψ·v,   y = y0 + sin ψ·u + cos ψ·v.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NB_MAP_UNKNOWN 255

typedef enum {
  NB_MAP_MODE_TRINARY,
  NB_MAP_MODE_SCALE,
  NB_MAP_MODE_RAW,
} NbMapMode;

typedef struct {
  guint width;
  guint height;
  double resolution_mm;         /* cell side */
  double origin_x_mm;           /* the lower-left corner of the lower-left cell */
  double origin_y_mm;
  double origin_yaw_rad;
  NbMapMode mode;
  gboolean negate;
  double occupied_thresh;       /* as in the YAML; the writer keeps them */
  double free_thresh;
  guint8 occupied_level;        /* value ≥ this (and ≠ unknown) is occupied */
  guint8 free_level;            /* value ≤ this is free */
  guint8 *cells;                /* width·height, row-major, row 0 = image top */
} NbMap;

/* A map of unknown cells with map_server's default thresholds (0.65, 0.196). */
NbMap   *nb_map_new       (guint width, guint height, double resolution_mm, GError **error);
void     nb_map_free      (NbMap *map);
/* Sets occupied_level and free_level from mode and thresholds: trinary and
 * scale store 100 / 0 / intermediate, raw stores the thresholds in percent. */
void     nb_map_set_levels (NbMap *map);

static inline gboolean
nb_map_value_occupied (const NbMap *map, guint8 v)
{
  return v != NB_MAP_UNKNOWN && v >= map->occupied_level;
}

static inline gboolean
nb_map_value_free (const NbMap *map, guint8 v)
{
  return v <= map->free_level;
}

/* Continuous image coordinates (col, row: cell (c, r) spans [c, c+1]×[r, r+1])
 * ↔ the map frame, mm. */
void nb_map_image_to_world (const NbMap *map, double col, double row, double *x_mm, double *y_mm);
void nb_map_world_to_image (const NbMap *map, double x_mm, double y_mm, double *col, double *row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbMap, nb_map_free)

/* ---------------------------------------------------------- the arena -- */

/* ISO 18646-2 clause 10: the arena is 7 LU × 7 LU. */
#define NB_ARENA_SIDE_LU 7.0

/* The arena's corners A_1..A_4 in P0's frame (P0 at the origin heading +x,
 * the frame of nb-route.h and of a map the robot starts at P0).  The arena
 * frame has A_1 at (0, 0) and A_2 = (7, 0), A_3 = (7, 7), A_4 = (0, 7) LU
 * (counter-clockwise); P0 stands at (p0_x_lu, p0_y_lu) in it with heading
 * p0_theta_deg. */
gboolean nb_arena_corners (double lu_mm, double p0_x_lu, double p0_y_lu, double p0_theta_deg,
                           double corner_mm[4][2], GError **error);

G_END_DECLS
