/* The .mo reader behind the protocol's language (core/base/nb-catalogue.c):
 * the build tree's ru catalogue (msgfmt's output from po/ru.po) against
 * msgstrs of po/ru.po, Russian's three plural forms, a context, English as
 * the msgids, both byte orders of a catalogue built here, and every kind of
 * damaged file refused with an error naming it. */
#include "nb-catalogue.h"
#include "nb-record-words.h"
#include "nb-test.h"

#include <string.h>

static char *locale_dir;
static char *tmpdir;

static void
test_ru (void)
{
  g_autoptr (GError) error = NULL;
  const NbCatalogue *ru = nb_catalogue_for_language (locale_dir, "ru", &error);
  const char *msgid = "%s: %u trial where the standard asks for %u (%s).";
  const char *plural = "%s: %u trials where the standard asks for %u (%s).";
  /* po/ru.po's msgstr[0], [1], [2]. */
  const char *one = "%s: %u попытка вместо %u, требуемых стандартом (%s).";
  const char *few = "%s: %u попытки вместо %u, требуемых стандартом (%s).";
  const char *many = "%s: %u попыток вместо %u, требуемых стандартом (%s).";
  const struct { gulong n; const char *form; } cases[] = {
    { 0, many }, { 1, one }, { 2, few }, { 4, few }, { 5, many }, { 11, many }, { 12, many },
    { 14, many }, { 21, one }, { 22, few }, { 25, many }, { 101, one }, { 111, many },
    { 112, many }, { 1002, few },
  };

  g_assert_no_error (error);
  g_assert_nonnull (ru);
  g_assert_cmpstr (nb_catalogue_language (ru), ==, "ru");
  g_assert_cmpuint (nb_catalogue_size (ru), >, 300);
  g_assert_cmpstr (nb_tr (ru, "Obstacle detection"), ==, "Обнаружение препятствий");
  g_assert_cmpstr (nb_tr (ru, "Obstacle avoidance"), ==, "Обход препятствий");
  g_assert_cmpstr (nb_ptr (ru, "ui-language", "en"), ==, "ru");
  /* Not in the catalogue: the msgid; the header entry is not a word. */
  g_assert_cmpstr (nb_tr (ru, "no such msgid in navbench"), ==, "no such msgid in navbench");
  g_assert_cmpstr (nb_tr (ru, ""), ==, "");
  g_assert_cmpstr (nb_ntr (ru, "no such %u", "no such %us", 1), ==, "no such %u");
  g_assert_cmpstr (nb_ntr (ru, "no such %u", "no such %us", 3), ==, "no such %us");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpstr (nb_ntr (ru, msgid, plural, cases[i].n), ==, cases[i].form);
  /* nb_tr of a plural msgid: its first form, as gettext gives. */
  g_assert_cmpstr (nb_tr (ru, msgid), ==, one);
  /* Read once: the same catalogue on the next call. */
  g_assert_true (nb_catalogue_for_language (locale_dir, "ru", NULL) == ru);
}

/* The records' English (nb-record-words.h) read in Russian: the reasons the
 * runner writes, with their numbers (a decimal comma), the words inside
 * them (the obstacle, a map defect's kind), one inside another, several
 * joined; an event's kind; a text no format matches stays as it is, and
 * English is the text itself. */
static void
test_records (void)
{
  const NbCatalogue *ru = nb_catalogue_for_language (locale_dir, "ru", NULL);
  const NbCatalogue *en = nb_catalogue_for_language (locale_dir, "en", NULL);
  static const struct { const char *stored, *ru; } reasons[] = {
    { "cancelled by the operator", "отменено оператором" },
    { "cancelled by the operator while settling", "отменено оператором при успокоении" },
    { "touched the obstacle: clearance -3.5 mm", "касание препятствия: зазор -3,5 мм" },
    { "shadow on wall 1 (3500 mm)", "тень у стены 1 (3500 мм)" },
    { "shadow on wall 2 (812 mm); open_contour on wall 4 (150 mm)",
      "тень у стены 2 (812 мм); незамкнутый контур у стены 4 (150 мм)" },
    { "while settling at P1: instrument lost: no usable sample for 2.0 s",
      "при успокоении в P1: связь с прибором потеряна: нет пригодных отсчётов 2,0 с" },
    { "at PG: did not settle within 10 s of the arrival: the stillest 1 s window spread 4.2 mm "
      "(tolerance 2 mm)",
      "в PG: не успокоился за 10 с после прибытия: разброс в самом спокойном окне 1 с — 4,2 мм "
      "(допуск 2 мм)" },
    { "PG not reached: stopped 312.4 mm and 3.10° from where clause 5 ends, beyond its "
      "repeatability (12.0 mm, 0.50°)",
      "PG не достигнута: остановка в 312,4 мм и 3,10° от конечной позиции раздела 5, за "
      "пределами его повторяемости (12,0 мм, 0,50°)" },
    /* Nobody's format: the operator's own words, a robot's error. */
    { "the robot's battery ran flat", "the robot's battery ran flat" },
    { "shadow on wall x (3500 mm)", "shadow on wall x (3500 mm)" },
  };

  g_assert_nonnull (ru);
  for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
    {
      g_autofree char *text = nb_record_reason_text (ru, reasons[i].stored);
      g_autofree char *same = nb_record_reason_text (en, reasons[i].stored);

      g_assert_cmpstr (text, ==, reasons[i].ru);
      g_assert_cmpstr (same, ==, reasons[i].stored);
    }
  g_assert_null (nb_record_reason_text (ru, NULL));
  {
    g_autofree char *edited = nb_record_event_text (ru, "trial value edited: attained_x_mm");
    g_autofree char *map = nb_record_event_text (ru, "map corners found");
    g_autofree char *imported = nb_record_event_text (ru, "30 trials imported");
    g_autofree char *other = nb_record_event_text (ru, "something else");

    g_assert_cmpstr (edited, ==, "значение попытки исправлено: attained_x_mm");
    g_assert_cmpstr (map, ==, "углы карты найдены");
    g_assert_cmpstr (imported, ==, "импортировано попыток: 30");
    g_assert_cmpstr (other, ==, "something else");
  }
}

/* What the libraries show that is not a record: a link's errors and the
 * motion sequence's log (nb-record-words.h's messages), in Russian; a
 * point's name, a planner and a robot's words as they are. */
static void
test_messages (void)
{
  const NbCatalogue *ru = nb_catalogue_for_language (locale_dir, "ru", NULL);
  const NbCatalogue *en = nb_catalogue_for_language (locale_dir, "en", NULL);
  static const struct { const char *text, *ru; } messages[] = {
    { "tcp://127.0.0.1:4001: connection closed by the peer",
      "tcp://127.0.0.1:4001: соединение закрыто другой стороной" },
    { "udp://239.0.0.1:5000: no data for 2.5 s", "udp://239.0.0.1:5000: нет данных 2,5 с" },
    { "iteration 1/10 point 2/6 above the bin: MoveToJoints",
      "повтор 1/10, точка 2/6 above the bin: MoveToJoints" },
    { "iteration 1/10 point 3/6 pick: MoveToPose (pilz_lin, frame base_link)",
      "повтор 1/10, точка 3/6 pick: MoveToPose (pilz_lin, система координат base_link)" },
    { "stopped before iteration 1/10 point 4/6; motion stop requested",
      "остановлено перед повтором 1/10, точкой 4/6; запрошен останов движения" },
    { "stopped before iteration 1 point 4", "остановлено перед повтором 1, точкой 4" },
    { "iteration 2 point 3 (pick): http://127.0.0.1:8080: connection closed by the peer",
      "повтор 2, точка 3 (pick): http://127.0.0.1:8080: соединение закрыто другой стороной" },
    { "failed: no IK solution; motion stop requested",
      "сбой: no IK solution; запрошен останов движения" },
    { "done: 1 iteration of 6 points", "готово: 1 повтор, точек: 6" },
    { "done: 3 iterations of 6 points", "готово: повторов — 3, точек в каждом — 6" },
    { "pause 0.5 s", "пауза 0,5 с" },
    /* A driver's refusal of a setting; the driver, the key and its keys as they are. */
    { "driver natnet has no setting 'colour' (version body)",
      "у драйвера natnet нет настройки «colour» (есть: version body)" },
    { "driver sim has no setting 'x'", "у драйвера sim нет настройки «x»" },
    { "latency 'soon' is not a number", "latency «soon» — не число" },
    { "loss-timeout '-1' is not a number ≥ 0.1", "loss-timeout «-1» — не число ≥ 0,1" },
    { "rate 'fast' is not a number in 0.1–1000", "rate «fast» — не число от 0,1 до 1000" },
    /* Why the ISO 9283 runner leaves a configuration. */
    { "left: it needs a force at the TCP: the motion API drives no loading device, and a live "
      "instrument measures the real arm",
      "оставлена: нужна сила, приложенная к TCP: API движения не управляет нагружающим "
      "устройством, а прибор измеряет реальный манипулятор" },
    { "it needs the tracker's stream during the motion, which this rig does not give (only the "
      "rest poses are measured)",
      "нужен поток данных трекера во время движения, которого этот стенд не даёт (измеряются "
      "только позы покоя)" },
    { "it needs the path's joint points timed for the path velocity, which this robot does not "
      "take",
      "нужны точки траектории в обобщённых координатах с отметками времени для скорости по "
      "траектории, а этот робот их не принимает" },
    { "Connection refused", "Connection refused" },
  };

  g_assert_nonnull (ru);
  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    {
      g_autofree char *text = nb_record_message_text (ru, messages[i].text);
      g_autofree char *same = nb_record_message_text (en, messages[i].text);

      g_assert_cmpstr (text, ==, messages[i].ru);
      g_assert_cmpstr (same, ==, messages[i].text);
    }
  g_assert_null (nb_record_message_text (ru, NULL));
  /* A link's error inside a trial's reason. */
  {
    g_autofree char *reason = nb_record_reason_text (ru, "instrument lost: tcp://10.0.0.2:4001: "
                                                         "connection closed by the peer");

    g_assert_cmpstr (reason, ==, "связь с прибором потеряна: tcp://10.0.0.2:4001: соединение "
                                 "закрыто другой стороной");
  }
}

static void
test_english (void)
{
  g_autoptr (GError) error = NULL;
  const NbCatalogue *en = nb_catalogue_for_language (locale_dir, "en", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (nb_catalogue_language (en), ==, "en");
  g_assert_cmpuint (nb_catalogue_size (en), ==, 0);
  g_assert_cmpstr (nb_tr (en, "Obstacle detection"), ==, "Obstacle detection");
  g_assert_cmpstr (nb_ntr (en, "%u trial", "%u trials", 1), ==, "%u trial");
  g_assert_cmpstr (nb_ntr (en, "%u trial", "%u trials", 0), ==, "%u trials");
  g_assert_cmpstr (nb_ntr (NULL, "%u trial", "%u trials", 2), ==, "%u trials");
  g_assert_cmpstr (nb_tr (NULL, "Table"), ==, "Table");
  g_assert_cmpstr (nb_ptr (NULL, "page", "Page"), ==, "Page");
  /* English needs no file: any directory gives the msgids. */
  g_assert_nonnull (nb_catalogue_for_language ("/nonexistent", "en", NULL));
}

/* --------------------------------------------- catalogues built here -- */

typedef struct {
  const char *original;         /* may hold NULs: length given */
  gsize original_len;
  const char *translation;
  gsize translation_len;
} MoEntry;

static void
put32 (GByteArray *out, guint32 v, gboolean big)
{
  guint32 w = big ? GUINT32_TO_BE (v) : GUINT32_TO_LE (v);

  g_byte_array_append (out, (const guint8 *) &w, 4);
}

/* A .mo as the gettext manual lays it out; entries sorted by the caller. */
static GByteArray *
build_mo (const MoEntry *e, guint n, gboolean big)
{
  GByteArray *out = g_byte_array_new ();
  guint32 originals = 28, translations = originals + 8 * n, strings = translations + 8 * n;
  guint32 at = strings;

  put32 (out, 0x950412de, big);
  put32 (out, 0, big);
  put32 (out, n, big);
  put32 (out, originals, big);
  put32 (out, translations, big);
  put32 (out, 0, big);
  put32 (out, 0, big);
  for (guint i = 0; i < n; i++)
    {
      put32 (out, (guint32) e[i].original_len, big);
      put32 (out, at, big);
      at += (guint32) e[i].original_len + 1;
    }
  for (guint i = 0; i < n; i++)
    {
      put32 (out, (guint32) e[i].translation_len, big);
      put32 (out, at, big);
      at += (guint32) e[i].translation_len + 1;
    }
  for (guint i = 0; i < n; i++)
    g_byte_array_append (out, (const guint8 *) e[i].original, (guint) e[i].original_len + 1);
  for (guint i = 0; i < n; i++)
    g_byte_array_append (out, (const guint8 *) e[i].translation,
                         (guint) e[i].translation_len + 1);
  return out;
}

#define ENTRY(o, t) { o, sizeof (o) - 1, t, sizeof (t) - 1 }

static const char header_ru[] = "Content-Type: text/plain; charset=UTF-8\n"
                                "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
                                "n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n";

static char *
write_file (const char *name, const guint8 *data, gsize len)
{
  char *path = g_build_filename (tmpdir, name, NULL);

  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) len, NULL));
  return path;
}

static void
test_byte_orders (void)
{
  const MoEntry entries[] = {
    ENTRY ("", header_ru),
    ENTRY ("%u map\0%u maps", "%u карта\0%u карты\0%u карт"),
    ENTRY ("Map", "Карта"),
  };

  for (int big = 0; big <= 1; big++)
    {
      g_autoptr (GByteArray) mo = build_mo (entries, G_N_ELEMENTS (entries), big);
      g_autofree char *path = write_file (big ? "be.mo" : "le.mo", mo->data, mo->len);
      g_autoptr (GError) error = NULL;
      g_autoptr (NbCatalogue) c = nb_catalogue_load (path, "ru", &error);

      g_assert_no_error (error);
      g_assert_cmpuint (nb_catalogue_size (c), ==, 2);
      g_assert_cmpstr (nb_tr (c, "Map"), ==, "Карта");
      g_assert_cmpstr (nb_ntr (c, "%u map", "%u maps", 21), ==, "%u карта");
      g_assert_cmpstr (nb_ntr (c, "%u map", "%u maps", 3), ==, "%u карты");
      g_assert_cmpstr (nb_ntr (c, "%u map", "%u maps", 7), ==, "%u карт");
    }
}

/* A catalogue with fewer forms than its rule: the English words, never a
 * read past the entry. */
static void
test_short_plural (void)
{
  const MoEntry entries[] = {
    ENTRY ("%u map\0%u maps", "%u карта"),
  };
  g_autoptr (GByteArray) mo = build_mo (entries, 1, FALSE);
  g_autofree char *path = write_file ("short.mo", mo->data, mo->len);
  g_autoptr (NbCatalogue) c = nb_catalogue_load (path, "ru", NULL);

  g_assert_nonnull (c);
  g_assert_cmpstr (nb_ntr (c, "%u map", "%u maps", 1), ==, "%u карта");
  g_assert_cmpstr (nb_ntr (c, "%u map", "%u maps", 5), ==, "%u maps");
}

static void
expect_refused (const char *name, const guint8 *data, gsize len, const char *lang,
                const char *words)
{
  g_autofree char *path = write_file (name, data, len);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCatalogue) c = nb_catalogue_load (path, lang, &error);

  g_assert_null (c);
  g_assert_nonnull (error);
  if (strstr (error->message, path) == NULL || strstr (error->message, words) == NULL)
    g_error ("%s: the error \"%s\" should name the file and say \"%s\"", name, error->message,
             words);
}

static void
test_damaged (void)
{
  const MoEntry good[] = { ENTRY ("", header_ru), ENTRY ("Map", "Карта") };
  const MoEntry latin1[] = { ENTRY ("Map", "Kart\xe5") };
  const MoEntry charset[] = { ENTRY ("", "Content-Type: text/plain; charset=KOI8-R\n") };
  const MoEntry two_forms[] = { ENTRY ("", "Plural-Forms: nplurals=2; plural=(n != 1);\n") };
  g_autoptr (GByteArray) mo = build_mo (good, 2, FALSE);
  g_autoptr (GByteArray) bad_utf8 = build_mo (latin1, 1, FALSE);
  g_autoptr (GByteArray) koi8 = build_mo (charset, 1, FALSE);
  g_autoptr (GByteArray) nplurals = build_mo (two_forms, 1, FALSE);
  g_autofree guint8 *copy = g_memdup2 (mo->data, mo->len);
  guint32 far = GUINT32_TO_LE (1u << 30), many = GUINT32_TO_LE (100000);
  const char *po = "msgid \"Map\"\nmsgstr \"Карта\"\n";

  expect_refused ("empty.mo", (const guint8 *) "", 0, "ru", "too short");
  expect_refused ("text.mo", (const guint8 *) po, strlen (po), "ru",
                  "not a GNU message catalogue");
  expect_refused ("cut.mo", mo->data, mo->len - 12, "ru", "lies outside the file");
  /* A string's offset beyond the end. */
  memcpy (copy + 28 + 8 + 4, &far, 4);
  expect_refused ("offset.mo", copy, mo->len, "ru", "lies outside the file");
  /* More strings than the tables hold. */
  memcpy (copy, mo->data, mo->len);
  memcpy (copy + 8, &many, 4);
  expect_refused ("count.mo", copy, mo->len, "ru", "outside the file");
  /* A string without its NUL. */
  memcpy (copy, mo->data, mo->len);
  copy[mo->len - 1] = 'x';
  expect_refused ("nul.mo", copy, mo->len, "ru", "lacks its NUL");
  expect_refused ("latin1.mo", bad_utf8->data, bad_utf8->len, "ru", "not UTF-8");
  expect_refused ("koi8.mo", koi8->data, koi8->len, "ru", "only UTF-8");
  expect_refused ("nplurals.mo", nplurals->data, nplurals->len, "ru", "nplurals=2");
  expect_refused ("de.mo", mo->data, mo->len, "de", "plural rule");
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *path = g_build_filename (tmpdir, "absent.mo", NULL);

    g_assert_null (nb_catalogue_load (path, "ru", &error));
    g_assert_true (strstr (error->message, path) != NULL);
  }
}

static void
test_for_language_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) missing = NULL;

  g_assert_null (nb_catalogue_for_language (locale_dir, "de", &error));
  g_assert_true (strstr (error->message, "'de'") != NULL);
  /* Russian needs its file: the error names where it was looked for. */
  g_assert_null (nb_catalogue_for_language (tmpdir, "ru", &missing));
  g_assert_true (strstr (missing->message, "ru/LC_MESSAGES/navbench.mo") != NULL);
  g_assert_true (nb_catalogue_language_known ("ru"));
  g_assert_false (nb_catalogue_language_known ("ru_RU"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  locale_dir = g_test_build_filename (G_TEST_BUILT, "..", "po", NULL);
  tmpdir = g_dir_make_tmp ("nb-catalogue-XXXXXX", NULL);
  g_test_add_func ("/catalogue/ru", test_ru);
  g_test_add_func ("/catalogue/english", test_english);
  g_test_add_func ("/catalogue/records", test_records);
  g_test_add_func ("/catalogue/messages", test_messages);
  g_test_add_func ("/catalogue/byte-orders", test_byte_orders);
  g_test_add_func ("/catalogue/short-plural", test_short_plural);
  g_test_add_func ("/catalogue/damaged", test_damaged);
  g_test_add_func ("/catalogue/for-language-errors", test_for_language_errors);
  status = g_test_run ();
  nb_test_remove_tree (tmpdir);
  g_free (tmpdir);
  g_free (locale_dir);
  return status;
}
