/* SPDX-License-Identifier: GPL-3.0-or-later */
/* VTK XML export (fr-vtk.h), checked by a reader that shares no code with
 * the writer: tests/vtk-read.py parses each file with Python's standard
 * library and compares every value, extent, spacing, origin and line with
 * what the test meant to write, bit for bit. */
#include <glib.h>
#include <glib/gstdio.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "fr-vtk.h"
#include "test-comma-locale.h"
#include "test-tmpdir.h"

/* ---- helpers ---- */

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The sorted names in a folder, joined by spaces: "" when it is empty. */
static char *
list_dir (const char *path)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (dir);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
json_string (GString *s, const char *text)
{
  g_string_append_c (s, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (s, "\\%c", *p);
      else if ((unsigned char) *p < 0x20)
        g_string_append_printf (s, "\\u%04x", *p);
      else
        g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

/* Exact, locale-free decimal form of a double (17 significant digits). */
static void
json_number (GString *s, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (s, g_ascii_dtostr (buf, sizeof buf, v));
}

static void
json_triple (GString *s, const double v[3])
{
  g_string_append_c (s, '[');
  for (int i = 0; i < 3; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      json_number (s, v[i]);
    }
  g_string_append_c (s, ']');
}

/* Runs the independent reader on FILE against the expectations in JSON. */
static void
assert_reader_agrees (const char *dir, const char *file, const GString *json)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "vtk-read.py", NULL);
  g_autofree char *expect = g_build_filename (dir, "expect.json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *errs = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  /* python3 is already required by tests/run-all.sh (summarize.py). */
  g_assert_nonnull (python);
  g_assert_true (g_file_set_contents (expect, json->str, (gssize) json->len, &error));
  g_assert_no_error (error);
  {
    const char *argv[] = { python, script, file, expect, NULL };
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                  &out, &errs, &status, &error);
  }
  g_assert_no_error (error);
  g_assert_cmpstr (errs, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_remove (expect);
}

/* Writes the fields' exact bytes to raw files and their description to JSON. */
static GString *
image_expectation (const char *dir, const fr_grid *g, const fr_vtk_field *fields, int n)
{
  GString *s = g_string_new ("{\"type\": \"ImageData\", \"extent\": [");
  size_t count = fr_grid_count (g);
  double origin[3] = { g->x0, g->ndim == 3 ? g->y0 : 0.0, g->z0 };
  double spacing[3] = { g->dx, g->ndim == 3 ? g->dy : 1.0, g->dz };

  g_string_append_printf (s, "0, %zu, 0, %zu, 0, %zu], \"origin\": ",
                          g->nx - 1, g->ny - 1, g->nz - 1);
  json_triple (s, origin);
  g_string_append (s, ", \"spacing\": ");
  json_triple (s, spacing);
  g_string_append (s, ", \"arrays\": [");
  for (int i = 0; i < n; i++)
    {
      g_autofree char *raw_name = g_strdup_printf ("expect-%d.raw", i);
      g_autofree char *raw = g_build_filename (dir, raw_name, NULL);
      size_t size = fields[i].dtype == FR_F32 ? sizeof (float) : sizeof (double);
      g_autoptr (GError) error = NULL;

      g_assert_true (g_file_set_contents (raw, fields[i].data, (gssize) (count * size), &error));
      g_assert_no_error (error);
      g_string_append (s, i > 0 ? ", {\"name\": " : "{\"name\": ");
      json_string (s, fields[i].name);
      g_string_append_printf (s, ", \"type\": \"%s\", \"raw\": ",
                              fields[i].dtype == FR_F32 ? "Float32" : "Float64");
      json_string (s, raw);
      g_string_append_c (s, '}');
    }
  g_string_append (s, "]}\n");
  return s;
}

static void
remove_raw_files (const char *dir, int n)
{
  for (int i = 0; i < n; i++)
    {
      g_autofree char *raw_name = g_strdup_printf ("expect-%d.raw", i);
      g_autofree char *raw = g_build_filename (dir, raw_name, NULL);
      g_remove (raw);
    }
}

static void
check_image (const fr_grid *g, const fr_vtk_field *fields, int n)
{
  g_autofree char *dir = g_dir_make_tmp ("foldray-vtk-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "grid.vti", NULL);
  g_autoptr (GString) json = NULL;
  g_autofree char *left = NULL;
  fr_error err = { 0 };

  g_assert_nonnull (dir);
  g_assert_cmpint (fr_vtk_write_image (path, g, fields, n, &err), ==, FR_OK);
  g_assert_cmpstr (err.message, ==, "");
  json = image_expectation (dir, g, fields, n);
  assert_reader_agrees (dir, path, json);
  remove_raw_files (dir, n);
  /* Nothing beside the file: the temporary was renamed, not copied. */
  left = list_dir (dir);
  g_assert_cmpstr (left, ==, "grid.vti");
  test_tmpdir_remove (dir);
}

static float
float_from_bits (uint32_t bits)
{
  float f;
  memcpy (&f, &bits, sizeof f);
  return f;
}

/* ---- images ---- */

static void
test_image_2d (void)
{
  fr_grid g = fr_grid_2d (7, 5, 0.5, 0.25, -1.5, 10.0);
  float t[35];
  double v[35];

  for (int i = 0; i < 35; i++)
    {
      t[i] = 0.1f * (float) i;
      v[i] = 1500.0 + 0.001 * i;
    }
  /* The values ASCII would lose: an unreached node, a signed zero, a NaN
   * with a payload, and the extremes of each type. */
  t[3] = INFINITY;
  t[10] = -0.0f;
  t[11] = float_from_bits (0x7fc00123u);
  t[12] = FLT_MAX;
  t[13] = FLT_TRUE_MIN;
  v[0] = INFINITY;
  v[1] = -DBL_MAX;
  v[34] = DBL_TRUE_MIN;
  /* A 2D grid's dy and y0 mean nothing; the file must not pick them up. */
  g.dy = 7.0;
  g.y0 = 3.0;

  fr_vtk_field fields[] = {
    { "T", FR_F32, t },
    /* Names reach XML attributes: every special character must be escaped. */
    { "velocity <m/s> & \"quoted\" 'é'", FR_F64, v },
  };
  check_image (&g, fields, 2);
}

static void
test_image_3d (void)
{
  fr_grid g = fr_grid_3d (4, 3, 5, 1.5, 2.5, 0.125, 100.0, -200.0, 0.3);
  double t[60];
  float speed[60];

  /* Distinct values per (ix, iy, iz), so a transposed axis shows. */
  for (int iz = 0; iz < 5; iz++)
    for (int iy = 0; iy < 3; iy++)
      for (int ix = 0; ix < 4; ix++)
        {
          size_t k = fr_grid_index (&g, (size_t) ix, (size_t) iy, (size_t) iz);
          t[k] = ix + 10.0 * iy + 100.0 * iz + 1.0 / 3.0;
          speed[k] = (float) (k % 7 == 0 ? INFINITY : 2.0 + 0.5 * (double) k);
        }

  fr_vtk_field fields[] = {
    { "T", FR_F64, t },
    { "speed", FR_F32, speed },
  };
  check_image (&g, fields, 2);
}

/* Large enough to cross the writer's internal buffer many times.  With the
 * 8-byte header, the arrays here leave 2, 0 and 1 bytes over the last
 * base64 triple, so every kind of padding is read back. */
static void
test_image_large (void)
{
  fr_grid g = fr_grid_2d (513, 301, 12.5, 7.5, 0.0, 0.0);
  size_t n = fr_grid_count (&g);
  g_autofree float *t = g_new (float, n);
  g_autofree double *v = g_new (double, n);

  for (size_t i = 0; i < n; i++)
    {
      t[i] = (float) g_test_rand_double_range (0.0, 10.0);
      v[i] = g_test_rand_double_range (-1e300, 1e300);
    }
  t[n - 1] = INFINITY;

  fr_vtk_field fields[] = { { "T", FR_F32, t }, { "v", FR_F64, v } };
  check_image (&g, fields, 2);

  /* One node: 8 + 4 and 8 + 8 bytes. */
  g = fr_grid_2d (1, 1, 1.0, 1.0, 0.0, 0.0);
  check_image (&g, fields, 2);
}

/* ---- polylines ---- */

static void
check_polylines (int ndim, const double *const *pts, const size_t *npts, size_t nlines,
                 const char *id_name)
{
  g_autofree char *dir = g_dir_make_tmp ("foldray-vtk-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "rays.vtp", NULL);
  g_autoptr (GString) json = g_string_new ("{\"type\": \"PolyData\", \"id_name\": ");
  g_autofree char *left = NULL;
  fr_error err = { 0 };
  gboolean first = TRUE;

  g_assert_nonnull (dir);
  g_assert_cmpint (fr_vtk_write_polylines (path, ndim, pts, npts, nlines, id_name, &err),
                   ==, FR_OK);
  g_assert_cmpstr (err.message, ==, "");

  /* The mapping of fr-vtk.h, spelt out: 2D (x, z) is VTK's (x, 0, z), and
   * an empty line has no cell but the others keep their numbers. */
  json_string (json, id_name != NULL ? id_name : "id");
  g_string_append (json, ", \"lines\": [");
  for (size_t i = 0; i < nlines; i++)
    {
      if (npts[i] == 0)
        continue;
      g_string_append_printf (json, "%s{\"id\": %zu, \"points\": [", first ? "" : ", ", i);
      first = FALSE;
      for (size_t j = 0; j < npts[i]; j++)
        {
          const double *q = pts[i] + j * (size_t) ndim;
          double p[3] = { q[0], ndim == 3 ? q[1] : 0.0, q[ndim - 1] };
          if (j > 0)
            g_string_append (json, ", ");
          json_triple (json, p);
        }
      g_string_append (json, "]}");
    }
  g_string_append (json, "]}\n");
  assert_reader_agrees (dir, path, json);
  left = list_dir (dir);
  g_assert_cmpstr (left, ==, "rays.vtp");
  test_tmpdir_remove (dir);
}

static void
test_polylines_2d (void)
{
  const double a[] = { 0, 0, 1.5, 0.25, 3.0, 0.75, 4.5, 1.0 / 3.0 };
  const double c[] = { 7.0, 8.0 };
  const double d[] = { -1, 2, -2, 4, -3, 6, -4, 8, -5e-300, 1e300 };
  const double *pts[] = { a, NULL, c, d };
  const size_t npts[] = { 4, 0, 1, 5 };

  check_polylines (2, pts, npts, 4, "receiver");
}

static void
test_polylines_3d (void)
{
  const double a[] = { 0, 0, 0, 1, 2, 3, 2, 4, 6 };
  const double b[] = { 10, -20, 30.125, 11, -21, 31.25 };
  const double *pts[] = { a, b };
  const size_t npts[] = { 3, 2 };

  check_polylines (3, pts, npts, 2, NULL);
  /* No lines at all is still a valid, empty file. */
  check_polylines (3, NULL, NULL, 0, "horizon");
}

/* ---- failures ---- */

static void
assert_input_error (fr_status st, const fr_error *err, const char *dir, const char *needle)
{
  g_autofree char *left = list_dir (dir);

  g_assert_cmpint (st, ==, FR_E_INPUT);
  g_assert_cmpint (err->code, ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err->message, needle));
  /* Bad arguments are caught before anything is created. */
  g_assert_cmpstr (left, ==, "");
}

static void
test_bad_input (void)
{
  g_autofree char *dir = g_dir_make_tmp ("foldray-vtk-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.vti", NULL);
  fr_grid g = fr_grid_2d (3, 2, 1.0, 1.0, 0.0, 0.0);
  fr_grid bad = fr_grid_2d (3, 2, 0.0, 1.0, 0.0, 0.0);
  float t[6] = { 0 };
  fr_error err = { 0 };
  fr_vtk_field ok = { "T", FR_F32, t };
  fr_vtk_field no_name = { "", FR_F32, t };
  fr_vtk_field ctrl_name = { "a\nb", FR_F32, t };
  fr_vtk_field no_data = { "T", FR_F32, NULL };
  fr_vtk_field bad_type = { "T", (fr_dtype) 7, t };
  fr_vtk_field twice[] = { { "T", FR_F32, t }, { "T", FR_F32, t } };
  const double p[] = { 0, 0, 1, NAN };
  const double *pts[] = { p, NULL };
  size_t npts[] = { 2, 0 };

  g_assert_nonnull (dir);
  assert_input_error (fr_vtk_write_image (NULL, &g, &ok, 1, &err), &err, dir, "file name");
  assert_input_error (fr_vtk_write_image (path, NULL, &ok, 1, &err), &err, dir, "no grid");
  assert_input_error (fr_vtk_write_image (path, &bad, &ok, 1, &err), &err, dir, "spacing");
  g_assert_true (g_str_has_prefix (err.message, path));
  assert_input_error (fr_vtk_write_image (path, &g, &ok, 0, &err), &err, dir, "no field");
  assert_input_error (fr_vtk_write_image (path, &g, NULL, 1, &err), &err, dir, "no field");
  assert_input_error (fr_vtk_write_image (path, &g, &no_name, 1, &err), &err, dir, "name");
  assert_input_error (fr_vtk_write_image (path, &g, &ctrl_name, 1, &err), &err, dir,
                      "control");
  assert_input_error (fr_vtk_write_image (path, &g, &no_data, 1, &err), &err, dir, "no data");
  assert_input_error (fr_vtk_write_image (path, &g, &bad_type, 1, &err), &err, dir, "type");
  assert_input_error (fr_vtk_write_image (path, &g, twice, 2, &err), &err, dir, "two fields");
  /* A NULL error is allowed and still reports the status. */
  g_assert_cmpint (fr_vtk_write_image (path, &bad, &ok, 1, NULL), ==, FR_E_INPUT);

  assert_input_error (fr_vtk_write_polylines (NULL, 2, pts, npts, 2, NULL, &err), &err, dir,
                      "file name");
  assert_input_error (fr_vtk_write_polylines (path, 4, pts, npts, 2, NULL, &err), &err, dir,
                      "2 or 3");
  assert_input_error (fr_vtk_write_polylines (path, 2, pts, npts, 2, NULL, &err), &err, dir,
                      "line 0, point 1 is not finite");
  npts[1] = 3;
  assert_input_error (fr_vtk_write_polylines (path, 2, pts, npts, 2, NULL, &err), &err, dir,
                      "not finite");
  pts[0] = NULL;
  assert_input_error (fr_vtk_write_polylines (path, 2, pts, npts, 2, NULL, &err), &err, dir,
                      "line 0 has no points");
  assert_input_error (fr_vtk_write_polylines (path, 2, NULL, npts, 2, NULL, &err), &err, dir,
                      "no points");
  assert_input_error (fr_vtk_write_polylines (path, 2, NULL, NULL, 0, "", &err), &err, dir,
                      "id array");
  test_tmpdir_remove (dir);
}

/* Per-line values (a folded horizon's k and T) as Float64 cell data after
 * the id; a line without points has no cell and skips its value. */
static void
test_polylines_fields (void)
{
  const double a[] = { 0, 0.5, 1, 0.6, 2, 0.55 };
  const double c[] = { 0, 0.9, 2, 0.95 };
  const double *pts[] = { a, NULL, c };
  const size_t npts[] = { 3, 0, 2 };
  const double k[] = { 1, 2, 3 }, t[] = { 0.1, 0.2, 0.30000000000000004 };
  const fr_vtk_line_field fields[] = { { "k", k }, { "T", t } };
  const fr_vtk_line_field clash[] = { { "horizon", k } };
  const fr_vtk_line_field twice[] = { { "T", k }, { "T", t } };
  g_autofree char *dir = g_dir_make_tmp ("foldray-vtk-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "horizons.vtp", NULL);
  g_autoptr (GString) json = g_string_new (NULL);
  fr_error err = { 0 };

  g_assert_cmpint (fr_vtk_write_polylines_data (path, 2, pts, npts, 3, "horizon", fields, 2,
                                                &err), ==, FR_OK);
  g_string_append (json, "{\"type\": \"PolyData\", \"id_name\": \"horizon\", \"lines\": ["
                         "{\"id\": 0, \"points\": [[0, 0, 0.5], [1, 0, 0.6], [2, 0, 0.55]]}, "
                         "{\"id\": 2, \"points\": [[0, 0, 0.9], [2, 0, 0.95]]}], \"fields\": ["
                         "{\"name\": \"k\", \"values\": [1, 3]}, "
                         "{\"name\": \"T\", \"values\": [0.1, 0.30000000000000004]}]}\n");
  assert_reader_agrees (dir, path, json);
  g_remove (path);
  /* A name the id has, or two alike, is refused before anything is made. */
  assert_input_error (fr_vtk_write_polylines_data (path, 2, pts, npts, 3, "horizon", clash, 1,
                                                   &err), &err, dir, "other than the id's");
  assert_input_error (fr_vtk_write_polylines_data (path, 2, pts, npts, 3, "horizon", twice, 2,
                                                   &err), &err, dir, "two line fields");
  test_tmpdir_remove (dir);
}

/* The writes go through fr_atomic_file: a refused write reports FR_E_IO and
 * leaves neither the file nor its temporary behind, and a replaced file is
 * replaced whole. */
static void
test_atomic (void)
{
  g_autofree char *dir = g_dir_make_tmp ("foldray-vtk-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "out.vti", NULL);
  g_autofree char *taken = g_build_filename (dir, "taken.vti", NULL);
  g_autofree char *inside = g_build_filename (taken, "keep", NULL);
  g_autofree char *path = g_build_filename (dir, "out.vti", NULL);
  g_autofree char *left = NULL;
  g_autofree char *contents = NULL;
  fr_grid g = fr_grid_2d (3, 2, 1.0, 1.0, 0.0, 0.0);
  float t[6] = { 1, 2, 3, 4, 5, 6 };
  fr_vtk_field f = { "T", FR_F32, t };
  const double p[] = { 0, 0, 1, 1 };
  const double *pts[] = { p };
  const size_t npts[] = { 2 };
  fr_error err = { 0 };

  g_assert_nonnull (dir);
  /* A folder that does not exist. */
  g_assert_cmpint (fr_vtk_write_image (missing, &g, &f, 1, &err), ==, FR_E_IO);
  g_assert_nonnull (strstr (err.message, "no-such-folder"));
  g_assert_cmpint (fr_vtk_write_polylines (missing, 2, pts, npts, 1, NULL, &err), ==, FR_E_IO);

  /* A target that is a folder: the whole file is written, then the rename
   * fails, and the temporary must go. */
  g_assert_cmpint (g_mkdir (taken, 0755), ==, 0);
  g_assert_true (g_file_set_contents (inside, "x", 1, NULL));
  g_assert_cmpint (fr_vtk_write_image (taken, &g, &f, 1, &err), ==, FR_E_IO);
  g_assert_nonnull (strstr (err.message, "taken.vti"));
  g_assert_cmpint (fr_vtk_write_polylines (taken, 2, pts, npts, 1, "receiver", &err),
                   ==, FR_E_IO);
  left = list_dir (dir);
  g_assert_cmpstr (left, ==, "taken.vti");
  g_assert_true (g_file_test (inside, G_FILE_TEST_IS_REGULAR));
  g_clear_pointer (&left, g_free);

  /* A folder we may not write into (root may write anywhere). */
  if (geteuid () != 0)
    {
      g_autofree char *locked = g_build_filename (dir, "locked", NULL);
      g_autofree char *target = g_build_filename (locked, "out.vti", NULL);

      g_assert_cmpint (g_mkdir (locked, 0555), ==, 0);
      g_assert_cmpint (fr_vtk_write_image (target, &g, &f, 1, &err), ==, FR_E_IO);
      left = list_dir (locked);
      g_assert_cmpstr (left, ==, "");
      g_clear_pointer (&left, g_free);
      g_chmod (locked, 0755);
      g_remove (locked);
    }

  /* Replacing an existing file. */
  g_assert_true (g_file_set_contents (path, "old and longer than nothing", -1, NULL));
  g_assert_cmpint (fr_vtk_write_image (path, &g, &f, 1, &err), ==, FR_OK);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "<?xml"));
  g_assert_true (g_str_has_suffix (contents, "</VTKFile>\n"));
  left = list_dir (dir);
  g_assert_cmpstr (left, ==, "out.vti taken.vti");
  test_tmpdir_remove (dir);
}

/* The application runs under the user's locale; Spanish and Norwegian write
 * "0,5" through printf.  The attributes must still read "0.5". */
static void
test_locale (void)
{
  g_autofree char *dir = g_dir_make_tmp ("foldray-vtk-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "grid.vti", NULL);
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autoptr (GString) json = NULL;
  fr_grid g = fr_grid_3d (2, 2, 2, 0.5, 1.25, 0.125, -0.75, 2.5, 1e-3);
  double v[8] = { 0.5, 1, 2, 3, 4, 5, 6, INFINITY };
  fr_vtk_field f = { "T", FR_F64, v };
  fr_error err = { 0 };

  g_assert_nonnull (dir);
  if (test_comma_locale (dir) == NULL)
    {
      g_test_skip ("no locale with a decimal comma (install Debian's \"locales\")");
      test_tmpdir_remove (dir);
      return;
    }
  g_assert_cmpint (fr_vtk_write_image (path, &g, &f, 1, &err), ==, FR_OK);
  setlocale (LC_NUMERIC, saved);
  json = image_expectation (dir, &g, &f, 1);
  assert_reader_agrees (dir, path, json);
  test_tmpdir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vtk/image-2d", test_image_2d);
  g_test_add_func ("/vtk/polylines-fields", test_polylines_fields);
  g_test_add_func ("/vtk/image-3d", test_image_3d);
  g_test_add_func ("/vtk/image-large", test_image_large);
  g_test_add_func ("/vtk/polylines-2d", test_polylines_2d);
  g_test_add_func ("/vtk/polylines-3d", test_polylines_3d);
  g_test_add_func ("/vtk/bad-input", test_bad_input);
  g_test_add_func ("/vtk/atomic", test_atomic);
  g_test_add_func ("/vtk/locale", test_locale);
  return g_test_run ();
}
