#include "nb-map-file.h"
#include "nb-error.h"
#include "nb-yaml-depth.h"
#include "nb-metrics.h"
#include "nb-number.h"

#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

/* The YAML is in metres, everything else in millimetres: this is the one place. */
#define MM_PER_M 1000.0
/* A cell over 10 m is not an indoor map: a YAML in mm or cm by mistake. */
#define MAX_RESOLUTION_M 10.0

/* ---------------------------------------------------------------- YAML -- */

typedef struct {
  const char *path;
  yaml_document_t doc;
} Yaml;

static yaml_node_t *
yaml_key (Yaml *y, const char *key)
{
  yaml_node_t *root = yaml_document_get_root_node (&y->doc);

  for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++)
    {
      yaml_node_t *k = yaml_document_get_node (&y->doc, p->key);

      if (k != NULL && k->type == YAML_SCALAR_NODE &&
          g_str_equal ((const char *) k->data.scalar.value, key))
        return yaml_document_get_node (&y->doc, p->value);
    }
  return NULL;
}

static gboolean
yaml_scalar_double (Yaml *y, yaml_node_t *node, const char *key, double *out, GError **error)
{
  const char *text;

  if (node->type != YAML_SCALAR_NODE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: %s: expected a number", y->path,
                   node->start_mark.line + 1, key);
      return FALSE;
    }
  text = (const char *) node->data.scalar.value;
  if (!nb_parse_double (text, strlen (text), out))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: %s: '%s' is not a finite number",
                   y->path, node->start_mark.line + 1, key, text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
yaml_double (Yaml *y, const char *key, gboolean required, double *out, GError **error)
{
  yaml_node_t *node = yaml_key (y, key);

  if (node == NULL)
    {
      if (!required)
        return TRUE;
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the key '%s' is missing", y->path, key);
      return FALSE;
    }
  return yaml_scalar_double (y, node, key, out, error);
}

/* ----------------------------------------------------------- the image -- */

/* Grey levels 0..255 and opacity, one byte each per pixel. */
typedef struct {
  guint width, height;
  guint8 *grey;
  guint8 *alpha;                /* NULL: all opaque */
} Image;

static void
image_clear (Image *im)
{
  g_free (im->grey);
  g_free (im->alpha);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Image, image_clear)

/* The next header token of a PGM, skipping whitespace and '#' comments. */
static gboolean
pgm_token (const guint8 *data, gsize len, gsize *pos, guint64 *value)
{
  gsize p = *pos;
  guint64 v = 0;
  int digits = 0;

  for (;;)
    {
      while (p < len && g_ascii_isspace (data[p]))
        p++;
      if (p < len && data[p] == '#')
        {
          while (p < len && data[p] != '\n')
            p++;
          continue;
        }
      break;
    }
  *pos = p;                     /* so that a caller can tell the end of the data */
  while (p < len && g_ascii_isdigit (data[p]) && digits < 10)
    {
      v = v * 10 + (guint64) (data[p] - '0');
      p++;
      digits++;
    }
  if (digits == 0 || (p < len && g_ascii_isdigit (data[p])))
    return FALSE;
  *pos = p;
  *value = v;
  return TRUE;
}

/* The largest image read: 8192 × 8192 pixels (a 400 m square at 5 cm),
 * 64 MiB of grey and 256 MiB while cairo decodes a PNG.  Checked against
 * the size the file declares, before anything is allocated: a 439 KB PNG
 * could otherwise make the decoder ask for 2 GB. */
#define MAX_PIXELS (G_GUINT64_CONSTANT (1) << 26)

static gboolean
read_pgm (const char *path, const guint8 *data, gsize len, Image *im, GError **error)
{
  gboolean binary = data[1] == '5';
  guint64 w, h, maxval;
  gsize pos = 2, n;
  int bytes;

  if (!pgm_token (data, len, &pos, &w) || !pgm_token (data, len, &pos, &h) ||
      !pgm_token (data, len, &pos, &maxval))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: bad PGM header (expected width, height and maxval)", path);
      return FALSE;
    }
  if (w == 0 || h == 0 || w * h > MAX_PIXELS || maxval == 0 || maxval > 65535)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: bad PGM header: %" G_GUINT64_FORMAT " × %" G_GUINT64_FORMAT
                   " pixels, maxval %" G_GUINT64_FORMAT, path, w, h, maxval);
      return FALSE;
    }
  im->width = (guint) w;
  im->height = (guint) h;
  n = (gsize) (w * h);
  im->grey = g_malloc (n);
  bytes = maxval > 255 ? 2 : 1;
  if (binary)
    {
      /* exactly one whitespace byte after maxval */
      if (pos >= len || !g_ascii_isspace (data[pos]))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: bad PGM header after maxval", path);
          return FALSE;
        }
      pos++;
      if (len - pos < n * bytes)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s: the image data ends after %" G_GSIZE_FORMAT " of %" G_GUINT64_FORMAT
                       " × %" G_GUINT64_FORMAT " pixels", path, (len - pos) / bytes, w, h);
          return FALSE;
        }
      for (gsize i = 0; i < n; i++)
        {
          guint v = bytes == 1 ? data[pos + i] : (guint) data[pos + 2 * i] << 8 | data[pos + 2 * i + 1];

          if (v > maxval)
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "%s: pixel %" G_GSIZE_FORMAT " is %u, above maxval %" G_GUINT64_FORMAT,
                           path, i, v, maxval);
              return FALSE;
            }
          im->grey[i] = maxval == 255 ? (guint8) v : (guint8) ((v * 255 + maxval / 2) / maxval);
        }
    }
  else
    for (gsize i = 0; i < n; i++)
      {
        guint64 v;

        if (!pgm_token (data, len, &pos, &v) || v > maxval)
          {
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                         "%s: pixel %" G_GSIZE_FORMAT " of %" G_GUINT64_FORMAT " × %"
                         G_GUINT64_FORMAT ": %s", path, i, w, h,
                         pos >= len ? "the image data ends" : "not a number up to maxval");
            return FALSE;
          }
        im->grey[i] = (guint8) ((v * 255 + maxval / 2) / maxval);
      }
  return TRUE;
}

static guint32
be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

typedef struct {
  const guint8 *data;
  gsize len, pos;
} Cursor;

static cairo_status_t
read_bytes (void *closure, unsigned char *out, unsigned int n)
{
  Cursor *c = closure;

  if (n > c->len - c->pos)
    return CAIRO_STATUS_READ_ERROR;
  memcpy (out, c->data + c->pos, n);
  c->pos += n;
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
read_png (const char *path, const guint8 *bytes, gsize len, Image *im, GError **error)
{
  cairo_surface_t *s;
  cairo_status_t status;
  cairo_format_t format;
  const guint8 *data;
  guint64 w, h;
  int stride;

  /* PNG: the signature, then IHDR first (length 13, width, height). */
  if (len < 8 + 8 + 13 || be32 (bytes + 8) != 13 || memcmp (bytes + 12, "IHDR", 4) != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: not a readable PNG (no IHDR chunk "
                   "after the signature)", path);
      return FALSE;
    }
  w = be32 (bytes + 16);
  h = be32 (bytes + 20);
  if (w == 0 || h == 0 || w * h > MAX_PIXELS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the PNG declares %" G_GUINT64_FORMAT
                   " × %" G_GUINT64_FORMAT " pixels; a map image has at most %" G_GUINT64_FORMAT,
                   path, w, h, MAX_PIXELS);
      return FALSE;
    }
  {
    /* From the bytes just checked, not the file again (it may have changed). */
    Cursor cur = { bytes, len, 0 };

    s = cairo_image_surface_create_from_png_stream (read_bytes, &cur);
  }
  status = cairo_surface_status (s);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: not a readable PNG (%s)", path,
                   cairo_status_to_string (status));
      cairo_surface_destroy (s);
      return FALSE;
    }
  cairo_surface_flush (s);
  format = cairo_image_surface_get_format (s);
  im->width = (guint) cairo_image_surface_get_width (s);
  im->height = (guint) cairo_image_surface_get_height (s);
  data = cairo_image_surface_get_data (s);
  stride = cairo_image_surface_get_stride (s);
  im->grey = g_malloc ((gsize) im->width * im->height);
  if (format == CAIRO_FORMAT_ARGB32)
    im->alpha = g_malloc ((gsize) im->width * im->height);
  for (guint r = 0; r < im->height; r++)
    {
      const guint8 *line = data + (gsize) r * stride;

      for (guint c = 0; c < im->width; c++)
        {
          gsize i = (gsize) r * im->width + c;

          if (format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24)
            {
              guint32 px;
              guint a, sum;

              memcpy (&px, line + 4 * c, 4);
              a = format == CAIRO_FORMAT_ARGB32 ? px >> 24 : 255;
              sum = ((px >> 16) & 0xff) + ((px >> 8) & 0xff) + (px & 0xff);
              /* cairo premultiplies: undo it for the colour's own grey */
              if (a == 255)
                im->grey[i] = (guint8) ((sum + 1) / 3);
              else
                im->grey[i] = a == 0 ? 0 : (guint8) MIN (255u, (sum * 255 / a + 1) / 3);
              if (im->alpha != NULL)
                im->alpha[i] = (guint8) a;
            }
          else if (format == CAIRO_FORMAT_A8)
            im->grey[i] = line[c];
          else
            im->grey[i] = (line[c / 8] >> (c % 8)) & 1 ? 255 : 0;
        }
    }
  cairo_surface_destroy (s);
  return TRUE;
}

static gboolean
read_image (const char *path, Image *im, GError **error)
{
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr (GError) local = NULL;

  if (!g_file_get_contents (path, &data, &len, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: cannot read the map image: %s", path,
                   local->message);
      return FALSE;
    }
  if (len >= 2 && data[0] == 'P' && (data[1] == '5' || data[1] == '2'))
    return read_pgm (path, (const guint8 *) data, len, im, error);
  if (len >= 8 && memcmp (data, "\x89PNG\r\n\x1a\n", 8) == 0)
    return read_png (path, (const guint8 *) data, len, im, error);
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
               "%s: not a PGM (P5, P2) or PNG image", path);
  return FALSE;
}

/* map_server's rules, per pixel. */
static guint8
occupancy (const NbMap *map, guint8 grey, guint8 alpha)
{
  guint v = map->negate ? 255u - grey : grey;
  double p;

  if (map->mode == NB_MAP_MODE_RAW)
    return (guint8) v;
  p = (255.0 - v) / 255.0;
  if (p > map->occupied_thresh)
    return 100;
  if (p < map->free_thresh)
    return 0;
  if (map->mode == NB_MAP_MODE_TRINARY || alpha < 255)
    return NB_MAP_UNKNOWN;
  return (guint8) lround (1.0 + 98.0 * (p - map->free_thresh) /
                                 (map->occupied_thresh - map->free_thresh));
}

NbMap *
nb_map_read (const char *yaml_path, GError **error)
{
  g_auto (Image) im = { 0 };
  g_autoptr (NbMap) map = NULL;
  g_autofree char *text = NULL, *dir = NULL, *image_path = NULL;
  g_autoptr (GError) local = NULL;
  yaml_parser_t parser;
  yaml_node_t *root, *node;
  Yaml y = { .path = yaml_path };
  double res = NAN, origin[3] = { 0 }, occ = 0.65, fre = 0.196, negate = 0;
  NbMapMode mode = NB_MAP_MODE_TRINARY;
  gsize len;
  gboolean ok = FALSE;

  if (!g_file_get_contents (yaml_path, &text, &len, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", yaml_path, local->message);
      return NULL;
    }
  /* The document loader has no bound on nesting: checked first, linearly. */
  if (!nb_yaml_check_depth (yaml_path, text, len, error))
    return NULL;
  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const unsigned char *) text, len);
  if (!yaml_parser_load (&parser, &y.doc))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: not YAML: %s", yaml_path,
                   parser.problem_mark.line + 1, parser.problem ? parser.problem : "?");
      yaml_parser_delete (&parser);
      return NULL;
    }
  yaml_parser_delete (&parser);

  root = yaml_document_get_root_node (&y.doc);
  if (root == NULL || root->type != YAML_MAPPING_NODE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: not a map description (a YAML mapping with image, resolution, origin)",
                   yaml_path);
      goto out;
    }
  node = yaml_key (&y, "image");
  if (node == NULL || node->type != YAML_SCALAR_NODE || node->data.scalar.length == 0)
    {
      if (node == NULL)
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the key 'image' is missing", yaml_path);
      else
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: image: expected a file name",
                     yaml_path, node->start_mark.line + 1);
      goto out;
    }
  dir = g_path_get_dirname (yaml_path);
  image_path = g_path_is_absolute ((const char *) node->data.scalar.value)
                 ? g_strdup ((const char *) node->data.scalar.value)
                 : g_build_filename (dir, (const char *) node->data.scalar.value, NULL);

  if (!yaml_double (&y, "resolution", TRUE, &res, error) ||
      !yaml_double (&y, "negate", FALSE, &negate, error) ||
      !yaml_double (&y, "occupied_thresh", FALSE, &occ, error) ||
      !yaml_double (&y, "free_thresh", FALSE, &fre, error))
    goto out;
  if (!(res > 0) || res > MAX_RESOLUTION_M)
    {
      node = yaml_key (&y, "resolution");
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s:%zu: resolution: %g m per cell is absurd (expected 0 < r ≤ %g)",
                   yaml_path, node->start_mark.line + 1, res, MAX_RESOLUTION_M);
      goto out;
    }
  if (!(fre >= 0 && fre < occ && occ <= 1))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: thresholds: need 0 ≤ free_thresh < occupied_thresh ≤ 1, got %g and %g",
                   yaml_path, fre, occ);
      goto out;
    }
  if (negate != 0 && negate != 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: negate: expected 0 or 1, got %g",
                   yaml_path, negate);
      goto out;
    }
  node = yaml_key (&y, "origin");
  if (node == NULL || node->type != YAML_SEQUENCE_NODE ||
      node->data.sequence.items.top - node->data.sequence.items.start != 3)
    {
      if (node == NULL)
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the key 'origin' is missing", yaml_path);
      else
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%zu: origin: expected [x, y, yaw]",
                     yaml_path, node->start_mark.line + 1);
      goto out;
    }
  for (int k = 0; k < 3; k++)
    if (!yaml_scalar_double (&y, yaml_document_get_node (&y.doc, node->data.sequence.items.start[k]),
                             "origin", &origin[k], error))
      goto out;
  node = yaml_key (&y, "mode");
  if (node != NULL)
    {
      const char *m = node->type == YAML_SCALAR_NODE ? (const char *) node->data.scalar.value : "";

      if (g_str_equal (m, "trinary"))
        mode = NB_MAP_MODE_TRINARY;
      else if (g_str_equal (m, "scale"))
        mode = NB_MAP_MODE_SCALE;
      else if (g_str_equal (m, "raw"))
        mode = NB_MAP_MODE_RAW;
      else
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s:%zu: mode: '%s' is not trinary, scale or raw", yaml_path,
                       node->start_mark.line + 1, m);
          goto out;
        }
    }

  if (!read_image (image_path, &im, error))
    goto out;
  map = nb_map_new (im.width, im.height, res * MM_PER_M, error);
  if (map == NULL)
    goto out;
  map->origin_x_mm = origin[0] * MM_PER_M;
  map->origin_y_mm = origin[1] * MM_PER_M;
  map->origin_yaw_rad = origin[2];
  map->mode = mode;
  map->negate = negate != 0;
  map->occupied_thresh = occ;
  map->free_thresh = fre;
  nb_map_set_levels (map);
  {
    guint8 lut[256];            /* opaque pixels: one rule evaluation per grey level */

    for (guint g = 0; g < 256; g++)
      lut[g] = occupancy (map, (guint8) g, 255);
    for (gsize i = 0; i < (gsize) im.width * im.height; i++)
      map->cells[i] = im.alpha == NULL || im.alpha[i] == 255
                        ? lut[im.grey[i]] : occupancy (map, im.grey[i], im.alpha[i]);
  }
  ok = TRUE;

out:
  yaml_document_delete (&y.doc);
  return ok ? g_steal_pointer (&map) : NULL;
}

/* -------------------------------------------------------------- writing -- */

/* The grey a cell is written as, so that reading it back gives its value. */
static guint8
grey_of (const NbMap *map, guint8 v, guint8 *alpha)
{
  double p;
  guint8 g;

  *alpha = 255;
  if (map->mode == NB_MAP_MODE_RAW)
    g = v;
  else if (v == NB_MAP_UNKNOWN)
    {
      /* map_saver's grey; in scale mode a PNG says "unknown" with transparency */
      g = 205;
      if (map->mode == NB_MAP_MODE_SCALE)
        *alpha = 0;
      /* p = 0.196 would sit on the free threshold: pick a grey strictly between */
      p = (map->occupied_thresh + map->free_thresh) / 2.0;
      g = (guint8) lround (255.0 * (1.0 - p));
    }
  else if (v >= 100)
    g = 0;
  else if (v == 0)
    g = 254;
  else
    {
      p = map->free_thresh + (v - 1) / 98.0 * (map->occupied_thresh - map->free_thresh);
      g = (guint8) lround (255.0 * (1.0 - p));
    }
  if (map->mode != NB_MAP_MODE_RAW && map->negate)
    g = (guint8) (255 - g);
  return g;
}

static gboolean
write_file (const char *path, const void *data, gsize len, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (!g_file_set_contents (path, data, (gssize) len, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", path, local->message);
      return FALSE;
    }
  return TRUE;
}

/* The shortest decimal that reads back as v: 0.05, not 0.050000000000000003. */
static const char *
shortest (char *buf, gsize size, double v)
{
  char b[NB_DOUBLE_BUF_SIZE];

  nb_format_double (b, v);
  g_strlcpy (buf, b, size);
  return buf;
}

gboolean
nb_map_write (const NbMap *map, const char *dir, const char *name, NbMapImageFormat format,
              GError **error)
{
  static const char *const modes[] = { "trinary", "scale", "raw" };
  g_autofree char *image_name = g_strconcat (name, format == NB_MAP_IMAGE_PNG ? ".png" : ".pgm", NULL);
  g_autofree char *image_path = g_build_filename (dir, image_name, NULL);
  g_autofree char *yaml_name = g_strconcat (name, ".yaml", NULL);
  g_autofree char *yaml_path = g_build_filename (dir, yaml_name, NULL);
  g_autofree char *yaml = NULL;
  char b[6][G_ASCII_DTOSTR_BUF_SIZE];
  gsize n = (gsize) map->width * map->height;

  if (format == NB_MAP_IMAGE_PGM)
    {
      g_autofree char *header = g_strdup_printf ("P5\n# navbench synthetic map\n%u %u\n255\n",
                                                 map->width, map->height);
      gsize hl = strlen (header);
      g_autofree guint8 *buf = g_malloc (hl + n);
      guint8 alpha;

      memcpy (buf, header, hl);
      for (gsize i = 0; i < n; i++)
        buf[hl + i] = grey_of (map, map->cells[i], &alpha);
      if (!write_file (image_path, buf, hl + n, error))
        return FALSE;
    }
  else
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) map->width,
                                                       (int) map->height);
      cairo_status_t status = cairo_surface_status (s);
      guint8 *data;
      int stride;

      if (status == CAIRO_STATUS_SUCCESS)
        {
          data = cairo_image_surface_get_data (s);
          stride = cairo_image_surface_get_stride (s);
          for (guint r = 0; r < map->height; r++)
            for (guint c = 0; c < map->width; c++)
              {
                guint8 a, g = grey_of (map, map->cells[(gsize) r * map->width + c], &a);
                /* premultiplied ARGB; a transparent pixel carries no colour */
                guint32 gp = a == 0 ? 0 : g;
                guint32 px = (guint32) a << 24 | gp << 16 | gp << 8 | gp;

                memcpy (data + (gsize) r * stride + 4 * c, &px, 4);
              }
          cairo_surface_mark_dirty (s);
          status = cairo_surface_write_to_png (s, image_path);
        }
      cairo_surface_destroy (s);
      if (status != CAIRO_STATUS_SUCCESS)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", image_path,
                       cairo_status_to_string (status));
          return FALSE;
        }
    }
  /* The thresholds too in the C locale's numbers (a Russian window's
   * LC_NUMERIC writes "0,65", which no reader takes). */
  yaml = g_strdup_printf ("image: %s\nresolution: %s\norigin: [%s, %s, %s]\nnegate: %d\n"
                          "occupied_thresh: %s\nfree_thresh: %s\nmode: %s\n",
                          image_name,
                          shortest (b[0], sizeof b[0], map->resolution_mm / MM_PER_M),
                          shortest (b[1], sizeof b[1], map->origin_x_mm / MM_PER_M),
                          shortest (b[2], sizeof b[2], map->origin_y_mm / MM_PER_M),
                          shortest (b[3], sizeof b[3], map->origin_yaw_rad),
                          map->negate ? 1 : 0,
                          g_ascii_formatd (b[4], sizeof b[4], "%g", map->occupied_thresh),
                          g_ascii_formatd (b[5], sizeof b[5], "%g", map->free_thresh),
                          modes[map->mode]);
  return write_file (yaml_path, yaml, strlen (yaml), error);
}

/* ------------------------------------------------------------- analysis -- */

void
nb_map_analysis_free (NbMapAnalysis *a)
{
  if (a == NULL)
    return;
  nb_map_free (a->map);
  nb_map_fit_free (a->fit);
  g_free (a);
}

NbMapAnalysis *
nb_map_analyse (const char *yaml_path, const double (*truth_mm)[2],
                const NbMapFitOptions *options, GError **error)
{
  g_autoptr (NbMapAnalysis) a = g_new0 (NbMapAnalysis, 1);

  a->dm_mm = NAN;
  if ((a->map = nb_map_read (yaml_path, error)) == NULL)
    return NULL;
  if ((a->fit = nb_map_fit (a->map, options, error)) == NULL)
    {
      g_prefix_error (error, "%s: ", yaml_path);
      return NULL;
    }
  if (truth_mm != NULL)
    {
      a->has_truth = TRUE;
      memcpy (a->truth_mm, truth_mm, sizeof a->truth_mm);
      nb_map_fit_match_truth (a->fit, truth_mm);
      if (options != NULL && isfinite (options->reference_mm[0]) &&
          isfinite (options->reference_mm[1]))
        a->reference = nb_map_fit_match_reference (a->fit, a->map, truth_mm,
                                                   options->reference_mm);
      /* ISO 18646-2 10.2 */
      a->dm_mm = nb_metrics_dm (truth_mm, (const double (*)[2]) a->fit->corner_mm);
    }
  return g_steal_pointer (&a);
}
