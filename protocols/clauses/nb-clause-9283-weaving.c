/* nb-clause-9283-weaving.c — ISO 9283 8.7 weaving deviations: weaving stroke error WS
 * and weaving frequency error WF (ГОСТ Р 60.3.3.1: «отклонения при поперечных
 * перемещениях»)
 *
 * The motion stack (seeds/003) has no weaving motion of its own; the rig
 * commands the weave as it commands the other paths, joint points timed
 * one by one (nb-clause-9283-path.c): the pattern superimposed on the
 * straight line.  Read in docs/iso9283.md (the standard's text was not at
 * hand): the base line is the diagonal P2 → P4 of the measurement plane; the
 * weave is sinusoidal, across the line in the measurement plane, with the
 * command stroke S_c = 10 mm (the full width, peak to peak) at F_c = 2 Hz,
 * while the TCP travels along the line at a welding speed, 10 % of the
 * rated path velocity; the points every 1/80 of the weaving period (a crest
 * and a trough on points of their own); rated load, three cycles (ГОСТ Р
 * 60.3.3.1's table 5).  WS and WF from the tracker's stream over the
 * measured part of the line (its middle 9/11, as 8.6's velocity), by
 * nb_iso9283_weaving.
 */
#include "nb-clause-9283.h"

#include "nb-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define STROKE_MM 10.0
#define FREQUENCY_HZ 2.0
#define TRAVEL_PCT 10.0         /* of the rated path velocity */
/* The points a weaving period: the arm moving joint-linearly between them
 * (the simulated arm) cuts the crests by A·(2π/80)²/8 = 3.9 µm at most. */
#define POINTS_PER_PERIOD 80
#define COMMAND_VALUES 14

static const NbClause9283Column weaving_columns[] = {
  { "stroke_command_mm", "S_c", "mm", 2 },
  { "stroke_mm", "S̄_a", "mm", 3 },
  { "ws_pct", "WS", "%", 2 },
  { "ws_max_pct", NC_ ("iso9283", "WS (largest cycle)"), "%", 2 },
  { "frequency_command_hz", "F_c", "Hz", 2 },
  { "frequency_hz", "F̄_a", "Hz", 4 },
  { "wf_pct", "WF", "%", 2 },
  { "wf_max_pct", NC_ ("iso9283", "WF (largest cycle)"), "%", 2 },
};

static gboolean
weaving_prepare (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
                 NbClause9283Goals *c, GError **error)
{
  const NbIso9283Cube *cube = &rig->cube;
  NbIso9283Path *p = &c->path;
  g_autofree double (*pts)[3] = NULL;
  double e1[3], e2[3], n[3], u[3], d[3], length = 0, dt, step;
  guint np;

  memset (p, 0, sizeof *p);
  p->kind = NB_ISO9283_LINE;
  memcpy (p->start_mm, cube->p_mm[1], sizeof p->start_mm);
  memcpy (p->end_mm, cube->p_mm[3], sizeof p->end_mm);
  memcpy (p->abc_deg, cube->abc_deg, sizeof p->abc_deg);
  c->v_command_mm_s = rig->rated_speed_mm_s * TRAVEL_PCT / 100.0 * e->speed_pct / 100.0;
  nb_clause_9283_plane_axes (cube, e1, e2, n);
  for (int k = 0; k < 3; k++)
    {
      u[k] = p->end_mm[k] - p->start_mm[k];
      length += u[k] * u[k];
    }
  length = sqrt (length);
  for (int k = 0; k < 3; k++)
    u[k] /= length;
  /* Across the line in the measurement plane: n × u. */
  d[0] = n[1] * u[2] - n[2] * u[1];
  d[1] = n[2] * u[0] - n[0] * u[2];
  d[2] = n[0] * u[1] - n[1] * u[0];
  /* The weave's direction is kept in the path's normal (a line has none). */
  memcpy (p->normal, d, sizeof p->normal);
  dt = 1.0 / (FREQUENCY_HZ * POINTS_PER_PERIOD);
  step = c->v_command_mm_s * dt;
  np = (guint) floor (length / step) + 1;
  pts = g_malloc (sizeof (double[3]) * np);
  for (guint i = 0; i < np; i++)
    {
      double w = STROKE_MM / 2 * sin (2 * G_PI * FREQUENCY_HZ * i * dt);

      for (int k = 0; k < 3; k++)
        pts[i][k] = p->start_mm[k] + step * i * u[k] + w * d[k];
    }
  if (!nb_clause_9283_path_points (rig, c, (const double (*)[3]) pts, np, rig->q[0], NULL,
                                   error))
    return FALSE;
  /* Each point at its time on the weave, not at |Δp| / v_c: the travel
   * along the line is at v_c, the weave across it at F_c. */
  for (guint i = 0; i < c->segment_s->len; i++)
    g_array_index (c->segment_s, double, i) = dt;
  return nb_clause_9283_check (rig, c, error);
}

void
nb_clause_9283_weaving_command (const NbIso9283Weave *wv, double v_mm_s, GArray *command)
{
  const double tail[5] = { wv->stroke_mm, wv->frequency_hz, v_mm_s, wv->s0_mm, wv->s1_mm };

  g_array_append_vals (command, wv->start_mm, 3);
  g_array_append_vals (command, wv->end_mm, 3);
  g_array_append_vals (command, wv->direction, 3);
  g_array_append_vals (command, tail, 5);
}

static gboolean
weaving_cycle (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
               NbClause9283Goals *c, guint number, NbIso9283Trial *t, GError **error)
{
  const NbIso9283Path *p = &c->path;
  NbIso9283Weave wv = { .stroke_mm = STROKE_MM, .frequency_hz = FREQUENCY_HZ };
  double length = 0;

  if (!nb_clause_9283_track_cycle (rig, c, t, error))
    return FALSE;
  for (int k = 0; k < 3; k++)
    length += (p->end_mm[k] - p->start_mm[k]) * (p->end_mm[k] - p->start_mm[k]);
  length = sqrt (length);
  memcpy (wv.start_mm, p->start_mm, sizeof wv.start_mm);
  memcpy (wv.end_mm, p->end_mm, sizeof wv.end_mm);
  memcpy (wv.direction, p->normal, sizeof wv.direction);
  wv.s0_mm = length / 11;
  wv.s1_mm = length * 10 / 11;
  nb_clause_9283_weaving_command (&wv, c->v_command_mm_s, t->command);
  return TRUE;
}

static gboolean
weaving_compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
                 const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  static const guint lens[] = { COMMAND_VALUES, 0 };
  g_auto (NbClause9283Cycles) c = { 0 };
  const double *h;
  NbIso9283Weave wv;
  NbIso9283Weaving r;

  if (!nb_clause_9283_cycle_tracks (trials, lens, "weaving path", &c, error))
    return FALSE;
  h = c.command;
  memcpy (wv.start_mm, h, sizeof wv.start_mm);
  memcpy (wv.end_mm, h + 3, sizeof wv.end_mm);
  memcpy (wv.direction, h + 6, sizeof wv.direction);
  wv.stroke_mm = h[9];
  wv.frequency_hz = h[10];
  wv.s0_mm = h[12];
  wv.s1_mm = h[13];
  if (!nb_iso9283_weaving (&wv, c.tracks, c.n, &r, error))
    return FALSE;
  nb_clause_9283_figures_alloc (f, clause, 1);
  f->labels[0] = g_strdup ("P2–P4");
  f->values[0] = wv.stroke_mm;
  f->values[1] = r.stroke_mm;
  f->values[2] = r.ws_pct;
  f->values[3] = r.ws_max_pct;
  f->values[4] = wv.frequency_hz;
  f->values[5] = r.frequency_hz;
  f->values[6] = r.wf_pct;
  f->values[7] = r.wf_max_pct;
  /* compute iso9283 weaving knows neither the path nor its travel. */
  if (isnan (h[11]))
    f->note = g_strdup_printf (nb_ptr (lang, "iso9283", "measured over %.1f … %.1f mm"),
                               wv.s0_mm, wv.s1_mm);
  else
    f->note = g_strdup_printf (nb_ptr (lang, "iso9283",
                                       "a sinusoidal weave across P2 → P4 in the measurement "
                                       "plane, travel v = %.1f mm/s, measured over %.1f … %.1f "
                                       "mm"), h[11], wv.s0_mm, wv.s1_mm);
  return TRUE;
}

const NbClause9283 nb_clause_9283_weaving = {
  .key = "weaving",
  .clause = "8.7",
  .title = NC_ ("iso9283", "Weaving deviations"),
  .cycles = 3,
  .speeds = NB_9283_RATED_ONLY,
  .needs = NB_ISO9283_NEEDS_STREAM | NB_ISO9283_NEEDS_TIMED_PATH,
  .columns = weaving_columns,
  .n_columns = G_N_ELEMENTS (weaving_columns),
  .prepare = weaving_prepare,
  .run_cycle = weaving_cycle,
  .compute = weaving_compute,
};
