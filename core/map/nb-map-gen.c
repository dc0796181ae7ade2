#include "nb-map-gen.h"
#include "nb-error.h"

#include <math.h>

void
nb_map_gen_options_init (NbMapGenOptions *o)
{
  *o = (NbMapGenOptions) {
    .lu_mm = 500.0, .resolution_mm = 50.0,
    .p0_x_lu = 1.0, .p0_y_lu = 1.0, .scale = 1.0,
    .wall_mm = 150.0, .partition_mm = 200.0, .margin_mm = 500.0,
    .furniture = TRUE, .shadow_from = 0.2, .shadow_to = 0.8,
    .mode = NB_MAP_MODE_TRINARY, .seed = 1, .reference_mm = { NAN, NAN },
  };
}

/* The mapping from the map frame to the arena frame (mm, A_1 at the origin). */
typedef struct {
  double lu, side;
  double p0x, p0y, c0, s0;      /* P0 in the arena, its heading */
  double tx, ty, ce, se, scale; /* the map's error */
} Placement;

static void
map_to_arena (const Placement *p, double x, double y, double *ax, double *ay)
{
  /* Undo the error: q = R(−rot)·(m − t) / scale, in P0's frame … */
  double dx = x - p->tx, dy = y - p->ty;
  double qx = (p->ce * dx + p->se * dy) / p->scale, qy = (-p->se * dx + p->ce * dy) / p->scale;

  /* … then P0's frame → the arena's. */
  *ax = p->p0x + p->c0 * qx - p->s0 * qy;
  *ay = p->p0y + p->s0 * qx + p->c0 * qy;
}

static void
arena_to_map (const Placement *p, double ax, double ay, double *x, double *y)
{
  double dx = ax - p->p0x, dy = ay - p->p0y;
  double qx = (p->c0 * dx + p->s0 * dy) * p->scale, qy = (-p->s0 * dx + p->c0 * dy) * p->scale;

  *x = p->tx + p->ce * qx - p->se * qy;
  *y = p->ty + p->se * qx + p->ce * qy;
}

static gboolean
in_rect (double x, double y, double x0, double y0, double x1, double y1)
{
  return x >= MIN (x0, x1) && x <= MAX (x0, x1) && y >= MIN (y0, y1) && y <= MAX (y0, y1);
}

/* The column and the four T partitions: each T stands on the middle of a
 * wall, its stem 1.5 LU long, its bar 2 LU wide (our layout; the standard
 * fixes only their number and thickness). */
static gboolean
furniture (const Placement *p, double t, double ax, double ay)
{
  double lu = p->lu, h = p->side / 2.0;

  if (hypot (ax - h, ay - h) <= 0.5 * lu)
    return TRUE;
  for (int w = 0; w < 4; w++)
    {
      /* Work in wall w's frame: s along the wall from its middle, d inward. */
      double s, d;

      switch (w)
        {
        case 0: s = ax - h; d = ay; break;
        case 1: s = ay - h; d = p->side - ax; break;
        case 2: s = h - ax; d = p->side - ay; break;
        default: s = h - ay; d = ax; break;
        }
      if (in_rect (s, d, -t / 2, 0, t / 2, 1.5 * lu) ||
          in_rect (s, d, -lu, 1.5 * lu - t, lu, 1.5 * lu))
        return TRUE;
    }
  return FALSE;
}

/* The reference post of 10.2 (nb_map_fit_match_reference): a square of
 * NB_MAP_GEN_REFERENCE_MM about o->reference_mm in P0's frame. */
static gboolean
reference_post (const Placement *p, const NbMapGenOptions *o, double ax, double ay)
{
  double dx = ax - p->p0x, dy = ay - p->p0y;
  double qx = p->c0 * dx + p->s0 * dy, qy = -p->s0 * dx + p->c0 * dy;

  return isfinite (o->reference_mm[0]) &&
         fabs (qx - o->reference_mm[0]) <= NB_MAP_GEN_REFERENCE_MM / 2 &&
         fabs (qy - o->reference_mm[1]) <= NB_MAP_GEN_REFERENCE_MM / 2;
}

/* e > 0 outside the arena's inner outline (its Chebyshev distance), < 0
 * inside; the wall whose face is nearest and the fraction along it. */
static double
outline (const Placement *p, double ax, double ay, guint *wall, double *along)
{
  double L = p->side, e[4] = { -ay, ax - L, ay - L, -ax };
  double f[4] = { ax / L, ay / L, (L - ax) / L, (L - ay) / L };
  guint w = 0;

  for (guint i = 1; i < 4; i++)
    if (e[i] > e[w])
      w = i;
  *wall = w;
  *along = f[w];
  return e[w];
}

NbMap *
nb_map_generate (const NbMapGenOptions *o, double map_corner_mm[4][2], GError **error)
{
  static const double unit[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
  g_autoptr (GRand) rand = NULL;
  g_autoptr (NbMap) map = NULL;
  Placement p;
  double res = o->resolution_mm, yaw = o->origin_yaw_deg * G_PI / 180.0;
  double umin = G_MAXDOUBLE, vmin = G_MAXDOUBLE, umax = -G_MAXDOUBLE, vmax = -G_MAXDOUBLE;
  double reach, cy = cos (yaw), sy = sin (yaw);
  double width_cells, height_cells;

  if (!(o->lu_mm > 0) || !(res > 0) || !(o->scale > 0) || !(o->wall_mm >= 0) ||
      !(o->margin_mm >= 0) || !(o->noise_cells >= 0) || !(o->speckle >= 0 && o->speckle <= 1) ||
      o->n_gaps > NB_MAP_GEN_MAX_GAPS || (o->shadow && o->shadow_wall > 3))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "synthetic map: an option is out of range");
      return NULL;
    }
  for (guint i = 0; i < o->n_gaps; i++)
    if (o->gaps[i].wall > 3)
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "synthetic map: gap %u: no wall %u", i,
                     o->gaps[i].wall + 1);
        return NULL;
      }

  p.lu = o->lu_mm;
  p.side = NB_ARENA_SIDE_LU * o->lu_mm;
  p.p0x = o->p0_x_lu * o->lu_mm;
  p.p0y = o->p0_y_lu * o->lu_mm;
  p.c0 = cos (o->p0_theta_deg * G_PI / 180.0);
  p.s0 = sin (o->p0_theta_deg * G_PI / 180.0);
  p.tx = o->tx_mm;
  p.ty = o->ty_mm;
  p.ce = cos (o->rotation_deg * G_PI / 180.0);
  p.se = sin (o->rotation_deg * G_PI / 180.0);
  p.scale = o->scale;

  /* The grid covers the mapped arena, its walls, any shadow or leak, and the margin. */
  reach = (o->wall_mm + MAX (-o->shadow_offset_mm, 0.0) + o->lu_mm) * o->scale + o->margin_mm;
  for (int i = 0; i < 4; i++)
    {
      double x, y, u, v;

      arena_to_map (&p, unit[i][0] * p.side, unit[i][1] * p.side, &x, &y);
      map_corner_mm[i][0] = x;
      map_corner_mm[i][1] = y;
      u = cy * x + sy * y;
      v = -sy * x + cy * y;
      umin = MIN (umin, u); umax = MAX (umax, u);
      vmin = MIN (vmin, v); vmax = MAX (vmax, v);
    }
  umin -= reach; vmin -= reach; umax += reach; vmax += reach;
  width_cells = ceil ((umax - umin) / res);
  height_cells = ceil ((vmax - vmin) / res);
  if (!(width_cells * height_cells <= (double) (1u << 28)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "synthetic map: %.0f × %.0f cells is too many (coarser resolution?)",
                   width_cells, height_cells);
      return NULL;
    }
  map = nb_map_new ((guint) width_cells, (guint) height_cells, res, error);
  if (map == NULL)
    return NULL;
  map->origin_yaw_rad = yaw;
  map->origin_x_mm = cy * umin - sy * vmin;
  map->origin_y_mm = sy * umin + cy * vmin;
  map->mode = o->mode;
  nb_map_set_levels (map);

  rand = g_rand_new_with_seed (o->seed);
  for (guint row = 0; row < map->height; row++)
    for (guint col = 0; col < map->width; col++)
      {
        double x, y, ax, ay, along, e;
        guint wall;
        guint8 v = NB_MAP_UNKNOWN;

        nb_map_image_to_world (map, col + 0.5, row + 0.5, &x, &y);
        map_to_arena (&p, x, y, &ax, &ay);
        e = outline (&p, ax, ay, &wall, &along);
        /* Rough surfaces: the face a cell sees moves by σ (Box–Muller, only
         * where it can matter, to keep 16 M cells cheap). */
        if (o->noise_cells > 0 && fabs (e) < (5 * o->noise_cells + 1) * res)
          {
            double u1 = g_rand_double (rand), u2 = g_rand_double (rand);

            e += o->noise_cells * res * sqrt (-2 * log (1 - u1)) * cos (2 * G_PI * u2);
          }

        if (e <= 0)
          v = ((o->furniture && furniture (&p, o->partition_mm, ax, ay)) ||
               reference_post (&p, o, ax, ay)) ? 100 : 0;
        else if (e <= o->wall_mm)
          v = 100;

        for (guint g = 0; g < o->n_gaps; g++)
          {
            const NbMapGenGap *gap = &o->gaps[g];

            if (wall == gap->wall && along >= gap->from && along <= gap->to && e > -res)
              {
                if (!gap->leak)
                  v = e <= o->wall_mm ? NB_MAP_UNKNOWN : v;
                else if (e <= o->wall_mm + o->lu_mm)
                  v = 0;          /* the robot saw through the gap */
              }
          }
        if (o->shadow && wall == o->shadow_wall && along >= o->shadow_from &&
            along <= o->shadow_to)
          {
            double at = -o->shadow_offset_mm;   /* the shadow's e */

            if (fabs (e - at) <= res)
              v = 100;
            else if (at > 0 && e > o->wall_mm && e < at)
              v = 0;              /* seen free up to the phantom wall */
          }
        if (o->unknown_patch &&
            hypot (ax - 5.25 * p.lu, ay - 5.25 * p.lu) <= 0.75 * p.lu && e < 0)
          v = NB_MAP_UNKNOWN;
        if (v == 0 && o->speckle > 0 && g_rand_double (rand) < o->speckle)
          v = 100;
        if (v == NB_MAP_UNKNOWN && o->mode == NB_MAP_MODE_SCALE)
          v = 50;                 /* unseen: a probability between the thresholds */
        map->cells[(gsize) row * map->width + col] = v;
      }
  return g_steal_pointer (&map);
}
