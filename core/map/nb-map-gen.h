/* nb-map-gen.h — synthetic occupancy maps of the clause 10 arena
 *
 * The map a robot would save after exploring the 7 LU × 7 LU arena (its
 * column of diameter 1 LU in the centre and four T-shaped partitions), with
 * the distortions a real map shows, each chosen: a rigid error and a scale
 * of the mapped arena, rough wall surfaces, stray cells, wall segments
 * missing (unknown, or seen through: an open contour), a wall seen twice (a
 * shadow), an unseen patch.  For the tests now, for the simulator's mapping
 * model later.  Deterministic for a given seed.
 *
 * The map frame is P0's frame (the robot starts mapping at P0), as
 * nb_arena_corners() gives the truth in.  The mapped arena is the true one
 * scaled by `scale` about P0, rotated by rotation_deg and shifted by
 * (tx_mm, ty_mm): the corners where the map shows them come back in
 * map_corner_mm.
 */
#pragma once

#include "nb-map.h"

G_BEGIN_DECLS

#define NB_MAP_GEN_MAX_GAPS 4

/* Wall w runs from A_{w+1} to A_{w+2} (wall 0: A_1 → A_2, …, wall 3: A_4 → A_1);
 * from/to are fractions of its length. */
typedef struct {
  guint wall;
  double from, to;
  gboolean leak;                /* TRUE: seen through, free beyond; FALSE: unknown */
} NbMapGenGap;

typedef struct {
  double lu_mm;                 /* 500 */
  double resolution_mm;         /* 50 */
  double p0_x_lu, p0_y_lu, p0_theta_deg;   /* P0 in the arena frame: (1, 1, 0) */
  double tx_mm, ty_mm, rotation_deg, scale;  /* the map's error: 0, 0, 0, 1 */
  double origin_yaw_deg;        /* the grid's own rotation in the map frame (map_server yaw) */
  double wall_mm;               /* wall thickness: 150 */
  double partition_mm;          /* T partition thickness (clause 10: 100–300): 200 */
  double margin_mm;             /* unknown border around the arena: 500 */
  double noise_cells;           /* σ of the wall surfaces, cells: 0 */
  double speckle;               /* probability of a stray occupied cell in free space: 0 */
  gboolean furniture;           /* the column and the T partitions: TRUE */
  double reference_mm[2];       /* 10.2: a reference post (NB_MAP_GEN_REFERENCE_MM square) off
                                 * the arena's symmetry, centred here in P0's frame (the
                                 * truth's); NaN: none */
  gboolean unknown_patch;       /* an unseen disc of radius 0.75 LU in the A_3 quadrant */
  NbMapGenGap gaps[NB_MAP_GEN_MAX_GAPS];
  guint n_gaps;
  gboolean shadow;              /* a second contour parallel to wall shadow_wall … */
  guint shadow_wall;
  double shadow_offset_mm;      /* … this far inside the arena (negative: outside, beyond the wall) */
  double shadow_from, shadow_to;
  NbMapMode mode;               /* trinary; scale gives the unseen cells a 0.5 probability */
  guint32 seed;
} NbMapGenOptions;

#define NB_MAP_GEN_REFERENCE_MM 200.0

void   nb_map_gen_options_init (NbMapGenOptions *options);
/* map_corner_mm: where the map shows A_1..A_4 (the truth with the chosen error). */
NbMap *nb_map_generate         (const NbMapGenOptions *options, double map_corner_mm[4][2],
                                GError **error);

G_END_DECLS
