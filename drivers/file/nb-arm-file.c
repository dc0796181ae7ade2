#include "nb-arm-file.h"

#include "nb-error.h"
#include "nb-number.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

typedef struct {
  char *value;
  gsize line;
} Scalar;

static void
scalar_free (gpointer p)
{
  g_free (((Scalar *) p)->value);
  g_free (p);
}

/* Every scalar of a YAML file under its key path ("joint_limits/joint1/max_velocity"). */
static GHashTable *
read_yaml (const char *path, GError **error)
{
  g_autoptr (GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, scalar_free);
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) expect_key = g_array_new (FALSE, FALSE, sizeof (gboolean));
  yaml_parser_t parser;
  FILE *f = fopen (path, "rb");
  gboolean done = FALSE, ok = TRUE;

  if (f == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, g_strerror (errno));
      return NULL;
    }
  yaml_parser_initialize (&parser);
  yaml_parser_set_input_file (&parser, f);
  while (!done && ok)
    {
      yaml_event_t ev;

      if (!yaml_parser_parse (&parser, &ev))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: %s", path,
                       parser.problem_mark.line + 1, parser.problem ? parser.problem : "bad YAML");
          ok = FALSE;
          break;
        }
      switch (ev.type)
        {
        case YAML_MAPPING_START_EVENT:
          {
            gboolean t = TRUE;

            g_array_append_val (expect_key, t);
            break;
          }
        case YAML_MAPPING_END_EVENT:
          g_array_set_size (expect_key, expect_key->len - 1);
          if (keys->len > 0 && expect_key->len < keys->len + 1)
            g_ptr_array_set_size (keys, keys->len - 1);
          if (expect_key->len > 0)
            g_array_index (expect_key, gboolean, expect_key->len - 1) = TRUE;
          break;
        case YAML_SCALAR_EVENT:
          if (expect_key->len == 0)
            break;
          if (g_array_index (expect_key, gboolean, expect_key->len - 1))
            {
              g_ptr_array_add (keys, g_strdup ((const char *) ev.data.scalar.value));
              g_array_index (expect_key, gboolean, expect_key->len - 1) = FALSE;
            }
          else
            {
              Scalar *s = g_new (Scalar, 1);
              g_autofree char *joined = NULL;

              g_ptr_array_add (keys, NULL);
              joined = g_strjoinv ("/", (char **) keys->pdata);
              g_ptr_array_set_size (keys, keys->len - 1);
              s->value = g_strdup ((const char *) ev.data.scalar.value);
              s->line = ev.start_mark.line + 1;
              g_hash_table_replace (table, g_steal_pointer (&joined), s);
              g_ptr_array_set_size (keys, keys->len - 1);
              g_array_index (expect_key, gboolean, expect_key->len - 1) = TRUE;
            }
          break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_ALIAS_EVENT:
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: lists and aliases are not "
                       "expected here", path, ev.start_mark.line + 1);
          ok = FALSE;
          break;
        case YAML_STREAM_END_EVENT:
          done = TRUE;
          break;
        default:
          break;
        }
      yaml_event_delete (&ev);
    }
  yaml_parser_delete (&parser);
  fclose (f);
  return ok ? g_steal_pointer (&table) : NULL;
}

static gboolean
get_number (GHashTable *t, const char *path, const char *key, double *out, GError **error)
{
  Scalar *s = g_hash_table_lookup (t, key);

  if (s == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' is missing", path, key);
      return FALSE;
    }
  if (!nb_parse_double (s->value, strlen (s->value), out))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: %s: '%s' is not a finite number",
                   path, s->line, key, s->value);
      return FALSE;
    }
  return TRUE;
}

/* A missing optional flag is false; a missing required one (a joint left
 * out of the file) is an error. */
static gboolean
get_bool (GHashTable *t, const char *path, const char *key, gboolean required, gboolean *out,
          GError **error)
{
  Scalar *s = g_hash_table_lookup (t, key);

  if (s == NULL && required)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' is missing", path, key);
      return FALSE;
    }
  if (s == NULL)
    {
      *out = FALSE;
      return TRUE;
    }
  if (g_str_equal (s->value, "true") || g_str_equal (s->value, "false"))
    {
      *out = g_str_equal (s->value, "true");
      return TRUE;
    }
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: %s: '%s' is not true or false", path,
               s->line, key, s->value);
  return FALSE;
}

gboolean
nb_arm_model_load (const char *dir, NbArmModel *m, GError **error)
{
  g_autofree char *limits_path = g_build_filename (dir, "joint_limits.yaml", NULL);
  g_autofree char *dh_path = g_build_filename (dir, "kinematics.yaml", NULL);
  g_autoptr (GHashTable) limits = read_yaml (limits_path, error);
  g_autoptr (GHashTable) dh = NULL;

  if (limits == NULL || (dh = read_yaml (dh_path, error)) == NULL)
    return FALSE;
  memset (m, 0, sizeof *m);
  for (int i = 0; i < 4; i++)
    m->tcp[5 * i] = 1.0;        /* tool "none": the TCP is link_ee */

  for (int i = 0; i < NB_ARM_JOINTS; i++)
    {
      NbArmJoint *j = &m->joint[i];
      char key[96];

      g_snprintf (j->name, sizeof j->name, "joint%d", i + 1);
#define LIMIT(field) (g_snprintf (key, sizeof key, "joint_limits/%s/%s", j->name, field), key)
      if (!get_bool (limits, limits_path, LIMIT ("has_position_limits"), TRUE,
                     &j->has_position_limits, error) ||
          !get_bool (limits, limits_path, LIMIT ("has_velocity_limits"), TRUE,
                     &j->has_velocity_limits, error) ||
          !get_bool (limits, limits_path, LIMIT ("has_soft_limits"), FALSE, &j->has_soft_limits,
                     error))
        return FALSE;
      if (j->has_position_limits &&
          (!get_number (limits, limits_path, LIMIT ("min_position"), &j->min_position, error) ||
           !get_number (limits, limits_path, LIMIT ("max_position"), &j->max_position, error)))
        return FALSE;
      if (j->has_velocity_limits &&
          !get_number (limits, limits_path, LIMIT ("max_velocity"), &j->max_velocity, error))
        return FALSE;
      if (j->has_soft_limits &&
          (!get_number (limits, limits_path, LIMIT ("soft_lower_limit"), &j->soft_lower, error) ||
           !get_number (limits, limits_path, LIMIT ("soft_upper_limit"), &j->soft_upper, error)))
        return FALSE;
#undef LIMIT
      if (j->has_position_limits && !(j->min_position < j->max_position))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s: min_position %g is not below "
                       "max_position %g", limits_path, j->name, j->min_position, j->max_position);
          return FALSE;
        }
      if (j->has_soft_limits && (!(j->soft_lower < j->soft_upper) ||
                                 (j->has_position_limits &&
                                  (j->soft_lower < j->min_position || j->soft_upper > j->max_position))))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s: %s: the soft range [%g, %g] must lie inside the hard one", limits_path,
                       j->name, j->soft_lower, j->soft_upper);
          return FALSE;
        }
#define DH(field) (g_snprintf (key, sizeof key, "dh/%s/%s", j->name, field), key)
      if (!get_number (dh, dh_path, DH ("a"), &j->a, error) ||
          !get_number (dh, dh_path, DH ("alpha"), &j->alpha, error) ||
          !get_number (dh, dh_path, DH ("d"), &j->d, error) ||
          !get_number (dh, dh_path, DH ("theta"), &j->theta_offset, error))
        return FALSE;
#undef DH
    }
  return TRUE;
}
