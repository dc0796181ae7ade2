#include "nb-map-fit.h"
#include "nb-error.h"
#include "nb-metrics.h"

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <string.h>

#define MAX_LINES 12
#define SAMPLE 4000             /* points scored per RANSAC hypothesis */
#define FACING_MIN 0.3          /* n·facing: the free side is roughly along the normal */
#define FAMILY_TOL_DEG 8.0      /* lines this close to the dominant directions are walls */

void
nb_map_fit_options_init (NbMapFitOptions *o)
{
  *o = (NbMapFitOptions) {
    .seed = 1, .iterations = 400, .shadow_band = 0.1, .shadow_min_length = 0.1,
    .accept_gap_mm = 0.0, .accept_shadow_mm = 0.0, .reference_mm = { NAN, NAN },
  };
}

const char *
nb_map_reference_to_string (NbMapReference r)
{
  static const char *const names[] = { "none", "found", "not_seen", "ambiguous" };

  return r < G_N_ELEMENTS (names) ? names[r] : "none";
}

const char *
nb_map_defect_kind_to_string (NbMapDefectKind kind)
{
  return kind == NB_MAP_DEFECT_SHADOW ? "shadow" : "open_contour";
}

void
nb_map_fit_free (NbMapFit *fit)
{
  if (fit == NULL)
    return;
  if (fit->defects != NULL)
    g_array_unref (fit->defects);
  if (fit->leak_cells != NULL)
    g_array_unref (fit->leak_cells);
  g_free (fit);
}

/* ------------------------------------------------------------- points -- */

typedef struct {
  double x, y;                  /* mm, map frame */
  double fx, fy;                /* unit vector from the occupied cell to the free one */
} Point;

/* The affine map image → world: x = x0 + xc·col + xr·row. */
typedef struct {
  double x0, xc, xr, y0, yc, yr;
} Affine;

static Affine
image_affine (const NbMap *map)
{
  Affine a;
  double x1, y1, x2, y2;

  nb_map_image_to_world (map, 0, 0, &a.x0, &a.y0);
  nb_map_image_to_world (map, 1, 0, &x1, &y1);
  nb_map_image_to_world (map, 0, 1, &x2, &y2);
  a.xc = x1 - a.x0; a.yc = y1 - a.y0;
  a.xr = x2 - a.x0; a.yr = y2 - a.y0;
  return a;
}

static GArray *
surface_points (const NbMap *map, const Affine *a)
{
  static const int dc[4] = { 1, -1, 0, 0 }, dr[4] = { 0, 0, 1, -1 };
  GArray *points = g_array_new (FALSE, FALSE, sizeof (Point));
  double res = map->resolution_mm;
  double fx[4], fy[4];

  for (int k = 0; k < 4; k++)
    {
      fx[k] = (a->xc * dc[k] + a->xr * dr[k]) / res;
      fy[k] = (a->yc * dc[k] + a->yr * dr[k]) / res;
    }
  for (guint row = 0; row < map->height; row++)
    {
      const guint8 *line = map->cells + (gsize) row * map->width;

      for (guint col = 0; col < map->width; col++)
        {
          if (!nb_map_value_occupied (map, line[col]))
            continue;
          for (int k = 0; k < 4; k++)
            {
              gint64 c = (gint64) col + dc[k], r = (gint64) row + dr[k];
              double mc, mr;
              Point p;

              if (c < 0 || r < 0 || c >= map->width || r >= map->height ||
                  !nb_map_value_free (map, map->cells[(gsize) r * map->width + (gsize) c]))
                continue;
              /* The midpoint of the shared edge. */
              mc = col + 0.5 + 0.5 * dc[k];
              mr = row + 0.5 + 0.5 * dr[k];
              p.x = a->x0 + a->xc * mc + a->xr * mr;
              p.y = a->y0 + a->yc * mc + a->yr * mr;
              p.fx = fx[k];
              p.fy = fy[k];
              g_array_append_val (points, p);
            }
        }
    }
  return points;
}

/* -------------------------------------------------------------- lines -- */

typedef struct {
  double nx, ny, rho;           /* n·p = rho, n towards the free side */
  double cx, cy;                /* centroid of the points */
  double rms;                   /* sqrt(Σd² / (N − 2)) */
  double stt;                   /* Σ (t − t̄)² along the line */
  guint n;
} Line;

static gboolean
is_inlier (const Line *l, const Point *p, double tol)
{
  return fabs (l->nx * p->x + l->ny * p->y - l->rho) <= tol &&
         l->nx * p->fx + l->ny * p->fy > FACING_MIN;
}

/* Weighted total least squares through the points with active[i] (all when
 * active is NULL) within tol of *guess and facing its way, with Tukey's
 * biweight (1 − (d/tol)²)² when robust, else weight 1: the normal is the
 * eigenvector of the weighted scatter matrix's smaller eigenvalue (GSL).
 * The statistics (n, rms = sqrt(Σd²/(n − 2)), centroid, Σt²) are those of
 * the points within tol of the new line.  FALSE when fewer than 3. */
static gboolean
fit_tls (const GArray *points, const guint8 *active, const Line *guess, double tol,
         gboolean robust, Line *out)
{
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
  double ox = guess->nx * guess->rho, oy = guess->ny * guess->rho;  /* a point on the guess */
  double cxx, cxy, cyy, nx, ny, rho, d2 = 0, mx = 0, my = 0, stt = 0;
  guint n = 0;
  gsl_matrix *m;
  gsl_vector *eval;
  gsl_matrix *evec;
  gsl_eigen_symmv_workspace *ws;
  int status;

  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);

      if ((active == NULL || active[i]) && is_inlier (guess, p, tol))
        {
          double x = p->x - ox, y = p->y - oy;   /* local: no cancellation far from 0 */
          double u = (guess->nx * p->x + guess->ny * p->y - guess->rho) / tol;
          double w = robust ? (1 - u * u) * (1 - u * u) : 1.0;

          sw += w; sx += w * x; sy += w * y; sxx += w * x * x; sxy += w * x * y; syy += w * y * y;
          n++;
        }
    }
  if (n < 3 || !(sw > 0))
    return FALSE;
  sx /= sw; sy /= sw;
  cxx = sxx / sw - sx * sx;
  cxy = sxy / sw - sx * sy;
  cyy = syy / sw - sy * sy;
  m = gsl_matrix_alloc (2, 2);
  eval = gsl_vector_alloc (2);
  evec = gsl_matrix_alloc (2, 2);
  ws = gsl_eigen_symmv_alloc (2);
  gsl_matrix_set (m, 0, 0, cxx);
  gsl_matrix_set (m, 0, 1, cxy);
  gsl_matrix_set (m, 1, 0, cxy);
  gsl_matrix_set (m, 1, 1, cyy);
  status = gsl_eigen_symmv (m, eval, evec, ws);
  gsl_eigen_symmv_sort (eval, evec, GSL_EIGEN_SORT_VAL_ASC);
  nx = gsl_matrix_get (evec, 0, 0);
  ny = gsl_matrix_get (evec, 1, 0);
  gsl_eigen_symmv_free (ws);
  gsl_matrix_free (evec);
  gsl_vector_free (eval);
  gsl_matrix_free (m);
  if (status != GSL_SUCCESS)
    return FALSE;
  if (nx * guess->nx + ny * guess->ny < 0)
    {
      nx = -nx;
      ny = -ny;
    }
  rho = nx * (sx + ox) + ny * (sy + oy);

  /* the statistics of the new line's points */
  out->nx = nx;
  out->ny = ny;
  out->rho = rho;
  n = 0;
  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);

      if ((active == NULL || active[i]) && is_inlier (out, p, tol))
        {
          double d = nx * p->x + ny * p->y - rho;

          d2 += d * d;
          mx += p->x - ox;
          my += p->y - oy;
          n++;
        }
    }
  if (n < 3)
    return FALSE;
  mx /= n; my /= n;
  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);

      if ((active == NULL || active[i]) && is_inlier (out, p, tol))
        {
          double t = -ny * (p->x - ox - mx) + nx * (p->y - oy - my);

          stt += t * t;
        }
    }
  out->cx = mx + ox;
  out->cy = my + oy;
  out->n = n;
  out->stt = stt;
  out->rms = sqrt (d2 / MAX (n - 2, 1));
  return TRUE;
}

/* Robust refinement: Tukey-weighted TLS within 2.5 cells, iterated (an
 * M-estimator: a line started between two close parallel contours settles
 * on one of them), then once more within 2.5·rms (1.5 to 2.5 cells). */
static gboolean
refine (const GArray *points, const guint8 *active, const Line *guess, double res, Line *out)
{
  Line l = *guess;
  double tol = 2.5 * res;

  for (int k = 0; k < 8; k++)
    {
      if (!fit_tls (points, active, &l, tol, TRUE, out))
        return FALSE;
      l = *out;
    }
  tol = CLAMP (2.5 * out->rms, 1.5 * res, 2.5 * res);
  return fit_tls (points, active, &l, tol, TRUE, out);
}

/* The sample's points by coarse square buckets (an eighth of its extent,
 * at least 6 cells): order[start[b] .. start[b + 1]) are sample positions in
 * bucket b, of[k] is position k's bucket. */
typedef struct {
  guint *order, *start, *of;
} Buckets;

static void
buckets_clear (Buckets *b)
{
  g_clear_pointer (&b->order, g_free);
  g_clear_pointer (&b->start, g_free);
  g_clear_pointer (&b->of, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Buckets, buckets_clear)

static void
bucket_sample (const GArray *points, const guint *sample, guint n, double res, Buckets *b)
{
  double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE, size;
  guint nx, ny;
  g_autofree guint *fill = NULL;

  buckets_clear (b);
  for (guint k = 0; k < n; k++)
    {
      const Point *p = &g_array_index (points, Point, sample[k]);

      x0 = MIN (x0, p->x); x1 = MAX (x1, p->x);
      y0 = MIN (y0, p->y); y1 = MAX (y1, p->y);
    }
  size = MAX (MAX (x1 - x0, y1 - y0) / 8.0, 6.0 * res);
  nx = (guint) MIN (64.0, floor ((x1 - x0) / size) + 1);
  ny = (guint) MIN (64.0, floor ((y1 - y0) / size) + 1);
  b->order = g_new (guint, MAX (n, 1));
  b->of = g_new (guint, MAX (n, 1));
  b->start = g_new0 (guint, nx * ny + 1);
  fill = g_new0 (guint, nx * ny + 1);
  for (guint k = 0; k < n; k++)
    {
      const Point *p = &g_array_index (points, Point, sample[k]);
      guint bx = MIN ((guint) ((p->x - x0) / size), nx - 1);
      guint by = MIN ((guint) ((p->y - y0) / size), ny - 1);

      b->of[k] = by * nx + bx;
      b->start[b->of[k] + 1]++;
    }
  for (guint i = 0; i < nx * ny; i++)
    b->start[i + 1] += b->start[i];
  memcpy (fill, b->start, (nx * ny + 1) * sizeof (guint));
  for (guint k = 0; k < n; k++)
    b->order[fill[b->of[k]]++] = k;
}

/* Sequential RANSAC: the best-supported line among the active points, its
 * points deactivated, and again. */
static guint
find_lines (const GArray *points, const NbMapFitOptions *o, double res, Line *lines)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (o->seed);
  g_autofree guint8 *active = g_malloc (MAX (points->len, 1));
  g_autofree guint *sample = g_new (guint, SAMPLE);
  g_auto (Buckets) buckets = { 0 };
  guint n_lines = 0, n_active = points->len;
  double tol = 1.5 * res;

  memset (active, 1, points->len);
  while (n_lines < MAX_LINES && n_active >= 20)
    {
      guint n_sample = 0;
      double best = 0;
      Line best_line = { 0 };

      /* A uniform sample of the active points (with replacement). */
      while (n_sample < MIN (SAMPLE, n_active))
        {
          guint i = g_rand_int_range (rand, 0, (gint32) points->len);

          if (active[i])
            sample[n_sample++] = i;
        }
      bucket_sample (points, sample, n_sample, res, &buckets);
      for (guint it = 0; it < o->iterations; it++)
        {
          guint pk = (guint) g_rand_int_range (rand, 0, (gint32) n_sample), qk;
          const Point *p = &g_array_index (points, Point, sample[pk]), *q;
          double dx, dy, d;

          /* Every other hypothesis takes its second point near the first
           * (NAPSAC-like): a wall broken by gaps and partitions is still the
           * line most of a point's neighbours lie on. */
          if (it % 2 == 0)
            {
              guint b = buckets.of[pk], n = buckets.start[b + 1] - buckets.start[b];

              qk = buckets.order[buckets.start[b] + (guint) g_rand_int_range (rand, 0, (gint32) n)];
            }
          else
            qk = (guint) g_rand_int_range (rand, 0, (gint32) n_sample);
          q = &g_array_index (points, Point, sample[qk]);
          dx = q->x - p->x;
          dy = q->y - p->y;
          d = hypot (dx, dy);
          Line l;
          double score = 0;

          if (d < 3.0 * res || p->fx * q->fx + p->fy * q->fy < 0.5)
            continue;
          l.nx = -dy / d;
          l.ny = dx / d;
          if (l.nx * p->fx + l.ny * p->fy < 0)
            {
              l.nx = -l.nx;
              l.ny = -l.ny;
            }
          if (l.nx * p->fx + l.ny * p->fy <= FACING_MIN || l.nx * q->fx + l.ny * q->fy <= FACING_MIN)
            continue;
          l.rho = l.nx * p->x + l.ny * p->y;
          /* MSAC: an inlier counts 1 − (d/tol)², so a line slanted between two
           * close parallel contours loses to either of them */
          for (guint k = 0; k < n_sample; k++)
            {
              const Point *r = &g_array_index (points, Point, sample[k]);
              double dist = (l.nx * r->x + l.ny * r->y - l.rho) / tol;

              if (fabs (dist) <= 1.0 && l.nx * r->fx + l.ny * r->fy > FACING_MIN)
                score += 1.0 - dist * dist;
            }
          if (score > best)
            {
              best = score;
              best_line = l;
            }
        }
      /* A line needs 1 % of the sample and 10 points (in MSAC's measure: 5). */
      if (best < 0.5 * MAX (10u, n_sample / 100))
        break;
      if (!refine (points, active, &best_line, res, &lines[n_lines]))
        break;
      {
        double drop = CLAMP (2.5 * lines[n_lines].rms, 1.5 * res, 2.5 * res);

        for (guint i = 0; i < points->len; i++)
          if (active[i] && is_inlier (&lines[n_lines], &g_array_index (points, Point, i), drop))
            {
              active[i] = 0;
              n_active--;
            }
      }
      n_lines++;
    }
  return n_lines;
}

/* --------------------------------------------------------------- walls -- */

static gboolean
intersect (const Line *a, const Line *b, double *x, double *y)
{
  double det = a->nx * b->ny - a->ny * b->nx;

  if (fabs (det) < 1e-6)
    return FALSE;
  *x = (a->rho * b->ny - b->rho * a->ny) / det;
  *y = (a->nx * b->rho - b->nx * a->rho) / det;
  return TRUE;
}

/* The variance of line l's position, along its normal, at point (x, y). */
static double
normal_variance (const Line *l, double x, double y, double res)
{
  double t = -l->ny * (x - l->cx) + l->nx * (y - l->cy);
  /* a surface is known to within its cell at best: uniform, res/√12 */
  double sigma = MAX (l->rms, res / sqrt (12.0)), s2 = sigma * sigma;

  return s2 / l->n + (l->stt > 0 ? t * t * s2 / l->stt : 0.0);
}

static double
corner_sigma (const Line *a, const Line *b, double x, double y, double res)
{
  /* Δp = N⁻¹ w, N = [n_a; n_b]: trace(N⁻¹ diag(va, vb) N⁻ᵀ). */
  double det = a->nx * b->ny - a->ny * b->nx;
  double va = normal_variance (a, x, y, res), vb = normal_variance (b, x, y, res);
  /* N⁻¹ = 1/det [[b.ny, −a.ny], [−b.nx, a.nx]] */
  double tr = ((b->ny * b->ny + b->nx * b->nx) * va + (a->ny * a->ny + a->nx * a->nx) * vb) /
              (det * det);

  return sqrt (tr);
}

typedef struct {
  const GArray *points;
  const NbMap *map;
  Affine affine;
  Line walls[4];
  double corner[4][2];
  double res;
} Ctx;

/* Position along wall w from its first corner, and the wall's length. */
static double
along (const Ctx *c, guint w, double x, double y)
{
  const Line *l = &c->walls[w];

  /* counter-clockwise, the arena on the left: the tangent is n turned by −90° */
  return l->ny * (x - c->corner[w][0]) - l->nx * (y - c->corner[w][1]);
}

static double
wall_length (const Ctx *c, guint w)
{
  return hypot (c->corner[(w + 1) % 4][0] - c->corner[w][0],
                c->corner[(w + 1) % 4][1] - c->corner[w][1]);
}

/* A line's weight as a wall: its points, discounted for roughness (a line
 * through a rough tangle of cells gathers many points at a large RMS). */
static double
wall_weight (const Line *l, double res)
{
  double r = l->rms / res;

  return l->n / (1.0 + r * r);
}

/* For the dominant direction phi, the best line facing each way; the score
 * is their total weight, −1 when a side has no line. */
static double
walls_for (const Line *lines, guint n_lines, double phi, double res, int chosen[4],
           guint *missing)
{
  double ax = cos (phi), ay = sin (phi), bx = -ay, by = ax, score = 0;
  /* counter-clockwise in the (a, b) frame: low b, high a, high b, low a, each
   * wall facing into the arena */
  const double want[4][2] = { { bx, by }, { -ax, -ay }, { -bx, -by }, { ax, ay } };

  for (guint w = 0; w < 4; w++)
    {
      chosen[w] = -1;
      for (guint i = 0; i < n_lines; i++)
        if (lines[i].nx * want[w][0] + lines[i].ny * want[w][1] >=
              cos (FAMILY_TOL_DEG * G_PI / 180.0) &&
            (chosen[w] < 0 || wall_weight (&lines[i], res) > wall_weight (&lines[chosen[w]], res)))
          chosen[w] = (int) i;
      if (chosen[w] < 0)
        {
          *missing = w;
          return -1;
        }
      score += wall_weight (&lines[chosen[w]], res);
    }
  return score;
}

/* The arena's walls: over the directions of the lines found, the one whose
 * four best inward-facing lines weigh most. */
static gboolean
pick_walls (Ctx *c, const Line *lines, guint n_lines, GError **error)
{
  static const char *const names[4] = { "first", "second", "third", "fourth" };
  double best = -1;
  int chosen[4], best_chosen[4] = { -1, -1, -1, -1 };
  guint missing = 0;

  for (guint i = 0; i < n_lines; i++)
    {
      double score = walls_for (lines, n_lines, atan2 (lines[i].ny, lines[i].nx), c->res,
                                chosen, &missing);

      if (score > best)
        {
          best = score;
          memcpy (best_chosen, chosen, sizeof chosen);
        }
    }
  if (best < 0)
    {
      /* name what is missing for the best-supported direction */
      walls_for (lines, n_lines, atan2 (lines[0].ny, lines[0].nx), c->res, chosen, &missing);
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "no arena outline in the map: of %u straight contours, none makes the %s "
                   "side of a rectangle", n_lines, names[missing]);
      return FALSE;
    }
  for (int w = 0; w < 4; w++)
    c->walls[w] = lines[best_chosen[w]];
  return TRUE;
}

static gboolean
make_corners (Ctx *c, GError **error)
{
  for (int k = 0; k < 4; k++)
    if (!intersect (&c->walls[(k + 3) % 4], &c->walls[k], &c->corner[k][0], &c->corner[k][1]))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "no arena outline in the map: walls %d "
                     "and %d are parallel", (k + 3) % 4 + 1, k + 1);
        return FALSE;
      }
  return TRUE;
}

/* Refits each wall on all the map's points near it between its corners:
 * sequential RANSAC gave some of them to other lines. */
static gboolean
refit_walls (Ctx *c, GError **error)
{
  g_autofree guint8 *keep = g_malloc (MAX (c->points->len, 1));

  for (int w = 0; w < 4; w++)
    {
      double len = wall_length (c, w);
      Line l;

      for (guint i = 0; i < c->points->len; i++)
        {
          const Point *p = &g_array_index (c->points, Point, i);
          double t = along (c, (guint) w, p->x, p->y);

          keep[i] = t >= 0 && t <= len;
        }
      if (!refine (c->points, keep, &c->walls[w], c->res, &l))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "no arena outline in the map: wall %d has too few points", w + 1);
          return FALSE;
        }
      c->walls[w] = l;
    }
  return make_corners (c, error);
}

static double
coverage (const Ctx *c, guint w)
{
  double len = wall_length (c, w), tol = MAX (2.0 * c->res, 3.0 * c->walls[w].rms);
  guint bins = (guint) MAX (1.0, ceil (len / c->res));
  g_autofree guint8 *seen = g_malloc0 (bins);
  guint n = 0;

  for (guint i = 0; i < c->points->len; i++)
    {
      const Point *p = &g_array_index (c->points, Point, i);
      double t = along (c, w, p->x, p->y);

      if (t >= 0 && t < len && is_inlier (&c->walls[w], p, tol))
        seen[MIN ((guint) (t / c->res), bins - 1)] = 1;
    }
  for (guint b = 0; b < bins; b++)
    n += seen[b];
  return (double) n / bins;
}

/* ------------------------------------------------------------- shadows -- */

/* The stretch of marked bins with the most marks, gaps of up to max_gap
 * bins bridged (a contour has holes where something stands against it;
 * scattered cells do not make a contour).  Returns its number of marks. */
static guint
best_run (const guint8 *mark, guint n, guint max_gap, guint *first, guint *last)
{
  guint best = 0, start = 0, prev = 0, marks = 0;
  gboolean open = FALSE;

  for (guint b = 0; b < n; b++)
    {
      if (!mark[b])
        continue;
      if (!open || b - prev > max_gap + 1)
        {
          start = b;
          marks = 0;
          open = TRUE;
        }
      prev = b;
      marks++;
      if (marks > best)
        {
          best = marks;
          *first = start;
          *last = prev;
        }
    }
  return best;
}

typedef struct {
  double s, t;
} BandPoint;

/* A shadow: a second contour parallel to the wall, facing the same way, in a
 * band each side of it (beyond the wall's own roughness), at least
 * shadow_min_length of the wall long as one contour. */
static void
find_shadows (const Ctx *c, const NbMapFitOptions *o, const double side[2], GArray *defects)
{
  for (guint w = 0; w < 4; w++)
    {
      const Line *l = &c->walls[w];
      double len = wall_length (c, w);
      /* side[(w + 1) % 2]: the length of the walls beside w, its distance to the opposite one */
      double band = o->shadow_band * side[(w + 1) % 2];
      double excl = MAX (2.0 * c->res, 3.0 * l->rms);
      guint half = (guint) ceil (band / c->res), bins = 2 * half + 1;
      guint n_along = (guint) MAX (1.0, ceil (len / c->res));
      /* bridges a partition standing on the shadow (≤ 300 mm, clause 10) */
      guint max_gap = (guint) MAX (3.0, ceil (300.0 / c->res));
      g_autofree guint *start = g_new0 (guint, bins + 1);
      g_autofree guint8 *mark = g_malloc0 (n_along);
      g_autoptr (GArray) pts = g_array_new (FALSE, FALSE, sizeof (BandPoint));
      g_autofree BandPoint *sorted = NULL;

      if (band <= excl)
        continue;
      for (guint i = 0; i < c->points->len; i++)
        {
          const Point *p = &g_array_index (c->points, Point, i);
          BandPoint bp = { l->nx * p->x + l->ny * p->y - l->rho, along (c, w, p->x, p->y) };

          if (fabs (bp.s) > excl && fabs (bp.s) <= band && bp.t >= 0 && bp.t < len &&
              l->nx * p->fx + l->ny * p->fy > FACING_MIN)
            {
              g_array_append_val (pts, bp);
              start[(guint) lround (bp.s / c->res) + half + 1]++;
            }
        }
      /* counting sort by offset bin: bin b's points are sorted[start[b] .. start[b + 1]) */
      for (guint b = 0; b < bins; b++)
        start[b + 1] += start[b];
      sorted = g_new (BandPoint, MAX (pts->len, 1));
      {
        g_autofree guint *fill = g_memdup2 (start, (bins + 1) * sizeof (guint));

        for (guint i = 0; i < pts->len; i++)
          {
            BandPoint bp = g_array_index (pts, BandPoint, i);

            sorted[fill[(guint) lround (bp.s / c->res) + half]++] = bp;
          }
      }
      /* Each side, inside (+) and outside (−): the 2-bin window with the longest
       * contour, by the along-wall cells it covers. */
      for (int sign = -1; sign <= 1; sign += 2)
        {
          guint best = 0, best_b = 0, first = 0, last = 0;

          for (guint b = 0; b + 1 < bins; b++)
            {
              double s = ((double) b + 0.5 - half) * c->res;
              guint f, l2, run;

              if (s * sign <= 0 || start[b + 2] == start[b])
                continue;
              for (guint k = start[b]; k < start[b + 2]; k++)
                mark[MIN ((guint) (sorted[k].t / c->res), n_along - 1)] = 1;
              run = best_run (mark, n_along, max_gap, &f, &l2);
              memset (mark, 0, n_along);
              if (run > best)
                {
                  best = run;
                  best_b = b;
                  first = f;
                  last = l2;
                }
            }
          if (best == 0 || best * c->res < o->shadow_min_length * len)
            continue;
          {
            double sum = 0, t0 = first * c->res, t1 = (last + 1) * c->res;
            guint n = 0;
            NbMapDefect d = { .kind = NB_MAP_DEFECT_SHADOW, .wall = w };

            for (guint k = start[best_b]; k < start[best_b + 2]; k++)
              if (sorted[k].t >= t0 && sorted[k].t < t1)
                {
                  sum += sorted[k].s;
                  n++;
                }
            d.offset_mm = sum / MAX (n, 1);
            d.length_mm = t1 - t0;
            /* the segment on the shadow's line */
            d.x0_mm = c->corner[w][0] + l->ny * t0 + l->nx * d.offset_mm;
            d.y0_mm = c->corner[w][1] - l->nx * t0 + l->ny * d.offset_mm;
            d.x1_mm = c->corner[w][0] + l->ny * t1 + l->nx * d.offset_mm;
            d.y1_mm = c->corner[w][1] - l->nx * t1 + l->ny * d.offset_mm;
            d.accepted = fabs (d.offset_mm) <= o->accept_shadow_mm;
            g_array_append_val (defects, d);
          }
        }
    }
}

/* ------------------------------------------------------- open contour -- */

typedef struct {
  double tmin[4], tmax[4];      /* the opening along each wall */
  guint n_door[4];
  guint n_out;
} Leak;

/* A FIFO of cell indices that grows as needed: a flood's frontier, not the
 * flood (a 4000 × 4000 map's arena is 12 M cells; its frontier some 10 k). */
typedef struct {
  guint32 *buf;
  gsize cap, head, len;
} Fifo;

static void
fifo_push (Fifo *q, guint32 v)
{
  if (q->len == q->cap)
    {
      gsize cap = MAX (q->cap * 2, 4096);
      guint32 *buf = g_new (guint32, cap);

      for (gsize k = 0; k < q->len; k++)
        buf[k] = q->buf[(q->head + k) % q->cap];
      g_free (q->buf);
      q->buf = buf;
      q->cap = cap;
      q->head = 0;
    }
  q->buf[(q->head + q->len) % q->cap] = v;
  q->len++;
}

static guint32
fifo_pop (Fifo *q)
{
  guint32 v = q->buf[q->head];

  q->head = (q->head + 1) % q->cap;
  q->len--;
  return v;
}

/* Per image row, the columns strictly inside every wall's half-plane
 * s_w > t_w: lo ≤ col ≤ hi (lo > hi when none). */
static void
row_interval (const double s0[4], const double sc[4], const double sr[4], const double t[4],
              guint row, guint width, gint64 *lo, gint64 *hi)
{
  double a = -1.0, b = width;   /* continuous bounds on col: a < col < b */

  for (int w = 0; w < 4; w++)
    {
      double base = s0[w] + sr[w] * row - t[w];   /* s_w − t_w at col 0 */

      if (sc[w] > 1e-12)
        a = MAX (a, -base / sc[w]);
      else if (sc[w] < -1e-12)
        b = MIN (b, -base / sc[w]);
      else if (base <= 0)
        b = a;                  /* never */
    }
  *lo = (gint64) floor (a) + 1;
  *hi = (gint64) ceil (b) - 1;
}

/* Open contours: free space outside the outline (beyond the walls'
 * roughness, or on the image's border) connected through free cells to the
 * arena's interior.  Floods run from the outside free cells and stop at the
 * interior (touching it is the finding), so a clean map costs a scan of the
 * cells around the arena, not a flood of its inside. */
static void
find_leaks (const Ctx *c, const NbMapFitOptions *o, NbMapFit *fit)
{
  const NbMap *map = c->map;
  guint W = map->width, H = map->height;
  g_autofree guint8 *seen = g_malloc0 ((gsize) W * H);
  g_autofree gint64 *in_lo = g_new (gint64, H), *in_hi = g_new (gint64, H);
  g_autofree gint64 *near_lo = g_new (gint64, H), *near_hi = g_new (gint64, H);
  double out_tol[4], s0[4], sc[4], sr[4], t_in[4], t_near[4];
  Fifo q = { 0 };

  for (int w = 0; w < 4; w++)
    {
      const Line *l = &c->walls[w];

      out_tol[w] = 2.0 * c->res + 3.0 * l->rms;
      t_in[w] = 1.0 * c->res;
      t_near[w] = -out_tol[w];
      /* s_w at a cell centre, affine in col and row */
      s0[w] = l->nx * (c->affine.x0 + 0.5 * (c->affine.xc + c->affine.xr)) +
              l->ny * (c->affine.y0 + 0.5 * (c->affine.yc + c->affine.yr)) - l->rho;
      sc[w] = l->nx * c->affine.xc + l->ny * c->affine.yc;
      sr[w] = l->nx * c->affine.xr + l->ny * c->affine.yr;
    }
  for (guint r = 0; r < H; r++)
    {
      row_interval (s0, sc, sr, t_in, r, W, &in_lo[r], &in_hi[r]);
      row_interval (s0, sc, sr, t_near, r, W, &near_lo[r], &near_hi[r]);
    }
#define INTERIOR(col, row) ((gint64) (col) >= in_lo[row] && (gint64) (col) <= in_hi[row])
#define OUTSIDE(col, row) ((col) == 0 || (row) == 0 || (col) + 1 == W || (row) + 1 == H || \
                           (gint64) (col) < near_lo[row] || (gint64) (col) > near_hi[row])

  for (guint row = 0; row < H; row++)
    for (guint col = 0; col < W; col++)
      {
        gsize start = (gsize) row * W + col;
        Leak leak = { .n_out = 0 };
        gboolean touches = FALSE;
        double x = 0, y = 0;
        guint first_evidence = fit->leak_cells->len;

        /* seeds: outside free cells; skip the arena's span of the row (but
         * never the border columns: jumping back to W − 2 from the last
         * column looped forever — found by fuzz-map) */
        if (col > 0 && col + 1 < W && (gint64) col >= near_lo[row] &&
            (gint64) col <= near_hi[row] && row > 0 && row + 1 < H)
          {
            col = (guint) MIN (near_hi[row], (gint64) W - 2);
            continue;
          }
        if (seen[start] || !nb_map_value_free (map, map->cells[start]))
          continue;
        for (int w = 0; w < 4; w++)
          {
            leak.tmin[w] = G_MAXDOUBLE;
            leak.tmax[w] = -G_MAXDOUBLE;
            leak.n_door[w] = 0;
          }
        seen[start] = 1;
        fifo_push (&q, (guint32) start);
        while (q.len > 0)
          {
            guint32 i = fifo_pop (&q);
            guint cc = i % W, rr = i / W;
            const int dc[4] = { 1, -1, 0, 0 }, dr[4] = { 0, 0, 1, -1 };

            for (int k = 0; k < 4; k++)
              {
                gint64 nc = (gint64) cc + dc[k], nr = (gint64) rr + dr[k];
                gsize j;

                if (nc < 0 || nr < 0 || nc >= W || nr >= H)
                  continue;
                j = (gsize) nr * W + (gsize) nc;
                if (seen[j] || !nb_map_value_free (map, map->cells[j]))
                  continue;
                if (INTERIOR (nc, nr))
                  {
                    touches = TRUE;     /* the interior: the finding, not explored */
                    continue;
                  }
                seen[j] = 1;
                fifo_push (&q, (guint32) j);
              }
            if (!OUTSIDE (cc, rr))
              continue;
            {
              double s[4];
              int worst = 0;

              for (int w = 0; w < 4; w++)
                {
                  s[w] = s0[w] + sc[w] * cc + sr[w] * rr;
                  if (s[w] < s[worst])
                    worst = w;
                }
              x = c->affine.x0 + c->affine.xc * (cc + 0.5) + c->affine.xr * (rr + 0.5);
              y = c->affine.y0 + c->affine.yc * (cc + 0.5) + c->affine.yr * (rr + 0.5);
              leak.n_out++;
              if (fit->leak_cells->len < NB_MAP_FIT_MAX_EVIDENCE)
                g_array_append_val (fit->leak_cells, i);
              if (s[worst] < 0 && s[worst] >= -out_tol[worst] - 1.5 * c->res)
                {
                  /* in the doorway: the first cells beyond the wall's roughness */
                  double t = along (c, (guint) worst, x, y);

                  leak.tmin[worst] = MIN (leak.tmin[worst], t);
                  leak.tmax[worst] = MAX (leak.tmax[worst], t);
                  leak.n_door[worst]++;
                }
            }
          }
        if (!touches)
          {
            /* free space outside that the arena does not reach: no defect */
            g_array_set_size (fit->leak_cells, first_evidence);
            continue;
          }
        {
          gboolean any = FALSE;
          double area = leak.n_out * c->res * c->res;

          for (guint w = 0; w < 4; w++)
            if (leak.n_door[w] > 0)
              {
                const Line *l = &c->walls[w];
                NbMapDefect d = { .kind = NB_MAP_DEFECT_OPEN_CONTOUR, .wall = w };

                d.length_mm = leak.tmax[w] - leak.tmin[w] + c->res;
                d.x0_mm = c->corner[w][0] + l->ny * leak.tmin[w];
                d.y0_mm = c->corner[w][1] - l->nx * leak.tmin[w];
                d.x1_mm = c->corner[w][0] + l->ny * leak.tmax[w];
                d.y1_mm = c->corner[w][1] - l->nx * leak.tmax[w];
                d.area_mm2 = area;
                d.accepted = d.length_mm <= o->accept_gap_mm;
                g_array_append_val (fit->defects, d);
                any = TRUE;
              }
          if (!any)
            {
              /* open to the image border without a doorway through a wall: the
               * interior itself reaches the border */
              NbMapDefect d = { .kind = NB_MAP_DEFECT_OPEN_CONTOUR, .wall = 0 };

              d.length_mm = NAN;
              d.x0_mm = d.x1_mm = x;
              d.y0_mm = d.y1_mm = y;
              d.area_mm2 = area;
              d.accepted = FALSE;
              g_array_append_val (fit->defects, d);
            }
        }
      }
#undef INTERIOR
#undef OUTSIDE
  g_free (q.buf);
}

/* ---------------------------------------------------------------- fit -- */

static void
number_from_origin (Ctx *c)
{
  /* A'_1: the corner nearest the (−x, −y) direction. */
  guint first = 0;
  Line walls[4];
  double corner[4][2];

  for (guint k = 1; k < 4; k++)
    if (c->corner[k][0] + c->corner[k][1] < c->corner[first][0] + c->corner[first][1])
      first = k;
  memcpy (walls, c->walls, sizeof walls);
  memcpy (corner, c->corner, sizeof corner);
  for (guint k = 0; k < 4; k++)
    {
      c->walls[k] = walls[(k + first) % 4];
      c->corner[k][0] = corner[(k + first) % 4][0];
      c->corner[k][1] = corner[(k + first) % 4][1];
    }
}

NbMapFit *
nb_map_fit (const NbMap *map, const NbMapFitOptions *options, GError **error)
{
  NbMapFitOptions defaults;
  g_autoptr (GArray) points = NULL;
  g_autoptr (NbMapFit) fit = g_new0 (NbMapFit, 1);
  Line lines[MAX_LINES];
  guint n_lines;
  Ctx c = { .map = map };

  if (options == NULL)
    {
      nb_map_fit_options_init (&defaults);
      options = &defaults;
    }
  fit->defects = g_array_new (FALSE, FALSE, sizeof (NbMapDefect));
  fit->leak_cells = g_array_new (FALSE, FALSE, sizeof (guint32));
  c.res = map->resolution_mm;
  c.affine = image_affine (map);
  points = surface_points (map, &c.affine);
  c.points = points;
  fit->n_points = points->len;
  if (points->len < 40)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "no arena outline in the map: %u wall-surface cells (occupied next to free)",
                   points->len);
      return NULL;
    }
  n_lines = find_lines (points, options, c.res, lines);
  if (n_lines < 4)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "no arena outline in the map: %u straight contours found, 4 walls needed",
                   n_lines);
      return NULL;
    }
  /* Sequential RANSAC gives early lines the points later ones would have
   * had: refit every line on all the points before weighing them as walls. */
  for (guint i = 0; i < n_lines; i++)
    {
      Line l;

      if (refine (points, NULL, &lines[i], c.res, &l))
        lines[i] = l;
    }
  if (!pick_walls (&c, lines, n_lines, error) || !make_corners (&c, error) ||
      !refit_walls (&c, error) || !refit_walls (&c, error))
    return NULL;
  number_from_origin (&c);

  for (int k = 0; k < 4; k++)
    {
      const Line *l = &c.walls[k];

      fit->walls[k] = (NbMapWall) { .nx = l->nx, .ny = l->ny, .rho_mm = l->rho,
                                    .residual_mm = l->rms, .n_points = l->n,
                                    .coverage = coverage (&c, (guint) k) };
      fit->corner_mm[k][0] = c.corner[k][0];
      fit->corner_mm[k][1] = c.corner[k][1];
      fit->corner_sigma_mm[k] = corner_sigma (&c.walls[(k + 3) % 4], l, c.corner[k][0],
                                              c.corner[k][1], c.res);
    }
  for (int k = 0; k < 2; k++)
    fit->side_mm[k] = (wall_length (&c, (guint) k) + wall_length (&c, (guint) k + 2)) / 2.0;
  find_shadows (&c, options, fit->side_mm, fit->defects);
  find_leaks (&c, options, fit);
  fit->passed = TRUE;
  for (guint i = 0; i < fit->defects->len; i++)
    fit->passed = fit->passed && g_array_index (fit->defects, NbMapDefect, i).accepted;
  return g_steal_pointer (&fit);
}

/* The rotation about the frame's origin that best turns a onto b (least
 * squares: atan2 of Σ a×b over Σ a·b), and what is left: Σ |R·a_i − b_i|². */
static double
rotation_about_origin (const double a[4][2], const double b[4][2], double *residual)
{
  double cross = 0, dot = 0, phi, c, s, r = 0;

  for (int i = 0; i < 4; i++)
    {
      cross += a[i][0] * b[i][1] - a[i][1] * b[i][0];
      dot += a[i][0] * b[i][0] + a[i][1] * b[i][1];
    }
  phi = atan2 (cross, dot);
  c = cos (phi);
  s = sin (phi);
  for (int i = 0; i < 4; i++)
    r += pow (c * a[i][0] - s * a[i][1] - b[i][0], 2) + pow (s * a[i][0] + c * a[i][1] - b[i][1], 2);
  *residual = r;
  return phi;
}

double
nb_map_heading_deg (const double truth_mm[4][2], const double map_mm[4][2])
{
  double a[4][2], b[4][2], ca[2] = { 0, 0 }, cb[2] = { 0, 0 }, residual;

  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 2; j++)
      {
        ca[j] += truth_mm[i][j] / 4.0;
        cb[j] += map_mm[i][j] / 4.0;
      }
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 2; j++)
      {
        a[i][j] = truth_mm[i][j] - ca[j];
        b[i][j] = map_mm[i][j] - cb[j];
      }
  return rotation_about_origin ((const double (*)[2]) a, (const double (*)[2]) b, &residual)
         * 180.0 / G_PI;
}

void
nb_map_fit_match_truth (NbMapFit *fit, const double truth_mm[4][2])
{
  double area = 0, corner[4][2], sigma[4], best_res = G_MAXDOUBLE, best_phi = 0, scale = 0;
  NbMapWall walls[4];
  gboolean reverse;
  guint best = 0;

  /* The truth's turning sense (shoelace); ours is counter-clockwise. */
  for (int i = 0; i < 4; i++)
    area += truth_mm[i][0] * truth_mm[(i + 1) % 4][1] - truth_mm[(i + 1) % 4][0] * truth_mm[i][1];
  reverse = area < 0;
  memcpy (corner, fit->corner_mm, sizeof corner);
  memcpy (sigma, fit->corner_sigma_mm, sizeof sigma);
  memcpy (walls, fit->walls, sizeof walls);
  for (int i = 0; i < 4; i++)
    scale = MAX (scale, hypot (truth_mm[i][0], truth_mm[i][1]));
  /* ISO 18646-2 10.2: A'_i is the map's image of the arena's corner A_i.
   * The map is registered to the arena by its frame — P0's, where the robot
   * starts mapping, the frame the truth is given in — so each numbering of
   * the map's corners (a cyclic shift in the truth's turning sense) implies
   * a rotation of the map about P0; the numbering kept is the one that
   * rotation explains best (the least residual after it), never the one
   * with the smallest Dm: a map turned by 90° keeps its corners' identity
   * and its Dm.  Where the map cannot tell (P0 at the arena's centre: every
   * numbering fits alike), the smallest rotation wins. */
  for (guint shift = 0; shift < 4; shift++)
    {
      double trial[4][2], res, phi;

      for (guint k = 0; k < 4; k++)
        {
          guint from = reverse ? (shift + 4 - k) % 4 : (shift + k) % 4;

          trial[k][0] = corner[from][0];
          trial[k][1] = corner[from][1];
        }
      phi = rotation_about_origin (truth_mm, (const double (*)[2]) trial, &res);
      if (res < best_res - 1e-9 * scale * scale ||
          (res < best_res + 1e-9 * scale * scale && fabs (phi) < fabs (best_phi)))
        {
          best_res = MIN (res, best_res);
          best_phi = phi;
          best = shift;
        }
    }
  for (guint k = 0; k < 4; k++)
    {
      guint from = reverse ? (best + 4 - k) % 4 : (best + k) % 4;
      /* wall k joins new corners k and k+1: old corners from and from∓1 */
      guint wall = reverse ? (from + 3) % 4 : from;

      fit->corner_mm[k][0] = corner[from][0];
      fit->corner_mm[k][1] = corner[from][1];
      fit->corner_sigma_mm[k] = sigma[from];
      fit->walls[k] = walls[wall];
    }
  for (guint i = 0; i < fit->defects->len; i++)
    {
      NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, i);

      for (guint k = 0; k < 4; k++)
        {
          guint from = reverse ? (best + 4 - k) % 4 : (best + k) % 4;

          if ((reverse ? (from + 3) % 4 : from) == d->wall)
            {
              d->wall = k;
              break;
            }
        }
    }
  for (guint k = 0; k < 2; k++)
    fit->side_mm[k] = (hypot (fit->corner_mm[k + 1][0] - fit->corner_mm[k][0],
                              fit->corner_mm[k + 1][1] - fit->corner_mm[k][1]) +
                       hypot (fit->corner_mm[(k + 3) % 4][0] - fit->corner_mm[k + 2][0],
                              fit->corner_mm[(k + 3) % 4][1] - fit->corner_mm[k + 2][1])) / 2.0;
}

/* The numbering turned by shift (new corner k = old corner k + shift, the
 * walls, their σ and the defects' walls with them). */
static void
shift_numbering (NbMapFit *fit, guint shift)
{
  double corner[4][2], sigma[4];
  NbMapWall walls[4];

  if (shift % 4 == 0)
    return;
  memcpy (corner, fit->corner_mm, sizeof corner);
  memcpy (sigma, fit->corner_sigma_mm, sizeof sigma);
  memcpy (walls, fit->walls, sizeof walls);
  for (guint k = 0; k < 4; k++)
    {
      guint from = (k + shift) % 4;

      memcpy (fit->corner_mm[k], corner[from], sizeof corner[from]);
      fit->corner_sigma_mm[k] = sigma[from];
      fit->walls[k] = walls[from];
    }
  for (guint i = 0; i < fit->defects->len; i++)
    {
      NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, i);

      d->wall = (d->wall + 4 - shift % 4) % 4;
    }
  if (shift % 2 == 1)
    {
      double s = fit->side_mm[0];

      fit->side_mm[0] = fit->side_mm[1];
      fit->side_mm[1] = s;
    }
}

/* Where the rigid motion that takes the truth's corners onto the map's
 * (least squares, corner k ↔ map corner k + shift) puts the point p. */
static void
register_point (const double truth_mm[4][2], const double map_mm[4][2], guint shift,
                const double p[2], double out[2])
{
  double ct[2] = { 0, 0 }, cm[2] = { 0, 0 }, a[4][2], b[4][2], residual, phi;

  for (guint k = 0; k < 4; k++)
    for (guint j = 0; j < 2; j++)
      {
        ct[j] += truth_mm[k][j] / 4.0;
        cm[j] += map_mm[(k + shift) % 4][j] / 4.0;
      }
  for (guint k = 0; k < 4; k++)
    for (guint j = 0; j < 2; j++)
      {
        a[k][j] = truth_mm[k][j] - ct[j];
        b[k][j] = map_mm[(k + shift) % 4][j] - cm[j];
      }
  phi = rotation_about_origin ((const double (*)[2]) a, (const double (*)[2]) b, &residual);
  out[0] = cm[0] + cos (phi) * (p[0] - ct[0]) - sin (phi) * (p[1] - ct[1]);
  out[1] = cm[1] + sin (phi) * (p[0] - ct[0]) + cos (phi) * (p[1] - ct[1]);
}

/* Whether the map shows an occupied cell within radius_mm of p. */
static gboolean
occupied_near (const NbMap *map, const double p[2], double radius_mm)
{
  double col, row, r = radius_mm / map->resolution_mm;

  nb_map_world_to_image (map, p[0], p[1], &col, &row);
  for (int dr = (int) floor (-r); dr <= (int) ceil (r); dr++)
    for (int dc = (int) floor (-r); dc <= (int) ceil (r); dc++)
      {
        double c = floor (col) + dc, rr = floor (row) + dr;

        if (c < 0 || rr < 0 || c >= map->width || rr >= map->height ||
            hypot (c + 0.5 - col, rr + 0.5 - row) > r + 0.5)
          continue;
        if (nb_map_value_occupied (map, map->cells[(gsize) rr * map->width + (gsize) c]))
          return TRUE;
      }
  return FALSE;
}

NbMapReference
nb_map_fit_match_reference (NbMapFit *fit, const NbMap *map, const double truth_mm[4][2],
                            const double reference_mm[2])
{
  /* ISO 18646-2 10.2: A'_i is the map's image of A_i.  The square arena
   * with its column in the centre and a T partition on each wall looks the
   * same turned by a quarter about its centre, so its corners alone cannot
   * tell which is which; a reference feature the laboratory placed off
   * that symmetry (surveyed in the truth's frame) can: of the four
   * numberings, the one whose registration of the map to the arena puts
   * the reference on something the map shows is the map's own. */
  double radius = MAX (2.0 * map->resolution_mm, NB_MAP_REFERENCE_RADIUS_MM);
  guint hits = 0, hit = 0;

  for (guint shift = 0; shift < 4; shift++)
    {
      double p[2];

      register_point (truth_mm, (const double (*)[2]) fit->corner_mm, shift, reference_mm, p);
      if (occupied_near (map, p, radius))
        {
          hits++;
          hit = shift;
        }
    }
  if (hits != 1)
    return hits == 0 ? NB_MAP_REFERENCE_NOT_SEEN : NB_MAP_REFERENCE_AMBIGUOUS;
  shift_numbering (fit, hit);
  return NB_MAP_REFERENCE_FOUND;
}
