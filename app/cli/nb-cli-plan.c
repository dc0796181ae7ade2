/* navbench-cli plan — check and run task plans of robot skills (seeds/000)
 *
 *   plan check FILE --mode full|step|branch [--strict] [--json]
 *   plan run FILE --mode full|branch --robot sim [--fail ID] [--strict] [--json]
 *   plan skills [--json]
 *
 * FILE holds one plan, or one plan per line (JSON Lines: a .jsonl/.ndjson
 * name, or a first line that is a whole JSON object).  check reports every
 * violation as "FILE:LINE: LOCATION: error|warning [kind]: message", then a
 * summary; it exits 2 when a plan is invalid.  run refuses a plan with
 * errors (exit 2), executes the rest on the simulated robot and reports the
 * terminal outcome with the trace; a run that ends in replan_required is a
 * result, not a failure (exit 0).
 */
#include "nb-cli.h"

#include "nb-error.h"
#include "nb-json-tree.h"
#include "nb-json-writer.h"
#include "nb-plan.h"
#include "nb-sim-skill.h"
#include "nb-skill.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* -------------------------------------------------------- skill table -- */

/* The build tree's binary reads the source tree's table; an installed one
 * the installed table. */
static char *
default_skills_path (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  if (exe != NULL && g_str_has_prefix (exe, NB_BUILD_ROOT "/") &&
      g_file_test (NB_SKILLS_SOURCE, G_FILE_TEST_EXISTS))
    return g_strdup (NB_SKILLS_SOURCE);
  return g_strdup (NB_SKILLS_INSTALLED);
}

static NbSkillTable *
load_skills (const char *option, GError **error)
{
  g_autofree char *path = option ? g_strdup (option) : default_skills_path ();

  return nb_skill_table_load_file (path, error);
}

/* -------------------------------------------------------------- input -- */

typedef struct {
  const char *name;
  FILE *fp;
  gboolean owned;
  char *buf;
  size_t cap;
  guint64 line;
} Input;

static void
input_close (Input *in)
{
  if (in->fp != NULL && in->owned)
    fclose (in->fp);
  in->fp = NULL;
  g_clear_pointer (&in->buf, free);   /* getline's buffer is malloc'd */
}

static gboolean
input_open (Input *in, const char *path, GError **error)
{
  memset (in, 0, sizeof *in);
  in->name = path;
  if (g_str_equal (path, "-"))
    {
      in->fp = stdin;
      return TRUE;
    }
  in->fp = fopen (path, "rb");
  if (in->fp == NULL)
    {
      int saved = errno;

      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  in->owned = TRUE;
  return TRUE;
}

/* The next line without its end of line; NULL at the end (or *error). */
static const char *
input_next (Input *in, gsize *len, GError **error)
{
  ssize_t n;

  errno = 0;
  n = getline (&in->buf, &in->cap, in->fp);
  if (n < 0)
    {
      if (ferror (in->fp))
        {
          int saved = errno;

          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", in->name,
                       g_strerror (saved));
        }
      return NULL;
    }
  in->line++;
  if (n > 0 && in->buf[n - 1] == '\n')
    n--;
  if (n > 0 && in->buf[n - 1] == '\r')
    n--;
  in->buf[n] = '\0';
  *len = (gsize) n;
  if (in->line == 1 && n >= 3 && memcmp (in->buf, "\xEF\xBB\xBF", 3) == 0)
    {
      /* A UTF-8 byte order mark is not part of the JSON text. */
      *len -= 3;
      return in->buf + 3;
    }
  return in->buf;
}

static gboolean
is_blank (const char *s, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (s[i]))
      return FALSE;
  return TRUE;
}

static gboolean
looks_like_json_lines (const char *path, const char *first, gsize len)
{
  g_autoptr (NbJsonTree) tree = NULL;

  if (g_str_has_suffix (path, ".jsonl") || g_str_has_suffix (path, ".ndjson"))
    return TRUE;
  tree = nb_json_tree_new ();
  return g_utf8_validate_len (first, len, NULL) &&
         nb_json_tree_parse (tree, first, len, 1, NULL, NULL) &&
         nb_json_tree_root (tree)->type == NB_JSON_OBJECT;
}

/* ---------------------------------------------------------- reporting -- */

typedef struct {
  guint64 plans, valid, invalid, with_warnings;
  guint64 errors[NB_PLAN_N_KINDS];
  guint64 warnings[NB_PLAN_N_KINDS];
} Summary;

static void
text_violation (GString *out, const char *file, const NbPlanViolation *v)
{
  g_string_append_printf (out, "%s:%" G_GUINT64_FORMAT ": %s%s%s [%s]: %s\n", file, v->line,
                          v->location, *v->location ? ": " : "",
                          v->severity == NB_PLAN_ERROR ? "error" : "warning",
                          nb_plan_violation_kind_name (v->kind), v->message);
}

static void
json_violation (NbJsonWriter *w, guint64 plan, const NbPlanViolation *v)
{
  nb_json_begin_object (w);
  nb_json_key (w, "plan"); nb_json_int (w, (gint64) plan);
  nb_json_key (w, "line"); nb_json_int (w, (gint64) v->line);
  nb_json_key (w, "location"); nb_json_string (w, v->location);
  nb_json_key (w, "severity"); nb_json_string (w, v->severity == NB_PLAN_ERROR ? "error" : "warning");
  nb_json_key (w, "kind"); nb_json_string (w, nb_plan_violation_kind_name (v->kind));
  nb_json_key (w, "message"); nb_json_string (w, v->message);
  nb_json_end_object (w);
}

static void
json_counts (NbJsonWriter *w, const char *key, const guint64 *counts)
{
  nb_json_key (w, key);
  nb_json_begin_object (w);
  for (guint k = 0; k < NB_PLAN_N_KINDS; k++)
    if (counts[k] > 0)
      {
        nb_json_key (w, nb_plan_violation_kind_name ((NbPlanViolationKind) k));
        nb_json_int (w, (gint64) counts[k]);
      }
  nb_json_end_object (w);
}

static void
text_counts (GString *out, const char *what, const guint64 *counts)
{
  for (guint k = 0; k < NB_PLAN_N_KINDS; k++)
    if (counts[k] > 0)
      g_string_append_printf (out, "  %-8s %-20s %" G_GUINT64_FORMAT "\n", what,
                              nb_plan_violation_kind_name ((NbPlanViolationKind) k), counts[k]);
}

/* -------------------------------------------------------------- check -- */

typedef struct {
  char *mode;
  char *skills;
  gboolean json;
  gboolean strict;
  char *robot;
  char *fail;
} Options;

static void
options_clear (Options *o)
{
  g_clear_pointer (&o->mode, g_free);
  g_clear_pointer (&o->skills, g_free);
  g_clear_pointer (&o->robot, g_free);
  g_clear_pointer (&o->fail, g_free);
}

/* Parses the options and the one FILE argument. */
static gboolean
parse_args (GOptionContext *context, Options *o, int *argc, char ***argv, const char **file,
            GError **error)
{
  if (!g_option_context_parse (context, argc, argv, error))
    return FALSE;
  if (*argc < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "FILE is required (see --help)");
      return FALSE;
    }
  if (*argc > 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "unexpected argument '%s' (see --help)",
                   (*argv)[2]);
      return FALSE;
    }
  *file = (*argv)[1];
  return TRUE;
}

static gboolean
parse_mode (const char *text, gboolean allow_step, NbPlanMode *mode, GError **error)
{
  if (!nb_plan_mode_parse (text, mode) || (!allow_step && *mode == NB_PLAN_MODE_STEP))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--mode %s is required, got %s%s%s",
                   allow_step ? "full|step|branch" : "full|branch", text ? "'" : "",
                   text ? text : "none", text ? "'" : "");
      return FALSE;
    }
  return TRUE;
}

static void
tally (Summary *s, const NbPlan *plan, GArray *violations, guint first)
{
  gboolean invalid = plan == NULL, warned = FALSE;

  s->plans++;
  for (guint i = first; i < violations->len; i++)
    {
      const NbPlanViolation *v = &g_array_index (violations, NbPlanViolation, i);

      if (v->severity == NB_PLAN_ERROR)
        {
          s->errors[v->kind]++;
          invalid = TRUE;
        }
      else
        {
          s->warnings[v->kind]++;
          warned = TRUE;
        }
    }
  if (invalid)
    s->invalid++;
  else
    s->valid++;
  if (warned)
    s->with_warnings++;
}

static int
plan_check (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("FILE");
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSkillTable) skills = NULL;
  g_autoptr (NbPlanChecker) checker = NULL;
  g_autoptr (GArray) violations = nb_plan_violations_new ();
  g_autoptr (GArray) owners = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GString) text = g_string_new (NULL);
  Options o = { 0 };
  Input in = { 0 };
  Summary s = { 0 };
  const char *file = NULL, *line;
  gboolean lines_mode = FALSE;
  NbPlanMode mode;
  gsize len;
  const GOptionEntry entries[] = {
    { "mode", 0, 0, G_OPTION_ARG_STRING, &o.mode, "the plan format (seeds/000)", "full|step|branch" },
    { "strict", 0, 0, G_OPTION_ARG_NONE, &o.strict, "the gripper and graph lint reports errors", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "one JSON object on stdout", NULL },
    { "skills", 0, 0, G_OPTION_ARG_FILENAME, &o.skills, "the skill table (default: the installed skills.json)", "F.json" },
    { NULL }
  };

  g_option_context_set_summary (context,
    "Checks a skill plan, or a JSON Lines file of plans (one per line), against the\n"
    "skill table and the plan formats of seeds/000, and lints the gripper logic.\n"
    "Every violation is reported with its line and location (plan[3].target);\n"
    "exit status 2 when any plan has an error.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!parse_args (context, &o, &argc, &argv, &file, &error) ||
      !parse_mode (o.mode, TRUE, &mode, &error) ||
      (skills = load_skills (o.skills, &error)) == NULL ||
      !input_open (&in, file, &error))
    goto fail;
  checker = nb_plan_checker_new (skills, mode, o.strict);

  /* The first non-blank line decides between one document and JSON Lines. */
  while ((line = input_next (&in, &len, &error)) != NULL && is_blank (line, len))
    ;
  if (error != NULL)
    goto fail;
  if (line != NULL)
    lines_mode = looks_like_json_lines (file, line, len);

  if (line == NULL && !lines_mode)
    {
      const NbPlan *plan;
      guint64 plan_line = MAX (in.line, 1);

      g_array_set_size (owners, 0);
      plan = nb_plan_checker_check (checker, "", 0, plan_line, violations);
      tally (&s, plan, violations, 0);
      for (guint i = 0; i < violations->len; i++)
        {
          guint64 one = 1;

          g_array_append_val (owners, one);
        }
    }
  else if (!lines_mode)
    {
      g_autoptr (GString) doc = g_string_new (NULL);
      guint64 first_line = in.line;
      const NbPlan *plan;

      g_string_append_len (doc, line, (gssize) len);
      while ((line = input_next (&in, &len, &error)) != NULL)
        {
          g_string_append_c (doc, '\n');
          g_string_append_len (doc, line, (gssize) len);
        }
      if (error != NULL)
        goto fail;
      plan = nb_plan_checker_check (checker, doc->str, doc->len, first_line, violations);
      tally (&s, plan, violations, 0);
      for (guint i = 0; i < violations->len; i++)
        {
          guint64 one = 1;

          g_array_append_val (owners, one);
        }
    }
  else
    {
      do
        {
          guint first = violations->len;
          const NbPlan *plan;

          if (is_blank (line, len))
            continue;
          plan = nb_plan_checker_check (checker, line, len, in.line, violations);
          tally (&s, plan, violations, first);
          for (guint i = first; i < violations->len; i++)
            g_array_append_val (owners, s.plans);
          /* Print as we go: a million plans' violations are not kept. */
          if (!o.json)
            {
              for (guint i = first; i < violations->len; i++)
                text_violation (text, file, &g_array_index (violations, NbPlanViolation, i));
              g_array_set_size (violations, 0);
              g_array_set_size (owners, 0);
            }
        }
      while ((line = input_next (&in, &len, &error)) != NULL);
      if (error != NULL)
        goto fail;
    }
  input_close (&in);

  if (o.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
      g_autofree char *out = NULL;

      nb_json_begin_object (w);
      nb_json_key (w, "file"); nb_json_string (w, file);
      nb_json_key (w, "mode"); nb_json_string (w, nb_plan_mode_name (mode));
      nb_json_key (w, "format"); nb_json_string (w, lines_mode ? "json-lines" : "document");
      nb_json_key (w, "strict"); nb_json_bool (w, o.strict);
      nb_json_key (w, "plans"); nb_json_int (w, (gint64) s.plans);
      nb_json_key (w, "valid"); nb_json_int (w, (gint64) s.valid);
      nb_json_key (w, "invalid"); nb_json_int (w, (gint64) s.invalid);
      nb_json_key (w, "with_warnings"); nb_json_int (w, (gint64) s.with_warnings);
      json_counts (w, "errors", s.errors);
      json_counts (w, "warnings", s.warnings);
      nb_json_key (w, "violations");
      nb_json_begin_array (w);
      for (guint i = 0; i < violations->len; i++)
        json_violation (w, g_array_index (owners, guint64, i),
                        &g_array_index (violations, NbPlanViolation, i));
      nb_json_end_array (w);
      nb_json_end_object (w);
      out = nb_json_writer_finish (g_steal_pointer (&w));
      if (!nb_cli_write (out, &error))
        goto fail;
    }
  else
    {
      if (!lines_mode)
        for (guint i = 0; i < violations->len; i++)
          text_violation (text, file, &g_array_index (violations, NbPlanViolation, i));
      /* A dataset gets a summary; one plan, a verdict. */
      if (lines_mode && (s.plans != 1 || g_str_has_suffix (file, ".jsonl") ||
                         g_str_has_suffix (file, ".ndjson")))
        {
          g_string_append_printf (text,
                                  "%s: %" G_GUINT64_FORMAT " plan%s (%s): %" G_GUINT64_FORMAT
                                  " valid, %" G_GUINT64_FORMAT " invalid, %" G_GUINT64_FORMAT
                                  " with warnings\n", file, s.plans, s.plans == 1 ? "" : "s",
                                  nb_plan_mode_name (mode),
                                  s.valid, s.invalid, s.with_warnings);
          text_counts (text, "error", s.errors);
          text_counts (text, "warning", s.warnings);
        }
      else
        {
          guint64 n_warnings = 0;

          for (guint k = 0; k < NB_PLAN_N_KINDS; k++)
            n_warnings += s.warnings[k];
          g_string_append_printf (text, "%s: %s plan %s", file, nb_plan_mode_name (mode),
                                  s.invalid ? "invalid" : "valid");
          if (n_warnings > 0)
            g_string_append_printf (text, ", %" G_GUINT64_FORMAT " warning%s", n_warnings,
                                    n_warnings == 1 ? "" : "s");
          g_string_append_c (text, '\n');
        }
      if (!nb_cli_write (text->str, &error))
        goto fail;
    }
  options_clear (&o);
  return s.invalid > 0 ? NB_EXIT_USAGE : NB_EXIT_OK;

fail:
  input_close (&in);
  options_clear (&o);
  return nb_cli_report_error (error);
}

/* ---------------------------------------------------------------- run -- */

typedef struct {
  NbSimRobot *robot;
  int fail_index;                       /* −1: none */
  gboolean fail_reached;
} RunContext;

static gboolean
execute_sim (const NbPlanAction *a, guint index, gpointer user_data, char **reason)
{
  RunContext *rc = user_data;
  gboolean fault = (int) index == rc->fail_index;

  rc->fail_reached |= fault;
  return nb_sim_robot_execute (rc->robot, index, a->skill_def, a->object, a->target, fault,
                               reason);
}

/* --fail ID: a branch plan's id; in a full plan step_N is the N-th action. */
static gboolean
resolve_fail (const NbPlan *plan, const char *id, int *index, GError **error)
{
  *index = -1;
  if (id == NULL)
    return TRUE;
  for (guint i = 0; i < plan->n_actions; i++)
    {
      char buf[32];

      if (plan->mode == NB_PLAN_MODE_BRANCH)
        {
          if (g_strcmp0 (plan->actions[i].id, id) == 0)
            *index = (int) i;
        }
      else
        {
          g_snprintf (buf, sizeof buf, "step_%u", i + 1);
          if (g_str_equal (buf, id))
            *index = (int) i;
        }
      if (*index >= 0)
        return TRUE;
    }
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--fail %s: the plan has no such action%s", id,
               plan->mode == NB_PLAN_MODE_FULL ? " (full plans: step_N is the N-th action)" : "");
  return FALSE;
}

static void
json_event (NbJsonWriter *w, const NbSimEvent *e)
{
  nb_json_begin_object (w);
  nb_json_key (w, "kind"); nb_json_string (w, nb_sim_step_name (e->kind));
  switch (e->kind)
    {
    case NB_SKILL_STEP_MOTION:
      nb_json_key (w, "to"); nb_json_string (w, e->place);
      break;
    case NB_SKILL_STEP_GRIPPER:
      nb_json_key (w, "gripper"); nb_json_string (w, nb_sim_gripper_name (e->arg));
      nb_json_key (w, "object"); nb_json_string (w, e->place);
      break;
    default:
      nb_json_key (w, "for"); nb_json_string (w, e->what);
      break;
    }
  nb_json_key (w, "t_start_s"); nb_json_double (w, e->t_start_s);
  nb_json_key (w, "duration_s"); nb_json_double (w, e->duration_s);
  nb_json_key (w, "ok"); nb_json_bool (w, e->ok);
  nb_json_end_object (w);
}

static void
text_event (GString *out, const NbSimEvent *e)
{
  g_string_append_printf (out, "    %9.3f s  %-7s ", e->t_start_s, nb_sim_step_name (e->kind));
  switch (e->kind)
    {
    case NB_SKILL_STEP_MOTION:
      g_string_append_printf (out, "→ %s", e->place);
      break;
    case NB_SKILL_STEP_GRIPPER:
      g_string_append_printf (out, "%s '%s'", nb_sim_gripper_name (e->arg), e->place);
      break;
    default:
      g_string_append_printf (out, "%s", e->what);
      break;
    }
  g_string_append_printf (out, " (%.3f s)%s\n", e->duration_s, e->ok ? "" : " FAILED");
}

static int
plan_run (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("FILE");
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (NbSkillTable) skills = NULL;
  g_autoptr (NbPlanChecker) checker = NULL;
  g_autoptr (GArray) violations = nb_plan_violations_new ();
  g_autoptr (GArray) trace = nb_plan_trace_new ();
  g_autoptr (NbSimRobot) robot = NULL;
  g_autofree char *data = NULL;
  Options o = { 0 };
  const char *file = NULL, *text;
  const NbPlan *plan;
  NbPlanMode mode;
  NbPlanOutcome outcome;
  RunContext rc = { NULL, -1, FALSE };
  const GArray *events;
  guint ev = 0;
  gsize len;
  const GOptionEntry entries[] = {
    { "mode", 0, 0, G_OPTION_ARG_STRING, &o.mode, "the plan format (seeds/000)", "full|branch" },
    { "robot", 0, 0, G_OPTION_ARG_STRING, &o.robot, "the robot: sim (the simulated cobot)", "sim" },
    { "fail", 0, 0, G_OPTION_ARG_STRING, &o.fail, "inject a failure into this action (full plans: step_N = the N-th)", "ID" },
    { "strict", 0, 0, G_OPTION_ARG_NONE, &o.strict, "refuse a plan with lint warnings too", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "one JSON object on stdout", NULL },
    { "skills", 0, 0, G_OPTION_ARG_FILENAME, &o.skills, "the skill table (default: the installed skills.json)", "F.json" },
    { NULL }
  };

  g_option_context_set_summary (context,
    "Runs one skill plan on the simulated robot from its first action (seeds/000):\n"
    "a branch plan follows on_success; a failed action ends the run in\n"
    "replan_required; the outcome of an empty plan is its status. A plan with\n"
    "errors is not run (exit status 2).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!parse_args (context, &o, &argc, &argv, &file, &error) ||
      !parse_mode (o.mode, FALSE, &mode, &error))
    goto fail;
  if (g_strcmp0 (o.robot, "sim") != 0)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--robot sim is required%s%s%s",
                   o.robot ? " (got '" : "", o.robot ? o.robot : "", o.robot ? "')" : "");
      goto fail;
    }
  if ((skills = load_skills (o.skills, &error)) == NULL)
    goto fail;
  if (g_str_equal (file, "-") ? !g_file_get_contents ("/dev/stdin", &data, &len, &local)
                              : !g_file_get_contents (file, &data, &len, &local))
    {
      g_autofree char *where = g_strdup_printf ("%s: ", file);

      nb_error_propagate_as (&error, g_steal_pointer (&local), NB_ERROR_INPUT, where);
      goto fail;
    }
  text = data;
  if (len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    text += 3, len -= 3;
  checker = nb_plan_checker_new (skills, mode, o.strict);
  plan = nb_plan_checker_check (checker, text, len, 1, violations);
  if (plan == NULL || plan->n_errors > 0)
    {
      for (guint i = 0; i < violations->len; i++)
        {
          const NbPlanViolation *v = &g_array_index (violations, NbPlanViolation, i);

          if (v->severity == NB_PLAN_ERROR)
            g_printerr ("navbench-cli: %s:%" G_GUINT64_FORMAT ": %s%s[%s] %s\n", file, v->line,
                        v->location, *v->location ? ": " : "",
                        nb_plan_violation_kind_name (v->kind), v->message);
        }
      g_printerr ("navbench-cli: %s: the plan has errors: not run\n", file);
      options_clear (&o);
      return NB_EXIT_USAGE;
    }
  if (!resolve_fail (plan, o.fail, &rc.fail_index, &error))
    goto fail;

  robot = nb_sim_robot_new ();
  rc.robot = robot;
  if (!nb_plan_run (plan, execute_sim, &rc, &outcome, trace, &error))
    goto fail;
  events = nb_sim_robot_events (robot);

  if (o.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
      g_autofree char *out = NULL;
      const NbPlanTraceEntry *last = trace->len ? &g_array_index (trace, NbPlanTraceEntry, trace->len - 1) : NULL;

      nb_json_begin_object (w);
      nb_json_key (w, "file"); nb_json_string (w, file);
      nb_json_key (w, "mode"); nb_json_string (w, nb_plan_mode_name (mode));
      nb_json_key (w, "robot"); nb_json_string (w, "sim");
      nb_json_key (w, "status"); nb_json_string (w, plan->status);
      nb_json_key (w, "outcome"); nb_json_string (w, nb_plan_outcome_name (outcome));
      nb_json_key (w, "failed_index");
      if (last != NULL && !last->ok)
        nb_json_int (w, last->index);
      else
        nb_json_null (w);
      nb_json_key (w, "failed_id");
      nb_json_string (w, last != NULL && !last->ok ? plan->actions[last->index].id : NULL);
      nb_json_key (w, "reason");
      nb_json_string (w, last != NULL && !last->ok ? last->reason : NULL);
      nb_json_key (w, "fail"); nb_json_string (w, o.fail);
      nb_json_key (w, "fail_reached"); nb_json_bool (w, rc.fail_reached);
      nb_json_key (w, "elapsed_s"); nb_json_double (w, nb_sim_robot_clock_s (robot));
      nb_json_key (w, "place"); nb_json_string (w, nb_sim_robot_place (robot));
      nb_json_key (w, "holding"); nb_json_string (w, nb_sim_robot_holding (robot));
      nb_json_key (w, "trace");
      nb_json_begin_array (w);
      for (guint k = 0; k < trace->len; k++)
        {
          const NbPlanTraceEntry *e = &g_array_index (trace, NbPlanTraceEntry, k);
          const NbPlanAction *a = &plan->actions[e->index];

          nb_json_begin_object (w);
          nb_json_key (w, "index"); nb_json_int (w, e->index);
          if (a->id != NULL)
            {
              nb_json_key (w, "id"); nb_json_string (w, a->id);
            }
          nb_json_key (w, "skill"); nb_json_string (w, a->skill);
          nb_json_key (w, "object"); nb_json_string (w, a->object);
          if (a->target != NULL)
            {
              nb_json_key (w, "target"); nb_json_string (w, a->target);
            }
          nb_json_key (w, "result"); nb_json_string (w, e->ok ? "success" : "failure");
          if (e->reason != NULL)
            {
              nb_json_key (w, "reason"); nb_json_string (w, e->reason);
            }
          if (e->next != NULL)
            {
              nb_json_key (w, "next"); nb_json_string (w, e->next);
            }
          nb_json_key (w, "actions");
          nb_json_begin_array (w);
          for (; ev < events->len && g_array_index (events, NbSimEvent, ev).action == e->index; ev++)
            json_event (w, &g_array_index (events, NbSimEvent, ev));
          nb_json_end_array (w);
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_key (w, "warnings");
      nb_json_begin_array (w);
      for (guint i = 0; i < violations->len; i++)
        json_violation (w, 1, &g_array_index (violations, NbPlanViolation, i));
      nb_json_end_array (w);
      nb_json_end_object (w);
      out = nb_json_writer_finish (g_steal_pointer (&w));
      if (!nb_cli_write (out, &error))
        goto fail;
    }
  else
    {
      g_autoptr (GString) out = g_string_new (NULL);

      for (guint i = 0; i < violations->len; i++)
        text_violation (out, file, &g_array_index (violations, NbPlanViolation, i));
      for (guint k = 0; k < trace->len; k++)
        {
          const NbPlanTraceEntry *e = &g_array_index (trace, NbPlanTraceEntry, k);
          const NbPlanAction *a = &plan->actions[e->index];

          g_autofree char *name = a->id ? g_strdup (a->id) : g_strdup_printf ("plan[%u]", e->index);

          g_string_append_printf (out, "%s %s '%s'%s%s%s: %s%s%s%s%s%s\n", name, a->skill,
                                  a->object, a->target ? " → '" : "",
                                  a->target ? a->target : "", a->target ? "'" : "",
                                  e->ok ? "success" : "failure", e->reason ? " (" : "",
                                  e->reason ? e->reason : "", e->reason ? ")" : "",
                                  e->next ? ", next " : "", e->next ? e->next : "");
          for (; ev < events->len && g_array_index (events, NbSimEvent, ev).action == e->index; ev++)
            text_event (out, &g_array_index (events, NbSimEvent, ev));
        }
      g_string_append_printf (out, "outcome: %s (status %s, %u action%s, %.3f s on the virtual clock)\n",
                              nb_plan_outcome_name (outcome), plan->status, trace->len,
                              trace->len == 1 ? "" : "s", nb_sim_robot_clock_s (robot));
      if (!nb_cli_write (out->str, &error))
        goto fail;
    }
  options_clear (&o);
  return NB_EXIT_OK;

fail:
  options_clear (&o);
  return nb_cli_report_error (error);
}

/* ------------------------------------------------------------- skills -- */

static int
plan_skills (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSkillTable) skills = NULL;
  g_autofree char *out = NULL;
  Options o = { 0 };
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "one JSON object on stdout", NULL },
    { "skills", 0, 0, G_OPTION_ARG_FILENAME, &o.skills, "the skill table (default: the installed skills.json)", "F.json" },
    { NULL }
  };

  g_option_context_set_summary (context, "Lists the skill table the checker uses.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      (skills = load_skills (o.skills, &error)) == NULL)
    goto fail;
  if (o.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "skills");
      nb_json_begin_array (w);
      for (guint i = 0; i < nb_skill_table_size (skills); i++)
        {
          const NbSkill *k = nb_skill_table_get (skills, i);

          nb_json_begin_object (w);
          nb_json_key (w, "name"); nb_json_string (w, k->name);
          nb_json_key (w, "ru"); nb_json_string (w, k->description_ru);
          nb_json_key (w, "en"); nb_json_string (w, k->description_en);
          nb_json_key (w, "target"); nb_json_string (w, nb_skill_target_name (k->target));
          nb_json_key (w, "target_value"); nb_json_string (w, k->target_value);
          nb_json_key (w, "object_value"); nb_json_string (w, k->object_value);
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_end_object (w);
      out = nb_json_writer_finish (g_steal_pointer (&w));
    }
  else
    {
      GString *t = g_string_new (NULL);

      for (guint i = 0; i < nb_skill_table_size (skills); i++)
        {
          const NbSkill *k = nb_skill_table_get (skills, i);

          g_string_append_printf (t, "%-18s target %-9s %s%s%s— %s\n", k->name,
                                  nb_skill_target_name (k->target),
                                  k->target_value ? "'" : "",
                                  k->target_value ? k->target_value : "",
                                  k->target_value ? "' " : "", k->description_en);
        }
      out = g_string_free (t, FALSE);
    }
  options_clear (&o);
  if (!nb_cli_write (out, &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;

fail:
  options_clear (&o);
  return nb_cli_report_error (error);
}

static const NbCliCommand plan_commands[] = {
  { "check", plan_check, "check plans (one, or JSON Lines) against seeds/000" },
  { "run", plan_run, "run a plan on the simulated robot" },
  { "skills", plan_skills, "list the skill table" },
};

int
nb_cli_plan (int argc, char **argv)
{
  return nb_cli_dispatch ("plan", plan_commands, G_N_ELEMENTS (plan_commands), argc, argv);
}
