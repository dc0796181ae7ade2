#include "nb-arm-file.h"

#include "nb-error.h"
#include "nb-yaml-depth.h"
#include "nb-number.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
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

/* Every scalar of a YAML file under its key path: mapping keys and
 * sequence indices joined by '/' ("joint_limits/joint1/max_velocity",
 * "tools/x/disable_collisions/0/1"), with its line for messages. */
typedef struct {
  gboolean seq;
  guint index;
  gboolean expect_key;
} Frame;

static GHashTable *
read_yaml (const char *path, GError **error)
{
  g_autoptr (GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, scalar_free);
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (Frame));
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
      Frame *top;

      if (!yaml_parser_parse (&parser, &ev))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: %s", path,
                       parser.problem_mark.line + 1, parser.problem ? parser.problem : "bad YAML");
          ok = FALSE;
          break;
        }
      top = frames->len ? &g_array_index (frames, Frame, frames->len - 1) : NULL;
      switch (ev.type)
        {
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
          {
            Frame fr = { ev.type == YAML_SEQUENCE_START_EVENT, 0, TRUE };

            /* A container as a mapping's key (YAML's "? " complex keys) names nothing. */
            if (top != NULL && !top->seq && top->expect_key)
              {
                g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: a key must be a plain "
                             "scalar", path, ev.start_mark.line + 1);
                ok = FALSE;
                break;
              }
            if (frames->len >= NB_YAML_MAX_DEPTH)
              {
                nb_yaml_set_depth_error (error, path, &ev);
                ok = FALSE;
                break;
              }
            if (top != NULL && top->seq)
              g_ptr_array_add (keys, g_strdup_printf ("%u", top->index));
            g_array_append_val (frames, fr);
            break;
          }
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
          g_array_set_size (frames, frames->len - 1);
          if (frames->len > 0)
            {
              Frame *parent = &g_array_index (frames, Frame, frames->len - 1);

              /* The container was the value of a key or an item: done with it
               * (its key or index was pushed when it started). */
              g_ptr_array_set_size (keys, keys->len - 1);
              if (parent->seq)
                parent->index++;
              else
                parent->expect_key = TRUE;
            }
          break;
        case YAML_SCALAR_EVENT:
          if (top == NULL)
            break;
          if (!top->seq && top->expect_key)
            {
              g_ptr_array_add (keys, g_strdup ((const char *) ev.data.scalar.value));
              top->expect_key = FALSE;
            }
          else
            {
              Scalar *sc = g_new (Scalar, 1);
              g_autofree char *joined = NULL;

              if (top->seq)
                g_ptr_array_add (keys, g_strdup_printf ("%u", top->index));
              g_ptr_array_add (keys, NULL);
              joined = g_strjoinv ("/", (char **) keys->pdata);
              g_ptr_array_set_size (keys, keys->len - 1);
              sc->value = g_strdup ((const char *) ev.data.scalar.value);
              sc->line = ev.start_mark.line + 1;
              g_hash_table_replace (table, g_steal_pointer (&joined), sc);
              g_ptr_array_set_size (keys, keys->len - 1);
              if (top->seq)
                top->index++;
              else
                top->expect_key = TRUE;
            }
          break;
        case YAML_ALIAS_EVENT:
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: aliases are not expected here",
                       path, ev.start_mark.line + 1);
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
  /* seeds/002: the active tool defines the TCP; no tool_active.xacro is tool "none". */
  {
    g_autofree char *xacro = g_build_filename (dir, "tool_active.xacro", NULL);
    double xyz[3], rpy[3];

    if (g_file_test (xacro, G_FILE_TEST_EXISTS))
      {
        if (!nb_arm_active_tool (dir, NULL, xyz, rpy, error))
          return FALSE;
        nb_arm_tcp_from_origin (xyz, rpy, m->tcp);
      }
  }
  return TRUE;
}

/* ------------------------------------------------ tools and positions -- */


void
nb_arm_tool_free (NbArmTool *t)
{
  if (t == NULL)
    return;
  g_free (t->name);
  g_free (t->description);
  g_free (t->xacro);
  g_free (t->end_link);
  g_clear_pointer (&t->pairs, g_ptr_array_unref);
  g_free (t);
}

static const char *
get_text (GHashTable *t, const char *key)
{
  Scalar *s = g_hash_table_lookup (t, key);

  return s ? s->value : NULL;
}

/* Tools in the file's order: by the line of their end_link. */
static gint
tool_order (gconstpointer a, gconstpointer b, gpointer user_data)
{
  char ka[256], kb[256];
  Scalar *sa, *sb;

  g_snprintf (ka, sizeof ka, "tools/%s/end_link", (const char *) a);
  g_snprintf (kb, sizeof kb, "tools/%s/end_link", (const char *) b);
  sa = g_hash_table_lookup (user_data, ka);
  sb = g_hash_table_lookup (user_data, kb);
  return (sa ? (gint) sa->line : 0) - (sb ? (gint) sb->line : 0);
}

GPtrArray *
nb_arm_tools_load (const char *dir, GError **error)
{
  g_autofree char *path = g_build_filename (dir, "tools.yaml", NULL);
  g_autoptr (GHashTable) y = read_yaml (path, error);
  g_autoptr (GPtrArray) tools = g_ptr_array_new_with_free_func ((GDestroyNotify) nb_arm_tool_free);
  g_autoptr (GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GList) keys = NULL;
  GHashTableIter it;
  gpointer key;

  if (y == NULL)
    return NULL;
  /* The tool names, in the file's order (by the line of their end_link). */
  g_hash_table_iter_init (&it, y);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      g_auto (GStrv) parts = g_strsplit (key, "/", 3);

      if (g_strv_length (parts) >= 3 && g_str_equal (parts[0], "tools"))
        g_hash_table_add (names, g_strdup (parts[1]));
    }
  keys = g_hash_table_get_keys (names);
  keys = g_list_sort_with_data (keys, tool_order, y);
  for (GList *l = keys; l; l = l->next)
    {
      const char *name = l->data;
      NbArmTool *t = g_new0 (NbArmTool, 1);
      char k[256];
      const char *v;

      g_ptr_array_add (tools, t);
      t->name = g_strdup (name);
      t->pairs = g_ptr_array_new_with_free_func (g_free);
#define TOOL(field) (g_snprintf (k, sizeof k, "tools/%s/%s", name, field), k)
      if ((v = get_text (y, TOOL ("end_link"))) == NULL || *v == '\0')
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: tool '%s' has no end_link", path, name);
          return NULL;
        }
      t->end_link = g_strdup (v);
      t->description = g_strdup ((v = get_text (y, TOOL ("description"))) ? v : "");
      t->xacro = g_strdup ((v = get_text (y, TOOL ("xacro"))) ? v : "");
      for (int i = 0; i < 3; i++)
        {
          char kx[256], kr[256];

          g_snprintf (kx, sizeof kx, "tools/%s/tcp/xyz/%d", name, i);
          g_snprintf (kr, sizeof kr, "tools/%s/tcp/rpy/%d", name, i);
          if (!get_number (y, path, kx, &t->xyz[i], error) ||
              !get_number (y, path, kr, &t->rpy[i], error))
            return NULL;
        }
      for (guint p = 0;; p++)
        {
          char k0[256], k1[256];
          const char *a, *b;

          g_snprintf (k0, sizeof k0, "tools/%s/disable_collisions/%u/0", name, p);
          g_snprintf (k1, sizeof k1, "tools/%s/disable_collisions/%u/1", name, p);
          a = get_text (y, k0);
          b = get_text (y, k1);
          if (a == NULL && b == NULL)
            break;
          if (a == NULL || b == NULL)
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "%s: tool '%s': disable_collisions[%u] is not a pair of links", path,
                           name, p);
              return NULL;
            }
          g_ptr_array_add (t->pairs, g_strdup (a));
          g_ptr_array_add (t->pairs, g_strdup (b));
        }
#undef TOOL
    }
  return g_steal_pointer (&tools);
}

static gboolean
write_atomically (const char *path, const char *text, GError **error)
{
  g_autoptr (GError) local = NULL;

  /* g_file_set_contents writes a temporary file and renames it. */
  if (!g_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}

static xmlDocPtr
read_robot_xml (const char *path, const char *kind, GError **error)
{
  /* Without blank text nodes, so that the rewrite is indented afresh. */
  xmlDocPtr doc = xmlReadFile (path, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING |
                               XML_PARSE_NOERROR | XML_PARSE_NOBLANKS);

  if (doc == NULL)
    {
      const xmlError *e = xmlGetLastError ();
      g_autofree char *why = g_strstrip (g_strdup (e && e->message ? e->message : "not XML"));

      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%d: %s", path, e ? e->line : 0, why);
      return NULL;
    }
  if (xmlDocGetRootElement (doc) == NULL ||
      !xmlStrEqual (xmlDocGetRootElement (doc)->name, BAD_CAST "robot"))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: not %s (no <robot>)", path, kind);
      xmlFreeDoc (doc);
      return NULL;
    }
  return doc;
}

static xmlDocPtr
read_srdf (const char *path, GError **error)
{
  return read_robot_xml (path, "an SRDF", error);
}

/* Three numbers of a URDF attribute ("0 0 0.16"); an absent attribute is zeros. */
static gboolean
origin_triple (xmlNodePtr origin, const char *attr, double v[3], const char *path, GError **error)
{
  xmlChar *text = origin ? xmlGetProp (origin, BAD_CAST attr) : NULL;
  g_auto (GStrv) parts = NULL;
  guint n = 0;

  v[0] = v[1] = v[2] = 0.0;
  if (text == NULL)
    return TRUE;
  parts = g_strsplit_set ((const char *) text, " \t\n", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (*parts[i] == '\0')
        continue;
      if (n == 3 || !nb_parse_double (parts[i], strlen (parts[i]), &v[n]) || !isfinite (v[n]))
        {
          n = 4;
          break;
        }
      n++;
    }
  if (n != 3)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%ld: tcp_joint origin %s=\"%s\": expected "
                   "three finite numbers", path, xmlGetLineNo (origin), attr, (const char *) text);
      xmlFree (text);
      return FALSE;
    }
  xmlFree (text);
  return TRUE;
}

gboolean
nb_arm_active_tool (const char *dir, char **tool_name, double xyz[3], double rpy[3],
                    GError **error)
{
  g_autofree char *path = g_build_filename (dir, "tool_active.xacro", NULL);
  xmlDocPtr doc = read_robot_xml (path, "a robot Xacro", error);
  xmlNodePtr joint = NULL, parent = NULL, origin = NULL;
  g_autofree char *name = NULL;
  gboolean ok = FALSE;

  if (doc == NULL)
    return FALSE;
  /* The name is only a label: robot setup writes it in the comment before <robot>. */
  for (xmlNodePtr n = doc->children; n && name == NULL; n = n->next)
    if (n->type == XML_COMMENT_NODE && n->content != NULL)
      {
        const char *c = strstr ((const char *) n->content, "tool \"");
        const char *end = c ? strchr (c + 6, '"') : NULL;

        if (end != NULL)
          name = g_strndup (c + 6, (gsize) (end - c - 6));
      }
  for (xmlNodePtr n = xmlDocGetRootElement (doc)->children; n; n = n->next)
    {
      xmlChar *attr;

      if (n->type != XML_ELEMENT_NODE || !xmlStrEqual (n->name, BAD_CAST "joint"))
        continue;
      attr = xmlGetProp (n, BAD_CAST "name");
      if (attr && xmlStrEqual (attr, BAD_CAST "tcp_joint"))
        joint = n;
      xmlFree (attr);
    }
  if (joint == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no <joint name=\"tcp_joint\"> (the TCP "
                   "of the active tool)", path);
      goto out;
    }
  for (xmlNodePtr c = joint->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && xmlStrEqual (c->name, BAD_CAST "parent"))
      parent = c;
    else if (c->type == XML_ELEMENT_NODE && xmlStrEqual (c->name, BAD_CAST "origin"))
      origin = c;
  {
    xmlChar *link = parent ? xmlGetProp (parent, BAD_CAST "link") : NULL;
    gboolean on_ee = link && xmlStrEqual (link, BAD_CAST "link_ee");

    xmlFree (link);
    /* tools.yaml gives every TCP from link_ee; another parent would need the tool's own chain. */
    if (!on_ee)
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%ld: tcp_joint: the parent link must be "
                     "link_ee", path, xmlGetLineNo (joint));
        goto out;
      }
  }
  if (!origin_triple (origin, "xyz", xyz, path, error) ||
      !origin_triple (origin, "rpy", rpy, path, error))
    goto out;
  if (tool_name != NULL)
    *tool_name = g_steal_pointer (&name);
  ok = TRUE;
out:
  xmlFreeDoc (doc);
  return ok;
}

gboolean
nb_arm_setup_tool (const char *dir, const NbArmTool *tool, GError **error)
{
  g_autofree char *srdf = g_build_filename (dir, "iiwa7.srdf", NULL);
  g_autofree char *xacro = g_build_filename (dir, "tool_active.xacro", NULL);
  g_autoptr (GString) x = g_string_new (NULL);
  xmlDocPtr doc = read_srdf (srdf, error);
  xmlNodePtr root, next;
  xmlChar *buf = NULL;
  int len = 0;
  gboolean chain = FALSE, ok;

  if (doc == NULL)
    return FALSE;
  root = xmlDocGetRootElement (doc);
  for (xmlNodePtr n = root->children; n; n = next)
    {
      next = n->next;
      if (n->type != XML_ELEMENT_NODE)
        continue;
      if (xmlStrEqual (n->name, BAD_CAST "group"))
        for (xmlNodePtr c = n->children; c; c = c->next)
          if (c->type == XML_ELEMENT_NODE && xmlStrEqual (c->name, BAD_CAST "chain"))
            {
              xmlSetProp (c, BAD_CAST "tip_link", BAD_CAST tool->end_link);
              chain = TRUE;
            }
      if (xmlStrEqual (n->name, BAD_CAST "disable_collisions"))
        {
          xmlChar *reason = xmlGetProp (n, BAD_CAST "reason");

          /* The previous tool's pairs go; the robot's own stay. */
          if (reason && xmlStrEqual (reason, BAD_CAST "Tool"))
            {
              xmlUnlinkNode (n);
              xmlFreeNode (n);
            }
          xmlFree (reason);
        }
    }
  if (!chain)
    {
      xmlFreeDoc (doc);
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no <chain> in a <group>", srdf);
      return FALSE;
    }
  /* The new tool's pairs, at the end. */
  for (guint i = 0; i + 1 < tool->pairs->len; i += 2)
    {
      xmlNodePtr d = xmlNewChild (root, NULL, BAD_CAST "disable_collisions", NULL);

      xmlSetProp (d, BAD_CAST "link1", BAD_CAST g_ptr_array_index (tool->pairs, i));
      xmlSetProp (d, BAD_CAST "link2", BAD_CAST g_ptr_array_index (tool->pairs, i + 1));
      xmlSetProp (d, BAD_CAST "reason", BAD_CAST "Tool");
    }
  xmlDocDumpFormatMemoryEnc (doc, &buf, &len, "UTF-8", 1);
  xmlFreeDoc (doc);
  ok = write_atomically (srdf, (const char *) buf, error);
  xmlFree (buf);
  if (!ok)
    return FALSE;

  g_string_append_printf (x, "<?xml version=\"1.0\"?>\n<!-- Written by navbench-cli robot setup: "
                             "tool \"%s\". -->\n<robot xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n",
                          tool->name);
  if (*tool->xacro)
    {
      g_autofree char *inc = g_markup_printf_escaped ("  <xacro:include filename=\"%s\"/>\n",
                                                      tool->xacro);

      g_string_append (x, inc);
    }
  {
    char v[6][G_ASCII_DTOSTR_BUF_SIZE];

    for (int i = 0; i < 3; i++)
      {
        g_ascii_dtostr (v[i], sizeof v[i], tool->xyz[i]);
        g_ascii_dtostr (v[3 + i], sizeof v[3 + i], tool->rpy[i]);
      }
    g_string_append_printf (x, "  <link name=\"tcp\"/>\n  <joint name=\"tcp_joint\" type=\"fixed\">\n"
                               "    <parent link=\"link_ee\"/>\n    <child link=\"tcp\"/>\n"
                               "    <origin xyz=\"%s %s %s\" rpy=\"%s %s %s\"/>\n  </joint>\n",
                            v[0], v[1], v[2], v[3], v[4], v[5]);
  }
  g_string_append (x, "</robot>\n");
  return write_atomically (xacro, x->str, error);
}

void
nb_named_position_free (NbNamedPosition *p)
{
  if (p == NULL)
    return;
  g_free (p->name);
  g_free (p->group);
  g_free (p->description);
  g_clear_pointer (&p->joints, g_ptr_array_unref);
  g_clear_pointer (&p->values, g_array_unref);
  g_free (p);
}

GPtrArray *
nb_arm_named_positions (const char *dir, GError **error)
{
  g_autofree char *srdf = g_build_filename (dir, "iiwa7.srdf", NULL);
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) nb_named_position_free);
  xmlDocPtr doc = read_srdf (srdf, error);

  if (doc == NULL)
    return NULL;
  for (xmlNodePtr n = xmlDocGetRootElement (doc)->children; n; n = n->next)
    {
      NbNamedPosition *p;
      xmlChar *a;

      if (n->type != XML_ELEMENT_NODE || !xmlStrEqual (n->name, BAD_CAST "group_state"))
        continue;
      p = g_new0 (NbNamedPosition, 1);
      g_ptr_array_add (out, p);
      p->joints = g_ptr_array_new_with_free_func (g_free);
      p->values = g_array_new (FALSE, FALSE, sizeof (double));
#define ATTR(node, name, dest)                                            \
      a = xmlGetProp (node, BAD_CAST name);                               \
      dest = g_strdup (a ? (const char *) a : "");                        \
      xmlFree (a)
      ATTR (n, "name", p->name);
      ATTR (n, "group", p->group);
      ATTR (n, "description", p->description);
      for (xmlNodePtr j = n->children; j; j = j->next)
        {
          g_autofree char *jn = NULL, *jv = NULL;
          double v;

          if (j->type != XML_ELEMENT_NODE || !xmlStrEqual (j->name, BAD_CAST "joint"))
            continue;
          ATTR (j, "name", jn);
          ATTR (j, "value", jv);
          if (!nb_parse_double (jv, strlen (jv), &v))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "%s:%ld: group_state '%s', joint '%s': '%s' is not a number", srdf,
                           xmlGetLineNo (j), p->name, jn, jv);
              xmlFreeDoc (doc);
              return NULL;
            }
          g_ptr_array_add (p->joints, g_steal_pointer (&jn));
          g_array_append_val (p->values, v);
        }
#undef ATTR
    }
  xmlFreeDoc (doc);
  return g_steal_pointer (&out);
}
