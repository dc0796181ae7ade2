/* nb-setup-drawing.c — a configuration's set-up drawn to scale (see nb-setup-drawing.h) */
#include "nb-setup-drawing.h"

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>

/* GNOME's palette: blue 3, orange 3, green 4, red 3. */
static const GdkRGBA route_rgba = { 0.208, 0.518, 0.894, 1.0 };
static const GdkRGBA obstacle_rgba = { 0.902, 0.380, 0.0, 1.0 };
static const GdkRGBA robot_rgba = { 0.180, 0.761, 0.494, 1.0 };
static const GdkRGBA wall_rgba = { 0.467, 0.463, 0.482, 1.0 };

typedef struct {
  cairo_t *cr;
  double scale;                 /* px per mm */
  double min_x, max_y;          /* mm at the box's left and top */
  double ox, oy;                /* px of (min_x, max_y) */
  GdkRGBA fg;
} View;

typedef struct {
  double min[2], max[2];
} Box;

static void
box_add (Box *b, double x, double y, double r)
{
  b->min[0] = MIN (b->min[0], x - r);
  b->min[1] = MIN (b->min[1], y - r);
  b->max[0] = MAX (b->max[0], x + r);
  b->max[1] = MAX (b->max[1], y + r);
}

static double
px_x (const View *v, double x)
{
  return v->ox + (x - v->min_x) * v->scale;
}

static double
px_y (const View *v, double y)
{
  return v->oy + (v->max_y - y) * v->scale;
}

static void
set_rgba (cairo_t *cr, const GdkRGBA *c, double alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

static void
text_at (const View *v, double x_px, double y_px, const char *text, double ax, double ay,
         const GdkRGBA *color)
{
  PangoLayout *layout = pango_cairo_create_layout (v->cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 9");
  int w, h;

  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  set_rgba (v->cr, color, 1.0);
  cairo_move_to (v->cr, x_px - ax * w, y_px - ay * h);
  pango_cairo_show_layout (v->cr, layout);
  pango_font_description_free (font);
  g_object_unref (layout);
}

/* The robot: a disc of its width (nb-course.h) at (x, y), heading theta. */
static void
draw_robot (const View *v, double x, double y, double theta_deg, double width_mm)
{
  cairo_t *cr = v->cr;
  double r = width_mm / 2.0 * v->scale, a = theta_deg * G_PI / 180.0;

  cairo_new_path (cr);
  cairo_arc (cr, px_x (v, x), px_y (v, y), r, 0, 2 * G_PI);
  set_rgba (cr, &robot_rgba, 0.25);
  cairo_fill_preserve (cr);
  set_rgba (cr, &robot_rgba, 1.0);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);
  cairo_move_to (cr, px_x (v, x), px_y (v, y));
  cairo_line_to (cr, px_x (v, x) + r * cos (a), px_y (v, y) - r * sin (a));
  cairo_stroke (cr);
}

/* An obstacle of table 2 centred at (cx, cy), its depth along dir_deg
 * (the direction from the robot), its face across it. */
static void
draw_obstacle (const View *v, const NbObstacleShape *o, double cx, double cy, double dir_deg,
               gboolean dashed, gboolean filled)
{
  cairo_t *cr = v->cr;
  static const double dash[] = { 4.0, 3.0 };

  cairo_save (cr);
  cairo_new_path (cr);
  cairo_translate (cr, px_x (v, cx), px_y (v, cy));
  if (o->round)
    cairo_arc (cr, 0, 0, MAX (o->across_mm / 2.0 * v->scale, 1.5), 0, 2 * G_PI);
  else
    {
      double d = MAX (o->along_mm * v->scale, 2.0), a = MAX (o->across_mm * v->scale, 2.0);

      cairo_rotate (cr, -dir_deg * G_PI / 180.0);
      cairo_rectangle (cr, -d / 2.0, -a / 2.0, d, a);
    }
  cairo_restore (cr);
  if (filled)
    {
      set_rgba (cr, &obstacle_rgba, dashed ? 0.15 : 0.6);
      cairo_fill_preserve (cr);
    }
  set_rgba (cr, &obstacle_rgba, 1.0);
  cairo_set_line_width (cr, 1.2);
  cairo_set_dash (cr, dash, dashed ? 2 : 0, 0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
draw_point (const View *v, double x, double y, const char *name, double dx, double dy)
{
  cairo_t *cr = v->cr;

  cairo_new_path (cr);
  cairo_arc (cr, px_x (v, x), px_y (v, y), 3.0, 0, 2 * G_PI);
  set_rgba (cr, &v->fg, 1.0);
  cairo_fill (cr);
  text_at (v, px_x (v, x) + dx, px_y (v, y) + dy, name, dx < 0 ? 1.0 : dx > 0 ? 0.0 : 0.5,
           dy < 0 ? 1.0 : dy > 0 ? 0.0 : 0.5, &v->fg);
}

static void
arrow (const View *v, double x0, double y0, double x1, double y1, const GdkRGBA *c)
{
  cairo_t *cr = v->cr;
  double ax = px_x (v, x0), ay = px_y (v, y0), bx = px_x (v, x1), by = px_y (v, y1);
  double a = atan2 (by - ay, bx - ax);

  set_rgba (cr, c, 1.0);
  cairo_set_line_width (cr, 1.5);
  cairo_move_to (cr, ax, ay);
  cairo_line_to (cr, bx, by);
  cairo_stroke (cr);
  cairo_move_to (cr, bx, by);
  cairo_line_to (cr, bx - 9 * cos (a - 0.4), by - 9 * sin (a - 0.4));
  cairo_line_to (cr, bx - 9 * cos (a + 0.4), by - 9 * sin (a + 0.4));
  cairo_close_path (cr);
  cairo_fill (cr);
}

static Box
bounds (const NbSetup *s)
{
  Box b = { { 0, 0 }, { 0, 0 } };
  double w = s->robot_width_mm / 2.0;

  box_add (&b, 0, 0, w);
  switch (s->kind)
    {
    case NB_SETUP_ROUTE:
      for (guint i = 0; i < s->route.n_poses; i++)
        box_add (&b, s->route.poses[i].x_mm, s->route.poses[i].y_mm, w);
      break;
    case NB_SETUP_PLACEMENTS:
      for (guint k = 0; k < s->n_placements; k++)
        box_add (&b, s->placements[k].centre_mm[0], s->placements[k].centre_mm[1],
                 MAX (s->obstacle.across_mm, s->obstacle.along_mm) / 2.0);
      break;
    case NB_SETUP_COURSE:
      box_add (&b, s->course.pg[0], s->course.pg[1], w);
      if (s->course.kind == NB_COURSE_AVOIDANCE)
        {
          double r = MAX (s->obstacle.across_mm, s->obstacle.along_mm) / 2.0;

          box_add (&b, s->course.obs_from[0], s->course.obs_from[1], r);
          box_add (&b, s->course.obs_to[0], s->course.obs_to[1], r);
          box_add (&b, s->course.p1[0], s->course.p1[1], r);
        }
      else
        {
          box_add (&b, s->course.entrance_x_mm, s->course.passage_width_mm / 2.0 + 0.2 * s->lu_mm, 0);
          box_add (&b, s->course.exit_x_mm, -s->course.passage_width_mm / 2.0 - 0.2 * s->lu_mm, 0);
        }
      break;
    case NB_SETUP_ARENA:
    default:
      for (guint i = 0; i < 4; i++)
        box_add (&b, s->corners_mm[i][0], s->corners_mm[i][1], 0);
      break;
    }
  /* Room for the labels: half an LU round it. */
  for (guint k = 0; k < 2; k++)
    b.min[k] -= 0.5 * s->lu_mm, b.max[k] += 0.5 * s->lu_mm;
  return b;
}

static void
draw_grid (const View *v, const Box *b, double lu)
{
  cairo_t *cr = v->cr;

  set_rgba (cr, &v->fg, 0.08);
  cairo_set_line_width (cr, 1.0);
  for (double x = ceil (b->min[0] / lu) * lu; x <= b->max[0]; x += lu)
    {
      cairo_move_to (cr, round (px_x (v, x)) + 0.5, px_y (v, b->max[1]));
      cairo_line_to (cr, round (px_x (v, x)) + 0.5, px_y (v, b->min[1]));
    }
  for (double y = ceil (b->min[1] / lu) * lu; y <= b->max[1]; y += lu)
    {
      cairo_move_to (cr, px_x (v, b->min[0]), round (px_y (v, y)) + 0.5);
      cairo_line_to (cr, px_x (v, b->max[0]), round (px_y (v, y)) + 0.5);
    }
  cairo_stroke (cr);
}

static void
draw_scale_bar (const View *v, double lu, double height)
{
  cairo_t *cr = v->cr;
  double len = lu * v->scale, x = 12.0, y = height - 12.0;
  g_autofree char *text = g_strdup_printf (_("1 LU = %.0f mm"), lu);

  set_rgba (cr, &v->fg, 0.9);
  cairo_set_line_width (cr, 2.0);
  cairo_move_to (cr, x, y - 4);
  cairo_line_to (cr, x, y);
  cairo_line_to (cr, x + len, y);
  cairo_line_to (cr, x + len, y - 4);
  cairo_stroke (cr);
  text_at (v, x + len + 6, y, text, 0.0, 0.8, &v->fg);
}

static void
draw_route (const View *v, const NbSetup *s)
{
  cairo_t *cr = v->cr;
  const NbRoute *r = &s->route;
  /* The rectangle ends at P0 again: its last pose is not labelled twice. */
  guint labelled = r->n_poses > 1 && g_str_equal (r->poses[r->n_poses - 1].name, "P0")
                   ? r->n_poses - 1 : r->n_poses;

  draw_robot (v, r->poses[0].x_mm, r->poses[0].y_mm, r->poses[0].theta_deg, s->robot_width_mm);
  for (guint i = 1; i < r->n_poses; i++)
    arrow (v, r->poses[i - 1].x_mm, r->poses[i - 1].y_mm, r->poses[i].x_mm, r->poses[i].y_mm,
           &route_rgba);
  for (guint i = 0; i < labelled; i++)
    {
      /* Labels outside the route's turn. */
      double dx = r->poses[i].x_mm > 0 ? 8 : -8, dy = r->poses[i].y_mm > 0 ? -8 : 8;

      draw_point (v, r->poses[i].x_mm, r->poses[i].y_mm, r->poses[i].name, dx, dy);
    }
  (void) cr;
}

static void
draw_placements (const View *v, const NbSetup *s)
{
  cairo_t *cr = v->cr;
  static const double dash[] = { 5.0, 4.0 };
  double depth = s->obstacle.round ? s->obstacle.across_mm / 2.0 : s->obstacle.along_mm / 2.0;

  /* The two ranges: the obstacle's face on these circles. */
  set_rgba (cr, &v->fg, 0.35);
  cairo_set_line_width (cr, 1.0);
  cairo_set_dash (cr, dash, 2, 0);
  for (guint m = 0; m < 2; m++)
    {
      cairo_new_path (cr);
      cairo_arc (cr, px_x (v, 0), px_y (v, 0),
                 (m ? s->min_range_mm : s->max_range_mm) * v->scale, 0, 2 * G_PI);
      cairo_stroke (cr);
    }
  cairo_set_dash (cr, NULL, 0, 0);
  for (guint k = 0; k < s->n_placements; k++)
    {
      const NbSetupPlacement *p = &s->placements[k];

      draw_obstacle (v, &s->obstacle, p->centre_mm[0], p->centre_mm[1], p->bearing_deg, FALSE,
                     TRUE);
      if (p->max_range)
        {
          g_autofree char *deg = g_strdup_printf ("%.0f°", p->bearing_deg);
          double a = p->bearing_deg * G_PI / 180.0;
          double r = p->range_mm + 2.0 * depth + 0.25 * s->lu_mm;

          text_at (v, px_x (v, r * cos (a)), px_y (v, r * sin (a)), deg, 0.5, 0.5, &v->fg);
        }
    }
  draw_robot (v, 0, 0, 0, s->robot_width_mm);
  draw_point (v, 0, 0, "P0", -8, 8);
}

static void
draw_avoidance (const View *v, const NbSetup *s)
{
  const NbCourse *c = &s->course;
  gboolean moving = c->behaviour > 1;

  arrow (v, c->p0[0], c->p0[1], c->pg[0], c->pg[1], &route_rgba);
  draw_robot (v, c->p0[0], c->p0[1], 0, s->robot_width_mm);
  if (moving)
    {
      draw_obstacle (v, &c->obstacle, c->obs_from[0], c->obs_from[1], 0, TRUE, TRUE);
      arrow (v, c->obs_from[0], c->obs_from[1], c->obs_to[0], c->obs_to[1], &obstacle_rgba);
      if (c->behaviour != 4)
        draw_obstacle (v, &c->obstacle, c->obs_to[0], c->obs_to[1], 0, TRUE, FALSE);
    }
  draw_obstacle (v, &c->obstacle, c->p1[0], c->p1[1], 0, FALSE, TRUE);
  draw_point (v, c->p0[0], c->p0[1], "P0", -8, 8);
  draw_point (v, c->p1[0], c->p1[1], "P1", 8, 8);
  draw_point (v, c->pg[0], c->pg[1], "PG", 8, -8);
  if (moving && c->behaviour != 4)
    draw_point (v, c->obs_to[0], c->obs_to[1], c->behaviour == 2 ? "P2" : "P3", 8, -8);
}

static void
draw_passage (const View *v, const NbSetup *s)
{
  cairo_t *cr = v->cr;
  const NbCourse *c = &s->course;
  double half = c->passage_width_mm / 2.0, t = 0.15 * s->lu_mm;

  set_rgba (cr, &wall_rgba, 0.8);
  for (int side = -1; side <= 1; side += 2)
    {
      double y0 = side > 0 ? half + t : -half;

      cairo_rectangle (cr, px_x (v, c->entrance_x_mm), px_y (v, y0),
                       (c->exit_x_mm - c->entrance_x_mm) * v->scale, t * v->scale);
      cairo_fill (cr);
    }
  arrow (v, c->p0[0], c->p0[1], c->pg[0], c->pg[1], &route_rgba);
  draw_robot (v, c->p0[0], c->p0[1], 0, s->robot_width_mm);
  draw_point (v, c->p0[0], c->p0[1], "P0", -8, 8);
  draw_point (v, c->pg[0], c->pg[1], "PG", 8, 8);
}

static void
draw_arena (const View *v, const NbSetup *s)
{
  cairo_t *cr = v->cr;

  set_rgba (cr, &wall_rgba, 1.0);
  cairo_set_line_width (cr, 3.0);
  cairo_new_path (cr);
  for (guint i = 0; i < 4; i++)
    cairo_line_to (cr, px_x (v, s->corners_mm[i][0]), px_y (v, s->corners_mm[i][1]));
  cairo_close_path (cr);
  cairo_stroke (cr);
  cairo_new_path (cr);
  cairo_arc (cr, px_x (v, s->column_centre_mm[0]), px_y (v, s->column_centre_mm[1]),
             s->column_diameter_mm / 2.0 * v->scale, 0, 2 * G_PI);
  set_rgba (cr, &wall_rgba, 0.6);
  cairo_fill (cr);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("A%u", i + 1);
      /* Outwards from the arena's centre. */
      double dx = s->corners_mm[i][0] > s->column_centre_mm[0] ? 8 : -8;
      double dy = s->corners_mm[i][1] > s->column_centre_mm[1] ? -8 : 8;

      draw_point (v, s->corners_mm[i][0], s->corners_mm[i][1], name, dx, dy);
    }
  draw_robot (v, 0, 0, 0, s->robot_width_mm);
  draw_point (v, 0, 0, "P0", 8, 8);
}

void
nb_setup_draw (cairo_t *cr, const NbSetup *s, double width, double height, const GdkRGBA *fg)
{
  Box b = bounds (s);
  View v = { cr, 0, 0, 0, 0, 0, *fg };
  double bw = b.max[0] - b.min[0], bh = b.max[1] - b.min[1];

  if (!(bw > 0 && bh > 0) || width < 20 || height < 20)
    return;
  /* One scale for x and y (a scale drawing); the scale bar below. */
  v.scale = MIN (width / bw, (height - 24.0) / bh);
  v.min_x = b.min[0];
  v.max_y = b.max[1];
  v.ox = (width - bw * v.scale) / 2.0;
  v.oy = (height - 24.0 - bh * v.scale) / 2.0;
  cairo_save (cr);
  draw_grid (&v, &b, s->lu_mm);
  switch (s->kind)
    {
    case NB_SETUP_ROUTE: draw_route (&v, s); break;
    case NB_SETUP_PLACEMENTS: draw_placements (&v, s); break;
    case NB_SETUP_COURSE:
      if (s->course.kind == NB_COURSE_AVOIDANCE)
        draw_avoidance (&v, s);
      else
        draw_passage (&v, s);
      break;
    case NB_SETUP_ARENA:
    default:
      draw_arena (&v, s);
      break;
    }
  draw_scale_bar (&v, s->lu_mm, height);
  cairo_restore (cr);
}

static const char *
obstacle_words (const NbObstacleShape *o)
{
  return _(o->name);
}

char *
nb_setup_describe (const NbSetup *s)
{
  const NbCourse *c = &s->course;

  switch (s->kind)
    {
    case NB_SETUP_ROUTE:
      {
        const char *kind = s->route.kind == NB_ROUTE_STRAIGHT ? _("straight")
                           : s->route.kind == NB_ROUTE_RECTANGULAR ? _("rectangular")
                           : _("combined");

        return g_strdup_printf (_("The %s route (4.5), legs of %.0f LU (%.0f mm) from P0; the "
                                  "robot %.0f mm wide, LU = %.0f mm."), kind,
                                NB_ROUTE_DEFAULT_LEG_LU, NB_ROUTE_DEFAULT_LEG_LU * s->lu_mm,
                                s->robot_width_mm, s->lu_mm);
      }
    case NB_SETUP_PLACEMENTS:
      {
        g_autofree char *first = s->have_obstacle ? NULL
          : g_strdup (_(" (all six of table 2 in turn; the first drawn)"));

        return g_strdup_printf (_("The %s%s at 16 placements (6.3): 8 directions every 45° "
                                  "counter-clockwise, its face at %.0f mm (maximum) and %.0f mm "
                                  "(minimum) from the robot's centre%s."),
                                obstacle_words (&s->obstacle), first ? first : "",
                                s->max_range_mm, s->min_range_mm,
                                s->ranges_declared ? ""
                                : _("; the ranges are not declared yet: the simulator's are "
                                    "drawn"));
      }
    case NB_SETUP_COURSE:
      if (c->kind == NB_COURSE_AVOIDANCE)
        {
          const char *how = c->behaviour == 1 ? _("stands still at P1")
                            : c->behaviour == 2 ? _("crosses the route at P1 at 90° and stops at P2")
                            : c->behaviour == 3 ? _("crosses the route at P1 at 45° and stops at P3")
                            : _("comes head-on along the route and stops at P1");

          return g_strdup_printf (_("Behaviour %u (7.2): the %s %s%s; P0 to PG %.0f mm (9 LU), "
                                    "P1 half way."), c->behaviour, obstacle_words (&c->obstacle),
                                  how, c->behaviour > 1 ? _(", moving at 1.6 m/s") : "",
                                  c->pg[0]);
        }
      return g_strdup_printf (_("The passage (9.2): %.0f mm wide, %.0f mm (4 LU) long, its "
                                "entrance 2 LU ahead of the robot's front; P0 to PG %.0f mm."),
                              c->passage_width_mm, c->exit_x_mm - c->entrance_x_mm, c->pg[0]);
    case NB_SETUP_ARENA:
    default:
      return g_strdup_printf (_("The arena (10.2): 7 LU × 7 LU (%.0f mm), a column %.0f mm "
                                "across in its centre, corners A1–A4; the robot starts at P0."),
                              7.0 * s->lu_mm, s->column_diameter_mm);
    }
}
