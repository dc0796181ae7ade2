#include "nb-yaml-depth.h"

#include "nb-error.h"

void
nb_yaml_set_depth_error (GError **error, const char *path, const yaml_event_t *event)
{
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: nested deeper than %d levels", path,
               event->start_mark.line + 1, NB_YAML_MAX_DEPTH);
}

gboolean
nb_yaml_check_depth (const char *path, const char *text, gsize len, GError **error)
{
  yaml_parser_t parser;
  gboolean ok = TRUE, done = FALSE;
  guint depth = 0;

  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const unsigned char *) text, len);
  while (ok && !done)
    {
      yaml_event_t ev;

      if (!yaml_parser_parse (&parser, &ev))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: not YAML: %s", path,
                       parser.problem_mark.line + 1, parser.problem ? parser.problem : "?");
          ok = FALSE;
          break;
        }
      switch (ev.type)
        {
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
          if (++depth > NB_YAML_MAX_DEPTH)
            {
              nb_yaml_set_depth_error (error, path, &ev);
              ok = FALSE;
            }
          break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
          depth--;
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
  return ok;
}
