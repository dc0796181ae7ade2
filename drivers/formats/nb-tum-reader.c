/* _GNU_SOURCE: memrchr, madvise. */
#define _GNU_SOURCE 1

#include "nb-tum-reader.h"
#include "nb-memory.h"

#include "nb-csv-reader.h"
#include "nb-error.h"
#include "nb-number.h"
#include "nb-number-inline.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK_SIZE (1u << 20)
#define MAX_LINE (1u << 16)            /* a longer line is not a pose */

static NbTraj *
traj_for_size (gint64 file_size, gboolean keep_q)
{
  /* Room for the whole file at once (a TUM line is rarely under 32 bytes;
   * pages never written cost no memory): no regrowth. */
  guint cap = file_size > 0 && file_size / 32 < G_MAXUINT / 4 ? (guint) (file_size / 32) + 16
                                                               : 1024;
  NbTraj *traj = nb_traj_new (cap);

  if (!keep_q)
    nb_traj_drop_orientations (traj);
  nb_advise_huge_pages (traj->t, (gsize) cap * sizeof (double));
  nb_advise_huge_pages (traj->p, (gsize) cap * 3 * sizeof (double));
  if (keep_q)
    nb_advise_huge_pages (traj->q, (gsize) cap * 4 * sizeof (double));
  return traj;
}

/* ------------------------------------------------------ shared checks -- */

typedef struct {
  const char *name;
  NbTraj *traj;
  NbTrajReadInfo *info;
  guint64 prev_line;
  gboolean keep_q;   /* FALSE: NB_TRAJ_READ_POSITIONS, q checked, not stored */
} Builder;

static gboolean
builder_add (Builder *b, guint64 line, double t, const double p[3], double q[4], GError **error)
{
  NbTraj *traj = b->traj;
  double dev, norm;
  gboolean ok;

  if (traj->n > 0 && !(t > traj->t[traj->n - 1]))
    {
      double prev = traj->t[traj->n - 1];

      if (t == prev)
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "%s:%" G_GUINT64_FORMAT ": duplicate timestamp %.17g (also on line %"
                     G_GUINT64_FORMAT ")", b->name, line, t, b->prev_line);
      else
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "%s:%" G_GUINT64_FORMAT ": timestamp %.17g is before %.17g on line %"
                     G_GUINT64_FORMAT ": the stamps must be sorted", b->name, line, t, prev,
                     b->prev_line);
      return FALSE;
    }
  /* Kept or not, every quaternion is checked as the file is read; one not
   * kept needs no division, and no square root when surely of unit norm. */
  if (b->keep_q)
    ok = nb_quat_normalise_checked (q, &dev);
  else if (nb_quat_surely_unit (q))
    ok = TRUE, dev = 0.0;
  else
    ok = nb_quat_check (q, &norm, &dev);
  if (!ok)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": the quaternion has norm %.9g; a rotation needs "
                   "1 (it is normalised within %g, refused beyond)", b->name, line,
                   sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]),
                   NB_QUAT_NORM_REFUSE);
      return FALSE;
    }
  if (dev > NB_QUAT_NORM_WARN)
    {
      if (b->info->n_normalised++ == 0)
        b->info->first_normalised_line = line;
      b->info->worst_norm_dev = MAX (b->info->worst_norm_dev, dev);
    }
  nb_traj_append (traj, t, p, q);
  b->prev_line = line;
  return TRUE;
}

/* ---------------------------------------------------------------- TUM -- */

static inline gboolean
is_separator (char c)
{
  return c == ' ' || c == '\t' || c == ',' || c == '\r';
}

/* One line (without its '\n'). */
static gboolean
tum_line (Builder *b, guint64 line, const char *s, gsize len, GError **error)
{
  const char *p = s, *end = s + len;
  double v[8], pos[3], q[4];
  guint n = 0;

  while (p < end && is_separator (*p))
    p++;
  if (p == end || *p == '#')
    return TRUE;
  while (p < end)
    {
      const char *start = p;

      while (p < end && !is_separator (*p))
        p++;
      if (n == 8)
        {
          n++;
          break;
        }
      if (!nb_parse_double (start, (gsize) (p - start), &v[n]))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s:%" G_GUINT64_FORMAT ": field %u '%.*s' is not a finite number",
                       b->name, line, n + 1, (int) MIN (p - start, 40), start);
          return FALSE;
        }
      n++;
      while (p < end && is_separator (*p))
        p++;
    }
  if (n != 8)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": %s fields; a TUM line is 't x y z qx qy qz qw'",
                   b->name, line, n > 8 ? "more than 8" : n == 1 ? "1 of 8" : "too few");
      return FALSE;
    }
  pos[0] = v[1], pos[1] = v[2], pos[2] = v[3];
  q[0] = v[7], q[1] = v[4], q[2] = v[5], q[3] = v[6];   /* TUM stores w last */
  return builder_add (b, line, v[0], pos, q, error);
}

/* The usual line, "t x y z qx qy qz qw\n" with single separators, read
 * where it lies: each number parsed in place up to the byte that ends it
 * (nb_parse_double_prefix), no search for the line's end first and no
 * second look at its bytes.  Returns the byte after the line's '\n' (or
 * end), or NULL for anything else — a comment, a blank line, a ninth field,
 * a bad number — which tum_line then reads, and explains, the slow way. */
static inline const char *
tum_line_fast (Builder *b, guint64 line, const char *p, const char *end, gboolean *ok,
               GError **error)
{
  double v[8], pos[3], q[4];

  while (p < end && is_separator (*p))
    p++;
  for (int n = 0; n < 8; n++)
    {
      /* One separator between numbers: a second one is no number's start,
       * so the parse refuses it and tum_line reads the line. */
      if (n > 0 && (p >= end || !is_separator (*p++)))
        return NULL;
      if ((p = nb_parse_double_field_inline (p, end, &v[n])) == NULL)
        return NULL;
    }
  if (G_LIKELY (p < end && *p == '\n'))
    p++;
  else
    {
      while (p < end && is_separator (*p))
        p++;
      if (p < end && *p++ != '\n')
        return NULL;
    }
  pos[0] = v[1], pos[1] = v[2], pos[2] = v[3];
  q[0] = v[7], q[1] = v[4], q[2] = v[5], q[3] = v[6];   /* TUM stores w last */
  *ok = builder_add (b, line, v[0], pos, q, error);
  return p;
}

/* Feeds buf[0..len) line by line; returns the bytes consumed (complete
 * lines, or everything at the end of the input). */
static gboolean
tum_feed (Builder *b, guint64 *line, const char *buf, gsize len, gboolean last, gsize *used,
          GError **error)
{
  const char *p = buf, *end = buf + len, *nl;

  /* Only whole lines: a number cut by the end of a read block must not
   * parse as a shorter one. */
  if (!last)
    {
      const char *tail = memrchr (buf, '\n', len);

      end = tail != NULL ? tail + 1 : buf;
    }
  while (p < end)
    {
      gboolean ok = TRUE;
      const char *next = tum_line_fast (b, *line, p, end, &ok, error);

      if (next == NULL)
        {
          nl = memchr (p, '\n', (gsize) (end - p));
          if (!tum_line (b, *line, p, (gsize) ((nl != NULL ? nl : end) - p), error))
            return FALSE;
          next = nl != NULL ? nl + 1 : end;
        }
      else if (!ok)
        return FALSE;
      (*line)++;
      p = next;
    }
  if (!last && len - (gsize) (end - buf) > MAX_LINE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": line longer than %u bytes: not a TUM file",
                   b->name, *line, MAX_LINE);
      return FALSE;
    }
  *used = (gsize) (end - buf);
  return TRUE;
}

static gboolean
read_tum_fd (Builder *b, int fd, GError **error)
{
  g_autofree char *buf = g_malloc (BLOCK_SIZE + MAX_LINE + 1);
  gsize have = 0;
  guint64 line = 1;

  for (;;)
    {
      gssize got;
      gsize used;

      do
        got = read (fd, buf + have, BLOCK_SIZE);
      while (got < 0 && errno == EINTR);
      if (got < 0)
        {
          int saved = errno;

          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", b->name, g_strerror (saved));
          return FALSE;
        }
      have += (gsize) got;
      if (!tum_feed (b, &line, buf, have, got == 0, &used, error))
        return FALSE;
      memmove (buf, buf + used, have - used);
      have -= used;
      if (got == 0)
        return TRUE;
    }
}

/* ---------------------------------------------------------------- CSV -- */

static gboolean
read_csv (Builder *b, NbCsvReader *reader, GError **error)
{
  NbCsvColumn cols[] = {
    { "t_s", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE }, { "z_mm", FALSE },
    { "qx", FALSE }, { "qy", FALSE }, { "qz", FALSE }, { "qw", FALSE }, { "theta_deg", FALSE },
  };
  gboolean has_quat, has_theta;
  int rc;

  if (!nb_csv_reader_read_header (reader, cols, G_N_ELEMENTS (cols), error))
    return FALSE;
  has_quat = cols[4].index >= 0 || cols[5].index >= 0 || cols[6].index >= 0 ||
             cols[7].index >= 0;
  has_theta = cols[8].index >= 0;
  if (has_quat && (cols[4].index < 0 || cols[5].index < 0 || cols[6].index < 0 ||
                   cols[7].index < 0))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: an orientation needs all four columns qx, qy, qz, qw", b->name);
      return FALSE;
    }
  if (has_quat && has_theta)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: both qx, qy, qz, qw and theta_deg: give one orientation", b->name);
      return FALSE;
    }
  b->traj->has_orientation = has_quat || has_theta;

  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      double t, p[3] = { 0, 0, 0 }, q[4] = { 1, 0, 0, 0 }, theta, txyz[4], xyzw[4];

      /* t, x, y and z in one call when z is there (the usual track). */
      if (!nb_csv_reader_get_doubles (reader, cols, cols[3].index >= 0 ? 4 : 3, txyz, error))
        return FALSE;
      t = txyz[0], p[0] = txyz[1], p[1] = txyz[2];
      if (cols[3].index >= 0)
        p[2] = txyz[3];
      if (has_quat)
        {
          if (!nb_csv_reader_get_doubles (reader, &cols[4], 4, xyzw, error))
            return FALSE;
          q[0] = xyzw[3], q[1] = xyzw[0], q[2] = xyzw[1], q[3] = xyzw[2];   /* w first */
        }
      if (has_theta)
        {
          if (!nb_csv_reader_get_double (reader, &cols[8], &theta, error))
            return FALSE;
          theta *= G_PI / 180.0;
          q[0] = cos (theta / 2), q[3] = sin (theta / 2);
        }
      /* The one mm → m boundary. */
      for (int a = 0; a < 3; a++)
        p[a] /= 1000.0;
      if (!builder_add (b, nb_csv_reader_line (reader), t, p, q, error))
        return FALSE;
    }
  return rc == 0;
}

/* ------------------------------------------------------------ dispatch -- */

static NbTrajFormat
sniff (const char *data, gsize len)
{
  gsize i = 0;

  if (len >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    i = 3;   /* a UTF-8 byte order mark, as spreadsheets write CSV */
  while (i < len)
    {
      while (i < len && (is_separator (data[i]) || data[i] == '\n'))
        i++;
      if (i == len)
        break;
      if (data[i] != '#')
        return g_ascii_isalpha (data[i]) || data[i] == '"' ? NB_TRAJ_FORMAT_CSV
                                                           : NB_TRAJ_FORMAT_TUM;
      while (i < len && data[i] != '\n')
        i++;
    }
  return NB_TRAJ_FORMAT_TUM;
}

static NbTraj *
finish (Builder *b, gboolean ok, GError **error)
{
  if (ok && b->traj->n == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no poses in the file", b->name);
      ok = FALSE;
    }
  if (!ok)
    {
      g_clear_pointer (&b->traj, nb_traj_free);
      return NULL;
    }
  return b->traj;
}

NbTraj *
nb_traj_read_path (const char *path, NbTrajFormat format, NbTrajReadInfo *info, GError **error)
{
  return nb_traj_read_path_with (path, format, NB_TRAJ_READ_ALL, info, error);
}

NbTraj *
nb_traj_read_path_with (const char *path, NbTrajFormat format, NbTrajReadFlags flags,
                        NbTrajReadInfo *info, GError **error)
{
  gboolean is_stdin = g_strcmp0 (path, "-") == 0;
  Builder b = { is_stdin ? "<stdin>" : path, NULL, info, 0,
                !(flags & NB_TRAJ_READ_POSITIONS) };
  gboolean ok;
  int fd;

  *info = (NbTrajReadInfo) { 0 };
  if (format == NB_TRAJ_FORMAT_AUTO && is_stdin)
    format = NB_TRAJ_FORMAT_TUM;
  if (format != NB_TRAJ_FORMAT_CSV)
    {
      if (is_stdin)
        fd = STDIN_FILENO;
      else
        {
          do
            fd = open (path, O_RDONLY | O_CLOEXEC);
          while (fd < 0 && errno == EINTR);
          if (fd < 0)
            {
              int saved = errno;

              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, g_strerror (saved));
              return NULL;
            }
        }
      if (format == NB_TRAJ_FORMAT_AUTO)
        {
          char head[4096];
          gssize got;

          do
            got = pread (fd, head, sizeof head, 0);
          while (got < 0 && errno == EINTR);
          format = got > 0 ? sniff (head, (gsize) got) : NB_TRAJ_FORMAT_TUM;
        }
      if (format == NB_TRAJ_FORMAT_TUM)
        {
          struct stat st;

          gboolean regular = fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && st.st_size > 0;
          void *map = regular && (guint64) st.st_size <= G_MAXSIZE
                        ? mmap (NULL, (gsize) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
                        : MAP_FAILED;

          info->format = NB_TRAJ_FORMAT_TUM;
          b.traj = traj_for_size (regular ? st.st_size : 0, b.keep_q);
          if (map != MAP_FAILED)
            {
              /* A file read once, front to back: the kernel's read-ahead
               * as far as it goes, and no copy into a buffer of ours.  The
               * pages behind the parser leave this process (MADV_DONTNEED:
               * they stay in the page cache), window by window, so its
               * memory is the poses, not the file. */
              const gsize window = 8u << 20, size = (gsize) st.st_size;
              long page = sysconf (_SC_PAGESIZE);
              guint64 line = 1;
              gsize done = 0, dropped = 0;

              madvise (map, size, MADV_SEQUENTIAL);
              ok = TRUE;
              while (ok && done < size)
                {
                  gsize len = MIN (window, size - done), used = 0;
                  gboolean last = done + len == size;

                  /* (a window without a line's end fails here: MAX_LINE) */
                  ok = tum_feed (&b, &line, (const char *) map + done, len, last, &used, error);
                  /* A failed window sets no used: nothing more is read or
                   * let go (a garbage length here had MADV_DONTNEED drop the
                   * process's own pages, libc's included: fuzz-tum). */
                  if (!ok)
                    break;
                  done += used;
                  if (page > 0 && done - dropped >= window)
                    {
                      gsize upto = done / (gsize) page * (gsize) page;

                      madvise ((char *) map + dropped, upto - dropped, MADV_DONTNEED);
                      dropped = upto;
                    }
                }
              munmap (map, size);
            }
          else
            ok = read_tum_fd (&b, fd, error);
          if (!is_stdin)
            close (fd);
          return finish (&b, ok, error);
        }
      if (!is_stdin)
        close (fd);
    }
  {
    g_autoptr (NbCsvReader) reader = nb_csv_reader_new_for_path (path, error);

    if (reader == NULL)
      return NULL;
    info->format = NB_TRAJ_FORMAT_CSV;
    b.traj = nb_traj_new (1024);
    if (!b.keep_q)
      nb_traj_drop_orientations (b.traj);
    ok = read_csv (&b, reader, error);
    return finish (&b, ok, error);
  }
}

NbTraj *
nb_traj_read_data (const char *name, const char *data, gsize len, NbTrajFormat format,
                   NbTrajReadInfo *info, GError **error)
{
  Builder b = { name, nb_traj_new (1024), info, 0, TRUE };
  gboolean ok;

  *info = (NbTrajReadInfo) { 0 };
  if (format == NB_TRAJ_FORMAT_AUTO)
    format = sniff (data, len);
  info->format = format;
  if (format == NB_TRAJ_FORMAT_TUM)
    {
      guint64 line = 1;
      gsize used;

      ok = tum_feed (&b, &line, data, len, TRUE, &used, error);
    }
  else
    {
      g_autoptr (NbCsvReader) reader = nb_csv_reader_new_for_data (name, data, len);

      ok = read_csv (&b, reader, error);
    }
  return finish (&b, ok, error);
}
