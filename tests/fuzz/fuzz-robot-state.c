/* libFuzzer: what the motion HTTP client reads from a robot's server — the
 * state of GET /robot/state and the {"error", "detail"} of an error answer. */
#include "nb-http-robot.h"

#include <json-glib/json-glib.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  GError *error = NULL;
  NbRobotState st;

  if (!json_parser_load_from_data (parser, (const char *) data, (gssize) size, NULL) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return 0;
  if (!nb_robot_state_from_json (json_node_get_object (json_parser_get_root (parser)), &st,
                                 &error))
    {
      g_assert (error != NULL);
      g_clear_error (&error);
    }
  g_free (nb_http_error_text (json_node_get_object (json_parser_get_root (parser))));
  return 0;
}
