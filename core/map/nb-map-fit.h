/* nb-map-fit.h — the arena's corners in a robot's map, and the map's defects
 *
 * ISO 18646-2 clause 10.  The walls are fitted to the map's wall surfaces:
 * the edges between an occupied cell and a free neighbour (their midpoints,
 * which lie on the surface the robot saw without the half-cell bias of cell
 * centres), each with the side the free space is on.  Lines are found by
 * sequential RANSAC (GLib's GRand with the options' seed, so a map always
 * gives the same answer; MSAC scores; every other hypothesis takes its
 * second point from the first one's neighbourhood) and refined by
 * Tukey-weighted total least squares (GSL's symmetric eigensolver on the
 * 2×2 scatter matrix) on all the points.  The arena's four walls are, over
 * the directions found, the four inward-facing lines of a rectangle that
 * weigh most (points discounted by their RMS); adjacent walls intersect in
 * A'_1..A'_4.
 *
 * Numbering: A'_1..A'_4 counter-clockwise, A'_1 the corner nearest the
 * map's (−x, −y) direction (smallest x + y), as nb_arena_corners() numbers
 * the truth when P0 heads along the arena's first wall.  Wall i runs from
 * corner i to corner i + 1.  nb_map_fit_match_truth() renumbers the corners
 * to a given truth instead (a surveyed truth in any order, the map
 * registered by P0).
 *
 * Corner uncertainty: propagated from the two wall fits, assuming
 * independent point errors: each wall's offset (σ²/N at its centroid) and
 * direction (σ²/Σt²) move the wall at the corner by w = δ + t·ε; the corner
 * solves n₁·Δp = w₁, n₂·Δp = w₂.  σ is the wall's residual RMS, at least
 * res/√12 (a surface is only known to within its cell).  The value
 * is the 1-σ radial uncertainty sqrt(σx² + σy²); it does not include the
 * grid's systematic errors (a map can only be as good as its resolution).
 */
#pragma once

#include "nb-map.h"

G_BEGIN_DECLS

typedef struct {
  guint32 seed;                 /* RANSAC's PRNG: 1 */
  guint iterations;             /* RANSAC hypotheses per line: 400 */
  double shadow_band;           /* searched each side of a wall, fraction of the arena side: 0.1 */
  double shadow_min_length;     /* a shadow is at least this fraction of its wall: 0.1 */
  double accept_gap_mm;         /* an open contour no wider than this is accepted: 0 */
  double accept_shadow_mm;      /* a shadow no farther than this from its wall is accepted: 0 */
  double reference_mm[2];       /* 10.2: a reference feature off the arena's symmetry, in the
                                 * truth's frame (nb_map_fit_match_reference); NaN: none */
} NbMapFitOptions;

void nb_map_fit_options_init (NbMapFitOptions *options);

typedef struct {
  double nx, ny;                /* unit normal, pointing into the arena */
  double rho_mm;                /* the wall's surface: nx·x + ny·y = rho */
  double residual_mm;           /* RMS distance of its points to the fitted line */
  guint n_points;
  double coverage;              /* fraction of its length (corner to corner) with points */
} NbMapWall;

typedef enum {
  NB_MAP_DEFECT_OPEN_CONTOUR,   /* free space reached from inside, outside the outline */
  NB_MAP_DEFECT_SHADOW,         /* a second contour parallel to a wall */
} NbMapDefectKind;

typedef struct {
  NbMapDefectKind kind;
  guint wall;                   /* 0..3 */
  gboolean accepted;            /* within the accepted range */
  /* The evidence, in the map frame: open contour: the opening along the
   * wall; shadow: the second contour. */
  double x0_mm, y0_mm, x1_mm, y1_mm;
  double length_mm;             /* the opening's width, the shadow's length */
  double offset_mm;             /* shadow: signed distance from the wall, + inside the arena */
  double area_mm2;              /* open contour: free area reached outside the outline */
} NbMapDefect;

typedef struct {
  NbMapWall walls[4];
  double corner_mm[4][2];       /* A'_1..A'_4 */
  double corner_sigma_mm[4];
  double side_mm[2];            /* mean length of walls 1 and 3, of walls 2 and 4 */
  GArray *defects;              /* of NbMapDefect */
  gboolean passed;              /* no defect beyond the accepted range */
  GArray *leak_cells;           /* guint32 cell indices outside the outline reached from
                                 * inside, for drawing (at most NB_MAP_FIT_MAX_EVIDENCE) */
  guint n_points;               /* wall-surface points in the map */
} NbMapFit;

#define NB_MAP_FIT_MAX_EVIDENCE 1000000

/* NB_ERROR_INPUT when the map shows no arena outline. */
NbMapFit *nb_map_fit             (const NbMap *map, const NbMapFitOptions *options,
                                  GError **error);
void      nb_map_fit_free        (NbMapFit *fit);
/* Renumbers corners and walls to pair with truth (ISO 18646-2 10.2: A'_i is
 * the map's image of A_i): the truth's turning sense, and the cyclic shift
 * whose rotation of the map about the frame's origin (P0: the map frame is
 * P0's, as the truth is) explains the map's corners best — by position in
 * the registered frame, not by the smallest Dm, so a map turned by 90°
 * about P0 keeps a Dm of the turn.  Ties (P0 at the arena's centre) go to
 * the smallest rotation. */
void      nb_map_fit_match_truth (NbMapFit *fit, const double truth_mm[4][2]);
/* 10.2: the map's heading against the arena's, degrees (−180, 180]: the
 * rotation that best turns the truth's outline onto the map's, both about
 * their centroids (a shift of the map does not turn it), corners paired
 * A_i ↔ A'_i. */
double    nb_map_heading_deg     (const double truth_mm[4][2], const double map_mm[4][2]);

/* 10.2 with the arena's symmetry broken.  The arena (square, its column in
 * the centre, a T partition on each wall) is the same turned by a quarter
 * about its centre: a map turned so has its corners where the truth's are,
 * and no numbering by the corners can see it (Dm 0).  A reference feature
 * the laboratory places off that symmetry — a post, a box — surveyed in the
 * truth's frame tells: of the four numberings (after
 * nb_map_fit_match_truth), the one whose registration of the map to the
 * arena (the least-squares rigid motion of the truth's corners onto the
 * map's) puts the reference on an occupied cell (within
 * NB_MAP_REFERENCE_RADIUS_MM, at least 2 cells) is kept.  No numbering or
 * several: the numbering stays as it was and the answer says so. */
#define NB_MAP_REFERENCE_RADIUS_MM 100.0

typedef enum {
  NB_MAP_REFERENCE_NONE,        /* no reference given */
  NB_MAP_REFERENCE_FOUND,       /* one numbering shows it: kept */
  NB_MAP_REFERENCE_NOT_SEEN,    /* no numbering shows it: the map lacks it */
  NB_MAP_REFERENCE_AMBIGUOUS,   /* several do: it is not off the symmetry */
} NbMapReference;

NbMapReference nb_map_fit_match_reference (NbMapFit *fit, const NbMap *map,
                                           const double truth_mm[4][2],
                                           const double reference_mm[2]);
const char    *nb_map_reference_to_string (NbMapReference reference);

const char *nb_map_defect_kind_to_string (NbMapDefectKind kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbMapFit, nb_map_fit_free)

G_END_DECLS
