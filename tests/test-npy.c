/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The .npy reader and writer, arrays and atomic files.  The truth comes from
 * numpy: tests/npy-fixtures.py writes files with numpy's own writer, and
 * numpy loads what we write.  Malformed files are crafted byte by byte here. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fr-array.h"
#include "fr-atomic-file.h"
#include "fr-memory.h"
#include "fr-npy.h"
#include "fr-npy-private.h"
#include "test-sanitizer.h"
#include "test-tmpdir.h"

/* ---- helpers ----------------------------------------------------------- */

/* A string literal as bytes and length, embedded NULs included. */
#define BYTES(lit) (const guint8 *) (lit), sizeof (lit) - 1

/* The formula every fixture holds; exact in float32. */
static double
formula (size_t ix, size_t iy, size_t iz)
{
  return 1.0 + 0.5 * (double) ix + 0.25 * (double) iz + 0.125 * (double) iy;
}

static char *scratch_dir;     /* one per run, removed at the end */
static char *fixture_dir;     /* inside scratch_dir, made on first use */
static char *python;          /* a python3 that has numpy, or NULL */
static gboolean python_probed;

/* A fresh directory under the run's scratch directory. */
static char *
make_dir (const char *name)
{
  char *path = g_build_filename (scratch_dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
  return path;
}

/* Entries of a directory whose name starts with '.': a leaked temporary. */
static guint
count_hidden (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] == '.')
      {
        g_test_message ("stray file %s/%s", path, name);
        n++;
      }
  g_dir_close (dir);
  return n;
}

/* Runs argv; returns TRUE on exit status 0, and the output for messages. */
static gboolean
spawn (const char * const *argv, int *exit_code, char **output)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *errs = NULL;
  int status = 0;

  *exit_code = -1;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &errs, &status, &error))
    {
      *output = g_strdup (error->message);
      return FALSE;
    }
  *output = g_strconcat (out, errs, NULL);
  if (g_spawn_check_wait_status (status, &error))
    {
      *exit_code = 0;
      return TRUE;
    }
  if (error->domain == G_SPAWN_EXIT_ERROR)
    *exit_code = error->code;
  return FALSE;
}

/* The first python3 with numpy: $FOLDRAY_PYTHON, then the one on PATH, then
 * the system's (a pyenv shim on PATH may lack the distribution's numpy). */
static const char *
find_python (void)
{
  const char *candidates[] = { g_getenv ("FOLDRAY_PYTHON"), "python3", "/usr/bin/python3" };

  if (python_probed)
    return python;
  python_probed = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      const char *argv[] = { candidates[i], "-c", "import numpy", NULL };
      g_autofree char *output = NULL;
      int code;

      if (candidates[i] != NULL && spawn (argv, &code, &output))
        {
          python = g_strdup (candidates[i]);
          break;
        }
    }
  return python;
}

/* The numpy-written fixtures, or NULL (and the test skipped) without numpy. */
static const char *
fixtures (void)
{
  g_autofree char *script = NULL, *output = NULL;
  int code;

  if (fixture_dir != NULL)
    return fixture_dir;
  if (find_python () == NULL)
    {
      g_test_skip ("no python3 with numpy");
      return NULL;
    }
  script = g_test_build_filename (G_TEST_DIST, "npy-fixtures.py", NULL);
  fixture_dir = make_dir ("fixtures");
  {
    const char *argv[] = { python, script, fixture_dir, NULL };
    if (!spawn (argv, &code, &output))
      g_error ("%s %s failed (exit %d): %s", python, script, code, output);
  }
  return fixture_dir;
}

static char *
write_temp (const char *name, const void *bytes, gsize len)
{
  char *path = g_build_filename (scratch_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
  return path;
}

/* A .npy file with the given header text, verbatim, and data_len bytes of
 * data: the header length field matches the text unless the caller edits it. */
static GByteArray *
craft (int major, const char *header, gsize data_len)
{
  GByteArray *b = g_byte_array_new ();
  guint32 hlen = (guint32) strlen (header);
  guint8 pre[12] = { 0x93, 'N', 'U', 'M', 'P', 'Y', (guint8) major, 0 };
  guint8 *zeros = g_malloc0 (data_len + 1);

  pre[8] = hlen & 0xff;
  pre[9] = hlen >> 8 & 0xff;
  pre[10] = hlen >> 16 & 0xff;
  pre[11] = hlen >> 24 & 0xff;
  g_byte_array_append (b, pre, major == 1 ? 10 : 12);
  g_byte_array_append (b, (const guint8 *) header, hlen);
  g_byte_array_append (b, zeros, (guint) data_len);
  g_free (zeros);
  return b;
}

/* Both entry points refuse the bytes, leave the array cleared, and say why;
 * the file reader also names the file. */
static void
assert_refused (const guint8 *bytes, gsize len, const char *expect)
{
  fr_array a = { .ndim = 7, .data = &a };
  fr_error err = { 0 };
  g_autofree char *path = NULL, *prefix = NULL;
  fr_status st;

  st = fr_npy_parse (bytes, len, &a, &err);
  g_test_message ("parse: %s", err.message);
  g_assert_cmpint (st, ==, FR_E_INPUT);
  g_assert_cmpint (err.code, ==, FR_E_INPUT);
  g_assert_null (a.data);
  g_assert_cmpint (a.ndim, ==, 0);
  g_assert_nonnull (strstr (err.message, expect));

  path = write_temp ("refused.npy", bytes, len);
  prefix = g_strconcat (path, ": ", NULL);
  fr_error_clear (&err);
  a.ndim = 7;
  st = fr_npy_read (path, &a, &err);
  g_test_message ("read: %s", err.message);
  g_assert_cmpint (st, ==, FR_E_INPUT);
  g_assert_null (a.data);
  g_assert_cmpint (a.ndim, ==, 0);
  g_assert_true (g_str_has_prefix (err.message, prefix));
  g_assert_nonnull (strstr (err.message, expect));
}

static void
assert_header_refused (int major, const char *header, gsize data_len, const char *expect)
{
  GByteArray *b = craft (major, header, data_len);
  g_autofree char *shown = g_strescape (header, NULL);

  g_test_message ("header: %s", shown);
  assert_refused (b->data, b->len, expect);
  g_byte_array_unref (b);
}

/* Checks every value of a 1D, 2D or 3D array against the formula. */
static void
assert_formula (const fr_array *a)
{
  size_t nz = a->ndim == 1 ? 1 : a->shape[0];
  size_t ny = a->ndim == 3 ? a->shape[1] : 1;
  size_t nx = a->shape[a->ndim - 1];
  double *v = NULL;

  g_assert_cmpint (fr_array_to_f64 (a, &v, NULL), ==, FR_OK);
  g_assert_cmpuint (fr_array_count (a), ==, nz * ny * nx);
  for (size_t iz = 0; iz < nz; iz++)
    for (size_t iy = 0; iy < ny; iy++)
      for (size_t ix = 0; ix < nx; ix++)
        {
          /* In 1D the only axis is x. */
          double want = a->ndim == 1 ? 1.0 + 0.5 * (double) ix : formula (ix, iy, iz);
          g_assert_cmpfloat (v[(iz * ny + iy) * nx + ix], ==, want);
        }
  g_free (v);
}

/* An array of the given shape filled with the formula (nz, nx) or (nz, ny, nx). */
static fr_array
formula_array (fr_dtype dtype, int ndim, size_t nz, size_t ny, size_t nx)
{
  fr_grid g = ndim == 3 ? fr_grid_3d (nx, ny, nz, 1, 1, 1, 0, 0, 0)
                        : fr_grid_2d (nx, nz, 1, 1, 0, 0);
  size_t n = nx * ny * nz;
  void *data = g_malloc (n * (dtype == FR_F32 ? 4 : 8));

  for (size_t iz = 0; iz < nz; iz++)
    for (size_t iy = 0; iy < ny; iy++)
      for (size_t ix = 0; ix < nx; ix++)
        {
          size_t i = fr_grid_index (&g, ix, iy, iz);
          if (dtype == FR_F32)
            ((float *) data)[i] = (float) formula (ix, iy, iz);
          else
            ((double *) data)[i] = formula (ix, iy, iz);
        }
  return fr_array_wrap_grid (&g, dtype, data);
}

/* ---- numpy-written files ----------------------------------------------- */

static void
test_numpy_fixtures (void)
{
  const char *dir = fixtures ();

  if (dir == NULL)
    return;
  for (int major = 1; major <= 3; major++)
    for (int f64 = 0; f64 <= 1; f64++)
      for (int ndim = 2; ndim <= 3; ndim++)
        {
          g_autofree char *name = g_strdup_printf ("v%d-%s-%dd.npy", major, f64 ? "f8" : "f4", ndim);
          g_autofree char *path = g_build_filename (dir, name, NULL);
          fr_array a = { 0 };
          fr_error err = { 0 };

          g_test_message ("%s", name);
          g_assert_cmpint (fr_npy_read (path, &a, &err), ==, FR_OK);
          g_assert_cmpstr (err.message, ==, "");
          g_assert_cmpint (a.dtype, ==, f64 ? FR_F64 : FR_F32);
          g_assert_cmpint (a.ndim, ==, ndim);
          g_assert_cmpuint (a.shape[0], ==, 3);
          if (ndim == 2)
            g_assert_cmpuint (a.shape[1], ==, 5);
          else
            {
              g_assert_cmpuint (a.shape[1], ==, 2);
              g_assert_cmpuint (a.shape[2], ==, 4);
            }
          assert_formula (&a);
          fr_array_clear (&a);
          g_assert_null (a.data);
        }
}

static void
test_numpy_fixtures_other (void)
{
  const char *dir = fixtures ();
  g_autofree char *one_d = NULL, *empty = NULL;
  fr_array a = { 0 };

  if (dir == NULL)
    return;
  one_d = g_build_filename (dir, "v1-f8-1d.npy", NULL);
  g_assert_cmpint (fr_npy_read (one_d, &a, NULL), ==, FR_OK);
  g_assert_cmpint (a.ndim, ==, 1);
  g_assert_cmpuint (a.shape[0], ==, 7);
  assert_formula (&a);
  fr_array_clear (&a);

  /* numpy allows an empty axis; the reader does too (a grid will not). */
  empty = g_build_filename (dir, "empty-2d.npy", NULL);
  g_assert_cmpint (fr_npy_read (empty, &a, NULL), ==, FR_OK);
  g_assert_cmpint (a.ndim, ==, 2);
  g_assert_cmpuint (a.shape[0], ==, 0);
  g_assert_cmpuint (a.shape[1], ==, 5);
  g_assert_cmpuint (fr_array_count (&a), ==, 0);
  g_assert_nonnull (a.data);
  fr_array_clear (&a);
}

static void
test_numpy_fixtures_refused (void)
{
  static const struct { const char *file, *expect; } cases[] = {
    { "fortran.npy", "Fortran order is not supported; save with C order" },
    { "be-f4.npy", "big-endian data ('>f4') is not supported" },
    { "be-f8.npy", "big-endian data ('>f8') is not supported" },
    { "int32.npy", "unsupported dtype '<i4'" },
    { "complex.npy", "unsupported dtype '<c8'" },
    { "float16.npy", "unsupported dtype '<f2'" },
    { "scalar.npy", "0-dimensional" },
    { "4d.npy", "more than 3 dimensions" },
  };
  const char *dir = fixtures ();

  if (dir == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (dir, cases[i].file, NULL);
      g_autofree char *contents = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      assert_refused ((const guint8 *) contents, len, cases[i].expect);
    }
}

/* ---- hand-written headers ---------------------------------------------- */

static void
test_header_variants (void)
{
  static const struct { int major; const char *header; int ndim; size_t s0, s1, s2; } cases[] = {
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n", 2, 2, 3, 0 },
    { 1, "{'shape': (2, 3), 'fortran_order': False, 'descr': '<f4'}", 2, 2, 3, 0 },
    { 1, "{\"fortran_order\": False, \"descr\": \"<f4\", \"shape\": (6,)}  \n", 1, 6, 0, 0 },
    { 2, "  {  'descr' : '<f4' ,'shape':(1,2,3),'fortran_order':False , }   \n", 3, 1, 2, 3 },
    { 3, "{'descr': '<f4', 'fortran_order': False, 'shape': ( 3 , 2 , ), }\n", 2, 3, 2, 0 },
    /* Python 2 era writers left an L on long integers. */
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }\n", 2, 2, 3, 0 },
    /* Not a tuple in Python, but unambiguous. */
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6), }\n", 1, 6, 0, 0 },
    { 1, "{'descr':'<f4','fortran_order':False,'shape':(2,0,3)}\t\r\n", 3, 2, 0, 3 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GByteArray *b = craft (cases[i].major, cases[i].header, 24);
      fr_array a = { 0 };
      fr_error err = { 0 };
      g_autofree char *shown = g_strescape (cases[i].header, NULL);

      g_test_message ("%s", shown);
      g_assert_cmpint (fr_npy_parse (b->data, b->len, &a, &err), ==, FR_OK);
      g_assert_cmpint (a.ndim, ==, cases[i].ndim);
      g_assert_cmpint (a.dtype, ==, FR_F32);
      g_assert_cmpuint (a.shape[0], ==, cases[i].s0);
      if (a.ndim > 1)
        g_assert_cmpuint (a.shape[1], ==, cases[i].s1);
      if (a.ndim > 2)
        g_assert_cmpuint (a.shape[2], ==, cases[i].s2);
      fr_array_clear (&a);
      g_byte_array_unref (b);
    }
}

static void
test_malformed_preamble (void)
{
  static const guint8 good[] = "\x93NUMPY\x01\x00\x40\x00";
  GByteArray *b;

  assert_refused (BYTES (""), "empty");
  assert_refused (BYTES ("\x93NU"), "truncated");
  assert_refused (BYTES ("abc"), "bad magic");
  assert_refused (BYTES ("\x93NUMPX\x01\x00\x02\x00{}"), "bad magic");
  assert_refused (BYTES ("PK\x03\x04 not numpy at all, a zip"), "bad magic");
  assert_refused (good, 9, "truncated");
  assert_refused (BYTES ("\x93NUMPY\x02\x00\x10\x00"), "truncated");
  assert_refused (BYTES ("\x93NUMPY\x04\x00\x10\x00\x00\x00"), "version 4.0");
  assert_refused (BYTES ("\x93NUMPY\x01\x01\x10\x00\x00\x00"), "version 1.1");

  /* The header length runs past the end of the file. */
  b = craft (1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 0);
  b->data[8] = 0xff;
  assert_refused (b->data, b->len, "truncated .npy header");
  g_byte_array_unref (b);
  b = craft (2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 8);
  b->data[11] = 0x7f;
  assert_refused (b->data, b->len, "implausible .npy header length");
  b->data[11] = 0;
  b->data[10] = 1;
  assert_refused (b->data, b->len, "truncated .npy header");
  g_byte_array_unref (b);
}

static void
test_malformed_header (void)
{
  static const struct { const char *header, *expect; } cases[] = {
    /* not terminated */
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ", "expected a quoted key or '}'" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2,", "a dimension in shape" },
    { "{'descr': '<f4", "a dtype string" },
    { "", "expected '{'" },
    { "\n", "expected '{'" },
    /* missing keys */
    { "{'fortran_order': False, 'shape': (2,), }\n", "'descr' key is missing" },
    { "{'descr': '<f4', 'shape': (2,), }\n", "'fortran_order' key is missing" },
    { "{'descr': '<f4', 'fortran_order': False, }\n", "'shape' key is missing" },
    { "{}\n", "'descr' key is missing" },
    /* garbage */
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (a, b), }\n", "a dimension in shape" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2,,), }\n", "a dimension in shape" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': [2, 2], }\n", "a tuple '('" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2 2), }\n", "',' or ')' in shape" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2x,), }\n", "a dimension in shape" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,), }\n", "',' or ')' in shape" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3), }\n", "negative dimension" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (3, -1), }\n", "negative dimension" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }\n",
      "overflows" },
    { "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }\n", "True or False" },
    { "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }\n", "True or False" },
    { "{'descr': <f4, 'fortran_order': False, 'shape': (2,), }\n", "a dtype string" },
    { "{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2,), }\n", "a dtype string" },
    { "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }\n", "structured" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}\n", "key 'extra'" },
    { "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}\n", "twice" },
    { "{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}\n", "',' or '}' after a value" },
    { "{'descr' '<f4', 'fortran_order': False, 'shape': (2,)}\n", "':' after a key" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x\n", "end of the header" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}}\n", "end of the header" },
    /* refused values */
    { "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n",
      "Fortran order is not supported; save with C order" },
    { "{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }\n", "big-endian" },
    { "{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }\n", "unsupported dtype '|f4'" },
    { "{'descr': '=f4', 'fortran_order': False, 'shape': (2,), }\n", "unsupported dtype '=f4'" },
    { "{'descr': '<f16', 'fortran_order': False, 'shape': (2,), }\n", "unsupported dtype '<f16'" },
    { "{'descr': '\x01\xff', 'fortran_order': False, 'shape': (2,), }\n", "unsupported dtype '?" "?'" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n", "0-dimensional" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1), }\n", "more than 3" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %u", i);
      assert_header_refused (1, cases[i].header, 32, cases[i].expect);
    }

  /* A NUL inside the header, which strlen would hide. */
  {
    static const char nul[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}\0\n";
    GByteArray *b = craft (1, "", 0);
    guint8 data[8] = { 0 };
    b->data[8] = sizeof nul - 1;
    g_byte_array_append (b, (const guint8 *) nul, sizeof nul - 1);
    g_byte_array_append (b, data, sizeof data);
    assert_refused (b->data, b->len, "end of the header");
    g_byte_array_unref (b);
  }
}

static void
test_absurd_shape (void)
{
  gint64 start = g_get_monotonic_time ();

  /* 10^12 elements: refused from the header alone, in no time. */
  assert_header_refused (1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000), }\n",
                         16, "more than 2147483648 elements");
  assert_header_refused (1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }\n",
                         16, "more than 2147483648 elements");
  assert_header_refused (3, "{'descr': '<f8', 'fortran_order': False, 'shape': (65536, 65536, 65536), }\n",
                         16, "more than 2147483648 elements");
  /* One past the limit, and a product that wraps 64 bits. */
  assert_header_refused (1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2147483649,), }\n",
                         16, "more than");
  assert_header_refused (1, "{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (4294967296, 4294967296, 4), }\n", 16, "more than");
  /* Within the limit but far more data than the file holds: 16 GiB claimed
   * by a tiny file is refused before any allocation. */
  assert_header_refused (1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2147483648,), }\n",
                         16, "needs 17179869184 bytes but only 16 are present");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
}

static void
test_truncated_data (void)
{
  const char *header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }\n";
  GByteArray *b = craft (1, header, 59);
  fr_array a = { 0 };

  assert_refused (b->data, b->len, "needs 60 bytes but only 59 are present");
  g_byte_array_unref (b);
  b = craft (1, header, 0);
  assert_refused (b->data, b->len, "needs 60 bytes but only 0 are present");
  g_byte_array_unref (b);

  /* Trailing bytes past the declared data are ignored, as numpy does. */
  b = craft (1, header, 61);
  g_assert_cmpint (fr_npy_parse (b->data, b->len, &a, NULL), ==, FR_OK);
  g_assert_cmpuint (fr_array_count (&a), ==, 15);
  fr_array_clear (&a);
  g_byte_array_unref (b);
}

/* A .npy file of the given header and data_len bytes of data, written
 * sparse (a hole, no disk blocks): big claimed sizes cost nothing. */
static char *
write_sparse (const char *name, const char *header, guint64 data_len)
{
  GByteArray *b = craft (1, header, 0);
  char *path = write_temp (name, b->data, b->len);

  g_assert_cmpint (truncate (path, (off_t) (b->len + data_len)), ==, 0);
  g_byte_array_unref (b);
  return path;
}

/* Headers that claim far more data than their file holds, at sizes that
 * would hurt were anything allocated for them: 2^40 float32 (4 TiB) and
 * 2^31 float32 (8 GiB, within the element limit) over 16 bytes of data,
 * and 2 GiB claimed by a sparse file of 1 GiB.  Each is refused from the
 * header and the file's size alone, at once.  Checked in a child under a
 * 2 GiB address-space limit, so that a reader that did allocate would fail
 * there instead of taking the machine's memory (not under ASan, whose
 * shadow memory the limit would starve: there the checks alone guard). */
static void
test_lying_header (void)
{
  static const struct { const char *header; guint64 data; const char *says; } cases[] = {
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (1048576, 1048576), }\n", 16,
      "shape (1048576, 1048576) declares more than 2147483648 elements" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (2147483648,), }\n", 16,
      "truncated data: shape (2147483648,) of float32 needs 8589934592 bytes but only 16 are present" },
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (512, 1048576), }\n", (guint64) 1 << 30,
      "needs 2147483648 bytes but only 1073741824 are present" },
  };

  if (g_test_subprocess ())
    {
      struct rlimit lim = { (rlim_t) 2 << 30, (rlim_t) 2 << 30 };

      /* An address-space limit would starve a sanitizer's shadow memory. */
      if (!TEST_UNDER_SANITIZER)
        g_assert_cmpint (setrlimit (RLIMIT_AS, &lim), ==, 0);
      for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          g_autofree char *name = g_strdup_printf ("lying-%zu.npy", c);
          g_autofree char *path = write_sparse (name, cases[c].header, cases[c].data);
          fr_array a = { 0 };
          fr_error err = { 0 };
          gint64 t0 = g_get_monotonic_time ();

          g_assert_cmpint (fr_npy_read (path, &a, &err), ==, FR_E_INPUT);
          g_test_message ("%s", err.message);
          g_assert_true (g_str_has_prefix (err.message, path));
          g_assert_nonnull (strstr (err.message, cases[c].says));
          g_assert_null (a.data);
          g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC);
          g_unlink (path);
        }
      return;
    }
  g_setenv ("FOLDRAY_NPY_SCRATCH", scratch_dir, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A file that holds all its data, but more than this process may use:
 * 1 GiB of float32 (sparse on disk) under a fake cgroup limit of 512 MiB
 * is refused with FR_E_NOMEM before anything is allocated, and the message
 * gives both sizes.  A reader without the check would read the whole GiB
 * and succeed: slow, bounded and harmless, and the test fails. */
static void
test_memory_limit (void)
{
  g_autofree char *root = make_dir ("cgroup-root");
  g_autofree char *self = g_build_filename (root, "proc", "self", NULL);
  g_autofree char *job = g_build_filename (root, "sys", "fs", "cgroup", "job", NULL);
  g_autofree char *self_file = g_build_filename (self, "cgroup", NULL);
  g_autofree char *max_file = g_build_filename (job, "memory.max", NULL);
  g_autofree char *big = write_sparse ("memory-big.npy",
                                       "{'descr': '<f4', 'fortran_order': False, "
                                       "'shape': (16384, 16384), }\n", (guint64) 1 << 30);
  g_autofree char *prefix = g_strconcat (big, ": ", NULL);
  GByteArray *b = craft (1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }\n", 60);
  g_autofree char *small = write_temp ("memory-small.npy", b->data, b->len);
  fr_array a = { .ndim = 7, .data = &a };
  fr_error err = { 0 };
  gint64 t0;

  g_assert_cmpint (g_mkdir_with_parents (self, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (job, 0755), ==, 0);
  g_assert_true (g_file_set_contents (self_file, "0::/job\n", -1, NULL));
  g_assert_true (g_file_set_contents (max_file, "536870912\n", -1, NULL));

  t0 = g_get_monotonic_time ();
  g_assert_cmpint (fr_npy_read_at (big, root, &a, &err), ==, FR_E_NOMEM);
  g_test_message ("%s", err.message);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC);
  g_assert_cmpint (err.code, ==, FR_E_NOMEM);
  g_assert_null (a.data);
  g_assert_cmpint (a.ndim, ==, 0);
  g_assert_true (g_str_has_prefix (err.message, prefix));
  g_assert_nonnull (strstr (err.message, "reading shape (16384, 16384) of float32 needs about "
                            "1.0 GB of memory"));
  if (fr_memory_physical () > 1073741824.0)
    g_assert_nonnull (strstr (err.message, "this process may use 0.5 GB (its cgroup's memory limit)"));

  /* What fits is read as before. */
  g_assert_cmpint (fr_npy_read_at (small, root, &a, &err), ==, FR_OK);
  g_assert_cmpuint (fr_array_count (&a), ==, 15);
  fr_array_clear (&a);

  g_unlink (big);
  g_byte_array_unref (b);
}

static void
test_read_not_a_file (void)
{
  g_autofree char *dir = make_dir ("not-a-file");
  g_autofree char *fifo = g_build_filename (dir, "fifo.npy", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.npy", NULL);
  fr_array a = { 0 };
  fr_error err = { 0 };

  g_assert_cmpint (fr_npy_read (dir, &a, &err), ==, FR_E_INPUT);
  g_assert_true (g_str_has_prefix (err.message, dir));
  g_assert_nonnull (strstr (err.message, "not a regular file"));

  /* A FIFO with no writer must not hang the reader. */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (fr_npy_read (fifo, &a, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "not a regular file"));

  g_assert_cmpint (fr_npy_read (missing, &a, &err), ==, FR_E_IO);
  g_assert_true (g_str_has_prefix (err.message, missing));
  g_assert_nonnull (strstr (err.message, "No such file"));
  g_assert_null (a.data);

  g_assert_cmpint (fr_npy_parse (NULL, 0, &a, &err), ==, FR_E_INPUT);
  g_assert_cmpint (fr_npy_parse (NULL, 5, &a, &err), ==, FR_E_INPUT);
}

/* ---- writing ----------------------------------------------------------- */

static void
test_round_trip (void)
{
  g_autofree char *dir = make_dir ("round-trip");

  for (int f64 = 0; f64 <= 1; f64++)
    for (int ndim = 2; ndim <= 3; ndim++)
      {
        fr_dtype dtype = f64 ? FR_F64 : FR_F32;
        fr_array src = formula_array (dtype, ndim, 4, ndim == 3 ? 3 : 1, 5);
        size_t width = f64 ? 8 : 4, n = fr_array_count (&src);
        g_autofree char *path = g_strdup_printf ("%s/rt-%d-%d.npy", dir, f64, ndim);
        g_autofree char *again = g_strdup_printf ("%s/rt-%d-%d-again.npy", dir, f64, ndim);
        g_autofree char *first = NULL, *second = NULL;
        gsize len1, len2;
        fr_array back = { 0 };
        fr_error err = { 0 };

        /* Values a solver writes: +inf for unreached, -0, a subnormal, NaN. */
        if (f64)
          {
            ((double *) src.data)[0] = INFINITY;
            ((double *) src.data)[1] = -0.0;
            ((double *) src.data)[2] = 4.9e-324;
            ((double *) src.data)[3] = NAN;
          }
        else
          {
            ((float *) src.data)[0] = INFINITY;
            ((float *) src.data)[1] = -0.0f;
            ((float *) src.data)[2] = 1.4e-45f;
            ((float *) src.data)[3] = NAN;
          }

        g_assert_cmpint (fr_npy_write (path, &src, &err), ==, FR_OK);
        g_assert_true (g_file_get_contents (path, &first, &len1, NULL));
        /* Version 1.0, header ends in '\n', data 64-aligned and verbatim. */
        g_assert_cmpmem (first, 8, "\x93NUMPY\x01\x00", 8);
        g_assert_cmpuint (len1 % 64, ==, (n * width) % 64);
        g_assert_cmpuint (len1 - n * width, ==, 10 + ((guint8) first[8] | (guint8) first[9] << 8));
        g_assert_cmpint (first[len1 - n * width - 1], ==, '\n');
        g_assert_cmpmem (first + len1 - n * width, n * width, src.data, n * width);

        g_assert_cmpint (fr_npy_read (path, &back, &err), ==, FR_OK);
        g_assert_cmpint (back.ndim, ==, src.ndim);
        g_assert_cmpint (back.dtype, ==, dtype);
        for (int i = 0; i < ndim; i++)
          g_assert_cmpuint (back.shape[i], ==, src.shape[i]);
        g_assert_cmpmem (back.data, n * width, src.data, n * width);

        /* Writing what was read gives the same file, byte for byte. */
        g_assert_cmpint (fr_npy_write (again, &back, &err), ==, FR_OK);
        g_assert_true (g_file_get_contents (again, &second, &len2, NULL));
        g_assert_cmpmem (first, len1, second, len2);

        fr_array_clear (&back);
        g_free (src.data);
      }
  g_assert_cmpuint (count_hidden (dir), ==, 0);
}

static void
test_numpy_reads_ours (void)
{
  static const char check[] =
    "import sys, numpy as np\n"
    "a = np.load(sys.argv[1])\n"
    "shape = tuple(int(s) for s in sys.argv[2].split(','))\n"
    "assert a.shape == shape, (a.shape, shape)\n"
    "assert a.dtype == np.dtype(sys.argv[3]), a.dtype\n"
    "i = np.indices(shape, dtype=np.float64)\n"
    "v = 1 + 0.5*i[-1] + 0.25*i[0] + (0.125*i[1] if len(shape) == 3 else 0)\n"
    "assert (a == v).all(), a\n";
  g_autofree char *dir = NULL;

  if (find_python () == NULL)
    {
      g_test_skip ("no python3 with numpy");
      return;
    }
  dir = make_dir ("numpy-reads");
  for (int f64 = 0; f64 <= 1; f64++)
    for (int ndim = 2; ndim <= 3; ndim++)
      {
        fr_array a = formula_array (f64 ? FR_F64 : FR_F32, ndim, 4, 3, 5);
        g_autofree char *path = g_strdup_printf ("%s/ours-%d-%d.npy", dir, f64, ndim);
        const char *shape = ndim == 3 ? "4,3,5" : "4,5";
        const char *argv[] = { python, "-c", check, path, shape, f64 ? "<f8" : "<f4", NULL };
        g_autofree char *output = NULL;
        int code;

        g_assert_cmpint (fr_npy_write (path, &a, NULL), ==, FR_OK);
        if (!spawn (argv, &code, &output))
          g_error ("numpy refused %s (exit %d): %s", path, code, output);
        g_free (a.data);
      }
}

static void
test_write_refused (void)
{
  fr_array bad = { .ndim = 0, .dtype = FR_F32 };
  float v[2] = { 1, 2 };
  fr_array no_data = { .ndim = 1, .shape = { 2 }, .dtype = FR_F32 };
  fr_error err = { 0 };
  g_autofree char *dir = make_dir ("write-refused");
  g_autofree char *path = g_build_filename (dir, "x.npy", NULL);

  g_assert_cmpint (fr_npy_write (path, &bad, &err), ==, FR_E_INPUT);
  bad.ndim = 4;
  bad.data = v;
  g_assert_cmpint (fr_npy_write (path, &bad, &err), ==, FR_E_INPUT);
  g_assert_cmpint (fr_npy_write (path, &no_data, &err), ==, FR_E_INPUT);
  g_assert_cmpint (fr_npy_write (path, NULL, &err), ==, FR_E_INPUT);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_hidden (dir), ==, 0);
}

/* ---- atomic files ------------------------------------------------------ */

static void
test_atomic_overwrite_and_mode (void)
{
  g_autofree char *dir = make_dir ("atomic-overwrite");
  g_autofree char *path = g_build_filename (dir, "t.npy", NULL);
  fr_array a = formula_array (FR_F32, 2, 3, 1, 4);
  fr_array b = formula_array (FR_F64, 3, 2, 2, 2);
  fr_array back = { 0 };
  mode_t mask = umask (022);
  struct stat sb;

  g_assert_cmpint (fr_npy_write (path, &a, NULL), ==, FR_OK);
  g_assert_cmpint (fr_npy_write (path, &b, NULL), ==, FR_OK);
  g_assert_cmpint (fr_npy_read (path, &back, NULL), ==, FR_OK);
  g_assert_cmpint (back.dtype, ==, FR_F64);
  g_assert_cmpint (back.ndim, ==, 3);
  fr_array_clear (&back);

  /* A new file: 0644 under the usual umask, and the umask is respected. */
  g_assert_cmpint (g_stat (path, &sb), ==, 0);
  g_assert_cmpint (sb.st_mode & 0777, ==, 0644);
  {
    g_autofree char *fresh = g_build_filename (dir, "u.npy", NULL);

    umask (077);
    g_assert_cmpint (fr_npy_write (fresh, &a, NULL), ==, FR_OK);
    g_assert_cmpint (g_stat (fresh, &sb), ==, 0);
    g_assert_cmpint (sb.st_mode & 0777, ==, 0600);
    g_unlink (fresh);
  }
  /* A file replaced keeps its mode, whatever the umask: 0644 stays 0644
   * under 077, a private 0600 stays private under 022. */
  g_assert_cmpint (fr_npy_write (path, &a, NULL), ==, FR_OK);
  g_assert_cmpint (g_stat (path, &sb), ==, 0);
  g_assert_cmpint (sb.st_mode & 0777, ==, 0644);
  umask (022);
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  g_assert_cmpint (fr_npy_write (path, &b, NULL), ==, FR_OK);
  g_assert_cmpint (g_stat (path, &sb), ==, 0);
  g_assert_cmpint (sb.st_mode & 0777, ==, 0600);
  umask (mask);

  g_assert_cmpuint (count_hidden (dir), ==, 0);
  g_free (a.data);
  g_free (b.data);
}

static void
test_atomic_failures (void)
{
  g_autofree char *dir = make_dir ("atomic-fail");
  g_autofree char *target_dir = g_build_filename (dir, "is-a-dir.npy", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-dir", "x.npy", NULL);
  g_autofree char *trailing = g_build_filename (dir, "sub/", NULL);
  fr_array a = formula_array (FR_F32, 2, 3, 1, 4);
  fr_error err = { 0 };

  /* The target is a directory: the rename fails, the temporary goes. */
  g_assert_cmpint (g_mkdir (target_dir, 0755), ==, 0);
  g_assert_cmpint (fr_npy_write (target_dir, &a, &err), ==, FR_E_IO);
  g_test_message ("%s", err.message);
  g_assert_true (g_str_has_prefix (err.message, target_dir));
  g_assert_nonnull (strstr (err.message, "directory"));
  g_assert_true (g_file_test (target_dir, G_FILE_TEST_IS_DIR));

  g_assert_cmpint (fr_npy_write (missing, &a, &err), ==, FR_E_IO);
  g_assert_true (g_str_has_prefix (err.message, missing));
  g_assert_nonnull (strstr (err.message, "No such file"));

  g_assert_cmpint (fr_npy_write (trailing, &a, &err), ==, FR_E_IO);
  g_assert_nonnull (strstr (err.message, "not a file name"));

  /* A directory nobody may write to.  Root writes anyway, so for root
   * /proc stands in: no file can be created there at all. */
  if (geteuid () != 0)
    {
      g_autofree char *ro = make_dir ("atomic-fail/read-only");
      g_autofree char *ro_path = g_build_filename (ro, "x.npy", NULL);
      g_assert_cmpint (g_chmod (ro, 0555), ==, 0);
      g_assert_cmpint (fr_npy_write (ro_path, &a, &err), ==, FR_E_IO);
      g_assert_true (g_str_has_prefix (err.message, ro_path));
      g_assert_nonnull (strstr (err.message, "Permission denied"));
      g_assert_cmpuint (count_hidden (ro), ==, 0);
      g_assert_cmpint (g_chmod (ro, 0755), ==, 0);
    }
  /* A read-only file in a folder the writer may write: the rename would
   * go through, so the file itself says no (a scene chmod 444 was
   * rewritten, still 444).  Root may write anything, so a child that
   * drops to nobody writes when the test runs as root. */
  {
    /* Under /tmp itself: nobody may not pass through the test's folders. */
    g_autofree char *rw = g_dir_make_tmp ("foldray-ro-XXXXXX", NULL);
    g_autofree char *ro_file = g_build_filename (rw, "ro.npy", NULL);
    g_autofree char *before = NULL, *after = NULL;
    gsize lb = 0, la = 0;
    int status = -1;
    pid_t pid;

    g_assert_cmpint (fr_npy_write (ro_file, &a, NULL), ==, FR_OK);
    g_assert_true (g_file_get_contents (ro_file, &before, &lb, NULL));
    g_assert_cmpint (g_chmod (rw, 0777), ==, 0);
    g_assert_cmpint (g_chmod (ro_file, 0444), ==, 0);
    if (geteuid () == 0)
      {
        g_assert_cmpint (chown (rw, 65534, 65534), ==, 0);
        g_assert_cmpint (chown (ro_file, 65534, 65534), ==, 0);
      }
    pid = fork ();
    g_assert_cmpint (pid, >=, 0);
    if (pid == 0)
      {
        fr_array b = formula_array (FR_F32, 2, 3, 7, 4);
        fr_error e = { 0 };

        if (geteuid () == 0 && (setgid (65534) != 0 || setuid (65534) != 0))
          _exit (3);
        if (fr_npy_write (ro_file, &b, &e) != FR_E_IO)
          _exit (4);
        _exit (g_str_has_prefix (e.message, ro_file) && strstr (e.message, "read-only") != NULL ? 0 : 5);
      }
    g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    g_assert_true (g_file_get_contents (ro_file, &after, &la, NULL));
    g_assert_cmpmem (after, la, before, lb);
    g_assert_cmpuint (count_hidden (rw), ==, 0);
    g_unlink (ro_file);
    g_rmdir (rw);
  }
  if (g_file_test ("/proc/self", G_FILE_TEST_IS_DIR))
    {
      g_assert_cmpint (fr_npy_write ("/proc/foldray-test.npy", &a, &err), ==, FR_E_IO);
      g_assert_true (g_str_has_prefix (err.message, "/proc/foldray-test.npy: "));
    }

  g_assert_cmpuint (count_hidden (dir), ==, 0);
  g_free (a.data);
}

/* A write that fails midway (the file size limit stops it after 4 KiB)
 * leaves the old file as it was and no temporary behind.  Runs in a child:
 * the limit must not touch the test runner. */
static void
test_atomic_fail_midway (void)
{
  g_autofree char *dir = g_build_filename (scratch_dir, "atomic-midway", NULL);
  g_autofree char *path = g_build_filename (dir, "t.npy", NULL);

  if (g_test_subprocess ())
    {
      struct rlimit lim = { 4096, 4096 };
      fr_array big = formula_array (FR_F32, 2, 100, 1, 100);
      fr_error err = { 0 };
      fr_atomic_file af;

      signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &lim), ==, 0);
      g_assert_cmpint (fr_npy_write (path, &big, &err), ==, FR_E_IO);
      g_assert_true (g_str_has_prefix (err.message, path));
      g_assert_nonnull (strstr (err.message, "too large"));

      /* The same through the atomic file alone: the fwrite failure surfaces
       * at commit from the stream's error flag. */
      g_assert_cmpint (fr_atomic_open (&af, path, &err), ==, FR_OK);
      for (int i = 0; i < 10; i++)
        fwrite (big.data, 4, 1000, af.fp);
      g_assert_cmpint (fr_atomic_commit (&af, &err), ==, FR_E_IO);
      g_assert_true (g_str_has_prefix (err.message, path));
      g_assert_null (af.tmp_path);
      fr_atomic_abort (&af);  /* harmless after a failed commit */
      g_free (big.data);
      return;
    }

  {
    fr_array small = formula_array (FR_F32, 2, 2, 1, 2);
    g_autofree char *before = NULL, *after = NULL;
    gsize len_before, len_after;

    g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
    g_assert_cmpint (fr_npy_write (path, &small, NULL), ==, FR_OK);
    g_assert_true (g_file_get_contents (path, &before, &len_before, NULL));
    g_setenv ("FOLDRAY_NPY_SCRATCH", scratch_dir, TRUE);
    g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed ();
    g_assert_true (g_file_get_contents (path, &after, &len_after, NULL));
    g_assert_cmpmem (before, len_before, after, len_after);
    g_assert_cmpuint (count_hidden (dir), ==, 0);
    g_free (small.data);
  }
}

static void
test_atomic_abort (void)
{
  g_autofree char *dir = make_dir ("atomic-abort");
  g_autofree char *path = g_build_filename (dir, "t.txt", NULL);
  g_autofree char *rel_dir = NULL;
  g_autofree char *cwd = g_get_current_dir ();
  fr_atomic_file af;
  fr_error err = { 0 };
  struct stat sb;

  g_assert_cmpint (fr_atomic_open (&af, path, &err), ==, FR_OK);
  g_assert_true (g_str_has_prefix (af.tmp_path, dir));
  g_assert_nonnull (strstr (af.tmp_path, "/.t.txt."));
  g_assert_true (g_file_test (af.tmp_path, G_FILE_TEST_EXISTS));
  fputs ("discarded", af.fp);
  fr_atomic_abort (&af);
  fr_atomic_abort (&af);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_hidden (dir), ==, 0);

  /* Committing nothing fails cleanly. */
  g_assert_cmpint (fr_atomic_commit (&af, &err), ==, FR_E_IO);

  /* A bare name goes to the current directory. */
  g_assert_cmpint (g_chdir (dir), ==, 0);
  g_assert_cmpint (fr_atomic_open (&af, "bare.txt", &err), ==, FR_OK);
  g_assert_true (g_str_has_prefix (af.tmp_path, ".bare.txt."));
  fputs ("kept\n", af.fp);
  g_assert_cmpint (fr_atomic_commit (&af, &err), ==, FR_OK);
  g_assert_null (af.fp);
  g_assert_null (af.path);
  g_assert_cmpint (g_chdir (cwd), ==, 0);
  rel_dir = g_build_filename (dir, "bare.txt", NULL);
  g_assert_cmpint (g_stat (rel_dir, &sb), ==, 0);
  g_assert_cmpint (sb.st_size, ==, 5);
  g_assert_cmpuint (count_hidden (dir), ==, 0);
}

/* ---- arrays ------------------------------------------------------------ */

static void
test_array_convert (void)
{
  float f[6] = { 1.5f, -2.0f, 0.0f, INFINITY, 3.25f, 1e-3f };
  double d[6] = { 1.5, -2.0, 0.0, INFINITY, 1.0 / 3.0, 1e300 };
  fr_array af = { .ndim = 2, .shape = { 2, 3 }, .dtype = FR_F32, .data = f };
  fr_array ad = { .ndim = 2, .shape = { 3, 2 }, .dtype = FR_F64, .data = d };
  float *of = NULL;
  double *od = NULL;
  fr_error err = { 0 };

  g_assert_cmpint (fr_array_to_f32 (&af, &of, &err), ==, FR_OK);
  g_assert_cmpmem (of, sizeof f, f, sizeof f);
  g_free (of);
  g_assert_cmpint (fr_array_to_f64 (&af, &od, &err), ==, FR_OK);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat (od[i], ==, (double) f[i]);
  g_free (od);

  g_assert_cmpint (fr_array_to_f64 (&ad, &od, &err), ==, FR_OK);
  g_assert_cmpmem (od, sizeof d, d, sizeof d);
  g_free (od);
  /* Narrowing rounds to nearest; out of range becomes inf. */
  g_assert_cmpint (fr_array_to_f32 (&ad, &of, &err), ==, FR_OK);
  g_assert_cmpfloat (of[4], ==, (float) (1.0 / 3.0));
  g_assert_true (isinf (of[5]) && of[5] > 0);
  g_assert_cmpfloat (of[1], ==, -2.0f);
  g_free (of);

  /* Refused: no shape, no data. */
  ad.ndim = 0;
  of = (float *) &err;
  g_assert_cmpint (fr_array_to_f32 (&ad, &of, &err), ==, FR_E_INPUT);
  g_assert_null (of);
  ad.ndim = 2;
  ad.data = NULL;
  g_assert_cmpint (fr_array_to_f64 (&ad, &od, &err), ==, FR_E_INPUT);
  g_assert_null (od);
  g_assert_cmpint (fr_array_to_f64 (NULL, &od, &err), ==, FR_E_INPUT);
  g_assert_cmpint (fr_array_to_f64 (&af, NULL, &err), ==, FR_E_INPUT);
}

/* A speed grid on its way to the solvers: float32 is borrowed, float64 is
 * checked before it is narrowed (1e-50 would otherwise become an obstacle,
 * -1e-50 a -0.0 obstacle, 1e300 an infinite speed), then copied. */
static void
test_array_speed (void)
{
  float f[6] = { 1.0f, 2.0f, 0.0f, 3.0f, 4.0f, 5.0f };
  double d[6] = { 1.0, 2.0, 0.0, 3.0, 0.1, 1e30 };
  fr_array af = { .ndim = 2, .shape = { 2, 3 }, .dtype = FR_F32, .data = f };
  fr_array ad = { .ndim = 2, .shape = { 2, 3 }, .dtype = FR_F64, .data = d };
  fr_grid g = fr_grid_2d (3, 2, 1.0, 1.0, 0.0, 0.0);
  float *out = NULL;
  bool copied = true;
  fr_error err = { 0 };

  g_assert_cmpint (fr_array_speed_f32 (&af, &g, "F.npy", &out, &copied, &err), ==, FR_OK);
  g_assert_true (out == f);
  g_assert_false (copied);
  f[4] = -1.0f;
  g_assert_cmpint (fr_array_speed_f32 (&af, &g, "F.npy", &out, &copied, &err), ==, FR_E_INPUT);
  g_assert_null (out);
  g_assert_nonnull (strstr (err.message, "F.npy holds a negative value at node (ix=1, iz=1)"));

  g_assert_cmpint (fr_array_speed_f32 (&ad, &g, "F.npy", &out, &copied, &err), ==, FR_OK);
  g_assert_true (copied);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat (out[i], ==, (float) d[i]);
  g_free (out);

  const double bad[] = { -1e-50, 1e-50, 1e300, NAN, -INFINITY };
  const char *says[] = { "negative", "single precision's range", "single precision's range",
                         "NaN", "infinite" };
  for (size_t k = 0; k < G_N_ELEMENTS (bad); k++)
    {
      d[5] = bad[k];
      out = (float *) &err;
      g_assert_cmpint (fr_array_speed_f32 (&ad, &g, "F.npy", &out, &copied, &err), ==, FR_E_INPUT);
      g_assert_null (out);
      g_assert_false (copied);
      g_assert_nonnull (strstr (err.message, "F.npy holds"));
      g_assert_nonnull (strstr (err.message, "(ix=2, iz=1)"));
      g_assert_nonnull (strstr (err.message, says[k]));
    }
  /* -0.0 equals 0: an obstacle, as in float32. */
  d[5] = -0.0;
  g_assert_cmpint (fr_array_speed_f32 (&ad, &g, "F.npy", &out, &copied, &err), ==, FR_OK);
  g_assert_cmpfloat (out[5], ==, 0.0f);
  g_free (out);

  /* The array must cover the grid. */
  g = fr_grid_2d (2, 2, 1.0, 1.0, 0.0, 0.0);
  g_assert_cmpint (fr_array_speed_f32 (&ad, &g, "F.npy", &out, &copied, &err), ==, FR_E_INPUT);
  g_assert_null (out);
}

static void
test_array_grid_shape (void)
{
  fr_array a2 = { .ndim = 2, .shape = { 4, 7 } };
  fr_array a3 = { .ndim = 3, .shape = { 4, 5, 6 } };
  fr_array a1 = { .ndim = 1, .shape = { 4 } };
  fr_array a0 = { .ndim = 2, .shape = { 0, 7 } };
  fr_grid g = fr_grid_2d (1, 1, 0.5, 2.0, -1.0, 3.0);
  fr_array w;
  fr_error err = { 0 };

  g_assert_cmpint (fr_array_grid_shape (&a2, &g, &err), ==, FR_OK);
  g_assert_cmpint (g.ndim, ==, 2);
  g_assert_cmpuint (g.nx, ==, 7);
  g_assert_cmpuint (g.ny, ==, 1);
  g_assert_cmpuint (g.nz, ==, 4);
  /* Spacing and origin are the caller's. */
  g_assert_cmpfloat (g.dx, ==, 0.5);
  g_assert_cmpfloat (g.z0, ==, 3.0);

  g_assert_cmpint (fr_array_grid_shape (&a3, &g, &err), ==, FR_OK);
  g_assert_cmpint (g.ndim, ==, 3);
  g_assert_cmpuint (g.nx, ==, 6);
  g_assert_cmpuint (g.ny, ==, 5);
  g_assert_cmpuint (g.nz, ==, 4);

  g_assert_cmpint (fr_array_grid_shape (&a1, &g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "1D"));
  g_assert_cmpint (fr_array_grid_shape (&a0, &g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "empty"));

  /* wrap_grid is the inverse. */
  w = fr_array_wrap_grid (&g, FR_F64, NULL);
  g_assert_cmpint (w.ndim, ==, 3);
  g_assert_cmpuint (w.shape[0], ==, 4);
  g_assert_cmpuint (w.shape[1], ==, 5);
  g_assert_cmpuint (w.shape[2], ==, 6);
  g_assert_cmpuint (fr_array_count (&w), ==, 120);
  g = fr_grid_2d (7, 4, 1, 1, 0, 0);
  w = fr_array_wrap_grid (&g, FR_F32, NULL);
  g_assert_cmpint (w.ndim, ==, 2);
  g_assert_cmpuint (w.shape[0], ==, 4);
  g_assert_cmpuint (w.shape[1], ==, 7);

  /* count saturates instead of wrapping; clear is safe on a zeroed array. */
  w.ndim = 3;
  w.shape[0] = w.shape[1] = w.shape[2] = (size_t) 1 << 32;
  g_assert_cmpuint (fr_array_count (&w), ==, SIZE_MAX);
  w.shape[1] = 0;
  g_assert_cmpuint (fr_array_count (&w), ==, 0);
  memset (&w, 0, sizeof w);
  fr_array_clear (&w);
  fr_array_clear (NULL);
}

/* ---- fuzzing regressions ------------------------------------------------ */

/* Every seed of the fuzzer's corpus: 'ok-' files parse, 'bad-' files are
 * refused, and nothing crashes. */
static void
test_fuzz_corpus (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", NULL);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *bytes = NULL;
      gsize len;
      fr_array a = { 0 };
      fr_error err = { 0 };
      fr_status st;

      g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
      st = fr_npy_parse ((const guint8 *) bytes, len, &a, &err);
      g_test_message ("%s: %s %s", name, fr_status_name (st), err.message);
      if (g_str_has_prefix (name, "ok-"))
        g_assert_cmpint (st, ==, FR_OK);
      else if (g_str_has_prefix (name, "bad-"))
        g_assert_cmpint (st, ==, FR_E_INPUT);
      if (st != FR_OK)
        g_assert_null (a.data);
      fr_array_clear (&a);
      n++;
    }
  g_dir_close (d);
  g_assert_cmpuint (n, >=, 5);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  /* A subprocess (see fail-midway) works in its parent's scratch directory. */
  if (g_test_subprocess () && g_getenv ("FOLDRAY_NPY_SCRATCH") != NULL)
    scratch_dir = g_strdup (g_getenv ("FOLDRAY_NPY_SCRATCH"));
  else
    scratch_dir = g_dir_make_tmp ("foldray-npy-XXXXXX", NULL);
  g_assert_nonnull (scratch_dir);

  g_test_add_func ("/npy/numpy-fixtures/values", test_numpy_fixtures);
  g_test_add_func ("/npy/numpy-fixtures/other", test_numpy_fixtures_other);
  g_test_add_func ("/npy/numpy-fixtures/refused", test_numpy_fixtures_refused);
  g_test_add_func ("/npy/header-variants", test_header_variants);
  g_test_add_func ("/npy/malformed/preamble", test_malformed_preamble);
  g_test_add_func ("/npy/malformed/header", test_malformed_header);
  g_test_add_func ("/npy/malformed/absurd-shape", test_absurd_shape);
  g_test_add_func ("/npy/malformed/truncated-data", test_truncated_data);
  g_test_add_func ("/npy/malformed/lying-header", test_lying_header);
  g_test_add_func ("/npy/memory-limit", test_memory_limit);
  g_test_add_func ("/npy/read-not-a-file", test_read_not_a_file);
  g_test_add_func ("/npy/write/round-trip", test_round_trip);
  g_test_add_func ("/npy/write/numpy-reads-ours", test_numpy_reads_ours);
  g_test_add_func ("/npy/write/refused", test_write_refused);
  g_test_add_func ("/atomic-file/overwrite-and-mode", test_atomic_overwrite_and_mode);
  g_test_add_func ("/atomic-file/failures", test_atomic_failures);
  g_test_add_func ("/atomic-file/fail-midway", test_atomic_fail_midway);
  g_test_add_func ("/atomic-file/abort", test_atomic_abort);
  g_test_add_func ("/array/convert", test_array_convert);
  g_test_add_func ("/array/grid-shape", test_array_grid_shape);
  g_test_add_func ("/array/speed", test_array_speed);
  g_test_add_func ("/npy/fuzz/corpus", test_fuzz_corpus);

  status = g_test_run ();
  if (!g_test_subprocess ())
    test_tmpdir_remove (scratch_dir);
  g_free (scratch_dir);
  g_free (fixture_dir);
  g_free (python);
  return status;
}
