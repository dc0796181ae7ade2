#include "nb-skill.h"

#include "nb-error.h"
#include "nb-json-load.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

struct _NbSkillTable {
  GStringChunk *strings;
  GArray *skills;                       /* of NbSkill */
  GPtrArray *steps;                     /* owns each skill's NbSkillStep[] */
  GHashTable *by_name;                  /* name → index + 1 */
};

/* seeds/000: "Эти три исхода не являются навыками." */
static const char *const terminal_outcomes[] = { "ready", "blocked", "replan_required" };

gboolean
nb_skill_is_terminal (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (terminal_outcomes); i++)
    if (strcmp (name, terminal_outcomes[i]) == 0)
      return TRUE;
  return FALSE;
}

const char *
nb_skill_target_name (NbSkillTarget target)
{
  switch (target)
    {
    case NB_SKILL_TARGET_FORBIDDEN: return "forbidden";
    case NB_SKILL_TARGET_REQUIRED: return "required";
    case NB_SKILL_TARGET_FIXED: return "fixed";
    default: return "?";
    }
}

void
nb_skill_table_free (NbSkillTable *table)
{
  if (table == NULL)
    return;
  if (table->strings != NULL)
    g_string_chunk_free (table->strings);
  g_clear_pointer (&table->skills, g_array_unref);
  g_clear_pointer (&table->steps, g_ptr_array_unref);
  g_clear_pointer (&table->by_name, g_hash_table_unref);
  g_free (table);
}

guint
nb_skill_table_size (const NbSkillTable *table)
{
  return table->skills->len;
}

const NbSkill *
nb_skill_table_get (const NbSkillTable *table, guint i)
{
  g_return_val_if_fail (i < table->skills->len, NULL);
  return &g_array_index (table->skills, NbSkill, i);
}

const NbSkill *
nb_skill_table_lookup (const NbSkillTable *table, const char *name)
{
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (table->by_name, name));

  return i == 0 ? NULL : &g_array_index (table->skills, NbSkill, i - 1);
}

/* ------------------------------------------------------------ loading -- */

typedef struct {
  const char *name;                     /* the file, for messages */
  NbSkillTable *table;
} Loader;

G_GNUC_PRINTF (4, 5) static gboolean
fail (const Loader *l, GError **error, const char *where, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s%s%s", l->name, where ? where : "",
               where ? ": " : "", msg);
  return FALSE;
}

/* A member that must be a non-empty string when present; *out NULL if absent. */
static gboolean
get_string (const Loader *l, JsonObject *o, const char *member, gboolean required,
            const char *where, const char **out, GError **error)
{
  JsonNode *n = json_object_get_member (o, member);
  const char *s;

  *out = NULL;
  if (n == NULL)
    return required ? fail (l, error, where, "'%s' is required", member) : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING ||
      *(s = json_node_get_string (n)) == '\0')
    return fail (l, error, where, "'%s' must be a non-empty string", member);
  *out = g_string_chunk_insert_const (l->table->strings, s);
  return TRUE;
}

static gboolean
check_members (const Loader *l, JsonObject *o, const char *const *known, const char *where,
               GError **error)
{
  g_autoptr (GList) members = json_object_get_members (o);

  for (GList *m = members; m != NULL; m = m->next)
    if (!g_strv_contains (known, m->data))
      return fail (l, error, where, "unknown member '%s'", (const char *) m->data);
  return TRUE;
}

static gboolean
load_step (const Loader *l, JsonNode *node, const char *where, NbSkillStep *step,
           GError **error)
{
  static const char *const known[] = { "motion", "gripper", "wait", "duration_s", NULL };
  JsonObject *o;
  JsonNode *d;
  const char *motion, *gripper, *wait;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (l, error, where, "a sim step must be an object");
  o = json_node_get_object (node);
  if (!check_members (l, o, known, where, error) ||
      !get_string (l, o, "motion", FALSE, where, &motion, error) ||
      !get_string (l, o, "gripper", FALSE, where, &gripper, error) ||
      !get_string (l, o, "wait", FALSE, where, &wait, error))
    return FALSE;
  if ((motion != NULL) + (gripper != NULL) + (wait != NULL) != 1)
    return fail (l, error, where, "a sim step is exactly one of motion, gripper, wait");
  d = json_object_get_member (o, "duration_s");
  if (d == NULL || !JSON_NODE_HOLDS_VALUE (d) ||
      (json_node_get_value_type (d) != G_TYPE_DOUBLE &&
       json_node_get_value_type (d) != G_TYPE_INT64))
    return fail (l, error, where, "'duration_s' must be a number");
  step->duration_s = json_node_get_double (d);
  if (!isfinite (step->duration_s) || step->duration_s < 0.0)
    return fail (l, error, where, "'duration_s' must be finite and ≥ 0");
  step->what = NULL;
  if (motion != NULL)
    {
      step->kind = NB_SKILL_STEP_MOTION;
      if (strcmp (motion, "object") == 0)
        step->arg = NB_SKILL_TO_OBJECT;
      else if (strcmp (motion, "target") == 0)
        step->arg = NB_SKILL_TO_TARGET;
      else
        return fail (l, error, where, "motion '%s': expected object or target", motion);
    }
  else if (gripper != NULL)
    {
      step->kind = NB_SKILL_STEP_GRIPPER;
      if (strcmp (gripper, "close") == 0)
        step->arg = NB_SKILL_GRIPPER_CLOSE;
      else if (strcmp (gripper, "open") == 0)
        step->arg = NB_SKILL_GRIPPER_OPEN;
      else if (strcmp (gripper, "keep") == 0)
        step->arg = NB_SKILL_GRIPPER_KEEP;
      else
        return fail (l, error, where, "gripper '%s': expected close, open or keep", gripper);
    }
  else
    {
      step->kind = NB_SKILL_STEP_WAIT;
      step->arg = 0;
      step->what = wait;
    }
  return TRUE;
}

static gboolean
is_identifier (const char *s)
{
  if (!g_ascii_islower (*s))
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_islower (*s) && !g_ascii_isdigit (*s) && *s != '_')
      return FALSE;
  return TRUE;
}

static gboolean
load_skill (const Loader *l, JsonNode *node, guint i, NbSkill *skill, GError **error)
{
  static const char *const known[] = {
    "name", "ru", "en", "target", "target_value", "target_ru", "target_en", "object_value",
    "gripper", "sim", "comment", NULL
  };
  g_autofree char *where = g_strdup_printf ("skills[%u]", i);
  const char *target, *requires = NULL, *effect = NULL;
  JsonObject *o;
  JsonNode *g, *sim;
  NbSkillStep *steps;
  JsonArray *a;

  memset (skill, 0, sizeof *skill);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (l, error, where, "a skill must be an object");
  o = json_node_get_object (node);
  if (!check_members (l, o, known, where, error) ||
      !get_string (l, o, "name", TRUE, where, &skill->name, error) ||
      !get_string (l, o, "ru", TRUE, where, &skill->description_ru, error) ||
      !get_string (l, o, "en", TRUE, where, &skill->description_en, error) ||
      !get_string (l, o, "target", TRUE, where, &target, error) ||
      !get_string (l, o, "target_value", FALSE, where, &skill->target_value, error) ||
      !get_string (l, o, "target_ru", FALSE, where, &skill->target_ru, error) ||
      !get_string (l, o, "target_en", FALSE, where, &skill->target_en, error) ||
      !get_string (l, o, "object_value", FALSE, where, &skill->object_value, error))
    return FALSE;
  g_free (where);
  where = g_strdup_printf ("skills[%u] (%s)", i, skill->name);
  if (!is_identifier (skill->name))
    return fail (l, error, where, "a skill name is lower-case ASCII, digits and '_'");
  if (nb_skill_is_terminal (skill->name))
    return fail (l, error, where, "'%s' is a terminal outcome, not a skill", skill->name);

  if (strcmp (target, "forbidden") == 0)
    skill->target = NB_SKILL_TARGET_FORBIDDEN;
  else if (strcmp (target, "required") == 0)
    skill->target = NB_SKILL_TARGET_REQUIRED;
  else if (strcmp (target, "fixed") == 0)
    skill->target = NB_SKILL_TARGET_FIXED;
  else
    return fail (l, error, where, "target '%s': expected forbidden, required or fixed", target);
  if ((skill->target == NB_SKILL_TARGET_FIXED) != (skill->target_value != NULL))
    return fail (l, error, where, "'target_value' is given exactly when target is fixed");

  skill->grip_requires = NB_SKILL_GRIP_ANY;
  skill->grip_effect = NB_SKILL_GRIP_KEEP;
  if ((g = json_object_get_member (o, "gripper")) != NULL)
    {
      static const char *const gknown[] = { "requires", "effect", NULL };
      JsonObject *go;

      if (!JSON_NODE_HOLDS_OBJECT (g))
        return fail (l, error, where, "'gripper' must be an object");
      go = json_node_get_object (g);
      if (!check_members (l, go, gknown, where, error) ||
          !get_string (l, go, "requires", FALSE, where, &requires, error) ||
          !get_string (l, go, "effect", FALSE, where, &effect, error))
        return FALSE;
      if (requires == NULL)
        ;
      else if (strcmp (requires, "empty") == 0)
        skill->grip_requires = NB_SKILL_GRIP_EMPTY;
      else if (strcmp (requires, "held") == 0)
        skill->grip_requires = NB_SKILL_GRIP_HELD;
      else
        return fail (l, error, where, "gripper.requires '%s': expected empty or held", requires);
      if (effect == NULL)
        ;
      else if (strcmp (effect, "grasp") == 0)
        skill->grip_effect = NB_SKILL_GRIP_GRASP;
      else if (strcmp (effect, "release") == 0)
        skill->grip_effect = NB_SKILL_GRIP_RELEASE;
      else
        return fail (l, error, where, "gripper.effect '%s': expected grasp or release", effect);
    }

  sim = json_object_get_member (o, "sim");
  if (sim == NULL || !JSON_NODE_HOLDS_ARRAY (sim))
    return fail (l, error, where, "'sim' must be an array of steps");
  a = json_node_get_array (sim);
  steps = g_new0 (NbSkillStep, MAX (json_array_get_length (a), 1));
  g_ptr_array_add (l->table->steps, steps);
  skill->steps = steps;
  skill->n_steps = json_array_get_length (a);
  for (guint k = 0; k < skill->n_steps; k++)
    {
      g_autofree char *swhere = g_strdup_printf ("%s: sim[%u]", where, k);

      if (!load_step (l, json_array_get_element (a, k), swhere, &steps[k], error))
        return FALSE;
    }
  return TRUE;
}

NbSkillTable *
nb_skill_table_load_data (const char *name, const char *data, gssize len, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (NbSkillTable) table = g_new0 (NbSkillTable, 1);
  g_autoptr (GError) local = NULL;
  Loader l = { name, table };
  JsonNode *root, *skills;
  JsonArray *a;

  table->strings = g_string_chunk_new (4096);
  table->skills = g_array_new (FALSE, FALSE, sizeof (NbSkill));
  table->steps = g_ptr_array_new_with_free_func (g_free);
  table->by_name = g_hash_table_new (g_str_hash, g_str_equal);

  if (!nb_json_load (parser, NULL, data, len, &local))
    {
      fail (&l, error, NULL, "%s", local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      (skills = json_object_get_member (json_node_get_object (root), "skills")) == NULL ||
      !JSON_NODE_HOLDS_ARRAY (skills))
    {
      fail (&l, error, NULL, "expected an object with a 'skills' array");
      return NULL;
    }
  a = json_node_get_array (skills);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      NbSkill skill;

      if (!load_skill (&l, json_array_get_element (a, i), i, &skill, error))
        return NULL;
      if (g_hash_table_contains (table->by_name, skill.name))
        {
          g_autofree char *where = g_strdup_printf ("skills[%u]", i);

          fail (&l, error, where, "skill '%s' is defined twice", skill.name);
          return NULL;
        }
      g_array_append_val (table->skills, skill);
      g_hash_table_insert (table->by_name, (gpointer) skill.name, GUINT_TO_POINTER (i + 1));
    }
  if (table->skills->len == 0)
    {
      fail (&l, error, NULL, "the table has no skills");
      return NULL;
    }
  return g_steal_pointer (&table);
}

NbSkillTable *
nb_skill_table_load_file (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, local->message);
      return NULL;
    }
  return nb_skill_table_load_data (path, data, (gssize) len, error);
}
