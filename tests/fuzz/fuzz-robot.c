/* libFuzzer target: the motion documents — a sequence (JSON), the arm's
 * joint_limits.yaml / kinematics.yaml / tools.yaml (libyaml) and its SRDF
 * (libxml2) — each read from the same arbitrary bytes. */
#include "nb-arm-file.h"
#include "nb-sequence.h"

#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
put (const char *dir, const char *name, const uint8_t *data, size_t size)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  FILE *f = fopen (path, "wb");

  g_assert (f != NULL);
  g_assert (fwrite (data, 1, size, f) == size);
  g_assert (fclose (f) == 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static char *dir;
  GError *error = NULL;
  NbSequence *s;
  NbArmModel m;
  GPtrArray *a;

  if (dir == NULL)
    {
      dir = g_strdup_printf ("%s/nb-fuzz-robot-%d", g_get_tmp_dir (), (int) getpid ());
      g_mkdir_with_parents (dir, 0700);
    }
  s = nb_sequence_parse ("fuzz.json", (const char *) data, (gssize) size, &error);
  g_assert ((s == NULL) == (error != NULL));
  nb_sequence_free (s);
  g_clear_error (&error);

  put (dir, "joint_limits.yaml", data, size);
  put (dir, "kinematics.yaml", data, size);
  put (dir, "tools.yaml", data, size);
  put (dir, "iiwa7.srdf", data, size);
  put (dir, "tool_active.xacro", data, size);
  if (!nb_arm_model_load (dir, &m, &error))
    g_clear_error (&error);
  if ((a = nb_arm_tools_load (dir, &error)) != NULL)
    g_ptr_array_unref (a);
  else
    g_clear_error (&error);
  if ((a = nb_arm_named_positions (dir, &error)) != NULL)
    g_ptr_array_unref (a);
  else
    g_clear_error (&error);
  return 0;
}
