#include "nb-map.h"
#include "nb-error.h"

#include <math.h>
#include <string.h>

/* 4000 × 4000 is the benchmark; 2^28 cells (256 MiB) is far beyond any arena map. */
#define MAX_CELLS (1u << 28)

NbMap *
nb_map_new (guint width, guint height, double resolution_mm, GError **error)
{
  NbMap *map;

  if (width == 0 || height == 0 || (guint64) width * height > MAX_CELLS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "a map of %u × %u cells is not supported",
                   width, height);
      return NULL;
    }
  map = g_new0 (NbMap, 1);
  map->width = width;
  map->height = height;
  map->resolution_mm = resolution_mm;
  map->occupied_thresh = 0.65;
  map->free_thresh = 0.196;
  map->mode = NB_MAP_MODE_TRINARY;
  nb_map_set_levels (map);
  map->cells = g_try_malloc ((gsize) width * height);
  if (map->cells == NULL)
    {
      g_free (map);
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "no memory for a map of %u × %u cells",
                   width, height);
      return NULL;
    }
  memset (map->cells, NB_MAP_UNKNOWN, (gsize) width * height);
  return map;
}

void
nb_map_free (NbMap *map)
{
  if (map == NULL)
    return;
  g_free (map->cells);
  g_free (map);
}

void
nb_map_set_levels (NbMap *map)
{
  if (map->mode == NB_MAP_MODE_RAW)
    {
      /* Raw images hold the OccupancyGrid bytes themselves (−1 → 255). */
      map->occupied_level = (guint8) CLAMP (ceil (map->occupied_thresh * 100.0), 1, 100);
      map->free_level = (guint8) CLAMP (floor (map->free_thresh * 100.0), 0, 99);
    }
  else
    {
      map->occupied_level = 100;
      map->free_level = 0;
    }
}

void
nb_map_image_to_world (const NbMap *map, double col, double row, double *x_mm, double *y_mm)
{
  double u = col * map->resolution_mm;
  double v = (map->height - row) * map->resolution_mm;
  double c = cos (map->origin_yaw_rad), s = sin (map->origin_yaw_rad);

  *x_mm = map->origin_x_mm + c * u - s * v;
  *y_mm = map->origin_y_mm + s * u + c * v;
}

void
nb_map_world_to_image (const NbMap *map, double x_mm, double y_mm, double *col, double *row)
{
  double dx = x_mm - map->origin_x_mm, dy = y_mm - map->origin_y_mm;
  double c = cos (map->origin_yaw_rad), s = sin (map->origin_yaw_rad);
  double u = c * dx + s * dy, v = -s * dx + c * dy;

  *col = u / map->resolution_mm;
  *row = map->height - v / map->resolution_mm;
}

gboolean
nb_arena_corners (double lu_mm, double p0_x_lu, double p0_y_lu, double p0_theta_deg,
                  double corner_mm[4][2], GError **error)
{
  static const double unit[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
  double th = p0_theta_deg * G_PI / 180.0, c = cos (th), s = sin (th);

  if (!(lu_mm > 0) || !isfinite (lu_mm) || !isfinite (p0_x_lu) || !isfinite (p0_y_lu) ||
      !isfinite (p0_theta_deg))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the arena needs a positive LU and a finite P0 pose");
      return FALSE;
    }
  for (int i = 0; i < 4; i++)
    {
      /* Arena frame → P0's frame: rotate the offset from P0 by −θ. */
      double ax = (unit[i][0] * NB_ARENA_SIDE_LU - p0_x_lu) * lu_mm;
      double ay = (unit[i][1] * NB_ARENA_SIDE_LU - p0_y_lu) * lu_mm;

      corner_mm[i][0] = c * ax + s * ay;
      corner_mm[i][1] = -s * ax + c * ay;
    }
  return TRUE;
}
