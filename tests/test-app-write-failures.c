/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every writer of the app (the scene, the bytes of a picture or figure,
 * the T and velocity grids as .npy and .vti, rays as CSV and .vtp, the
 * receivers file) over an old good file, on a disk that fails: full
 * (ENOSPC), read-only (EROFS), over the file-size limit (EFBIG, which
 * killed the app with SIGXFSZ before fr_process_guard_writes).  Each
 * returns FALSE with one message that names the file once and says why;
 * the old file keeps its bytes, and no temporary file is left.
 *
 * The disk is a small tmpfs mounted in a mount namespace of a test
 * subprocess: it goes with the subprocess however that ends, and where no
 * namespace or mount may be made (not root, no user namespaces) the test
 * is skipped with the reason. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* unshare */
#endif
#include <errno.h>
#include <glib.h>
#include <locale.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#include <sys/mount.h>
#endif

#include "fr-export.h"
#include "fr-job.h"
#include "fr-process.h"
#include "fr-scene-file.h"
#include "fr-scene.h"
#include "fr-solver-i18n.h"
#include "fr-i18n.h"
#include "test-catalogue.h"
#include "test-tmpdir.h"
#include "test-tmpfs.h"

#define NX 60
#define NZ 40

typedef struct
{
  FrSceneDoc *doc;
  FrScene    *scene;
  fr_grid     grid;
  float      *values;
  FrResult    result;    /* only .rays */
  GString    *bytes;     /* a picture's or figure's bytes */
} Data;

static void
data_init (Data *d)
{
  g_autoptr(GBytes) vb = NULL;

  d->grid = fr_grid_2d (NX, NZ, 0.1, 0.1, 0.0, 0.0);
  d->values = g_new (float, NX * NZ);
  for (guint i = 0; i < NX * NZ; i++)
    d->values[i] = 1.0f + 0.001f * i;
  d->doc = fr_scene_doc_new (fr_model_new (&d->grid, 1.5));
  d->doc->title = g_strdup ("a scene long enough to need a page of its own");

  d->scene = fr_scene_new ();
  vb = g_bytes_new (d->values, NX * NZ * sizeof (float));
  g_assert_true (fr_scene_set_model (d->scene, "small", &d->grid, vb, NULL));
  for (guint i = 0; i < 50; i++)
    fr_scene_add_marker (d->scene, FR_MARKER_RECEIVER, 0.1 * i, 0.5 + 0.05 * (i % 10));

  d->result.rays = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint r = 0; r < 10; r++)
    {
      GArray *ray = g_array_new (FALSE, FALSE, sizeof (double));

      for (guint p = 0; p < 100; p++)
        {
          double xz[2] = { 0.05 * p, 0.01 * p * r };
          g_array_append_vals (ray, xz, 2);
        }
      g_ptr_array_add (d->result.rays, ray);
    }

  d->bytes = g_string_new (NULL);
  for (guint i = 0; i < 20000; i++)
    g_string_append_c (d->bytes, (char) ('a' + i % 26));
}

static void
data_clear (Data *d)
{
  fr_scene_doc_free (d->doc);
  g_object_unref (d->scene);
  g_free (d->values);
  g_ptr_array_unref (d->result.rays);
  g_string_free (d->bytes, TRUE);
}

typedef struct
{
  const char *name;    /* also the file's name */
  gboolean  (*write) (Data *d, const char *path, GError **error);
} Writer;

static gboolean
write_scene (Data *d, const char *path, GError **error)
{
  return fr_scene_doc_save (d->doc, path, error);
}

static gboolean
write_bytes (Data *d, const char *path, GError **error)
{
  return fr_export_write_file (path, d->bytes->str, d->bytes->len, error);
}

static gboolean
write_npy (Data *d, const char *path, GError **error)
{
  return fr_export_grid (FR_EXPORT_TIME_NPY, &d->grid, d->values, "T", path, error);
}

static gboolean
write_vti (Data *d, const char *path, GError **error)
{
  return fr_export_grid (FR_EXPORT_VELOCITY_VTI, &d->grid, d->values, "velocity", path, error);
}

static gboolean
write_rays_csv (Data *d, const char *path, GError **error)
{
  return fr_export_rays (FR_EXPORT_RAYS_CSV, &d->result, path, error);
}

static gboolean
write_rays_vtp (Data *d, const char *path, GError **error)
{
  return fr_export_rays (FR_EXPORT_RAYS_VTP, &d->result, path, error);
}

static gboolean
write_receivers (Data *d, const char *path, GError **error)
{
  return fr_export_receivers (d->scene, path, error);
}

static const Writer writers[] = {
  { "scene ñ.json", write_scene },
  { "figure ñ.svg", write_bytes },
  { "T ñ.npy", write_npy },
  { "velocity ñ.vti", write_vti },
  { "rays ñ.csv", write_rays_csv },
  { "rays ñ.vtp", write_rays_vtp },
  { "receivers ñ.csv", write_receivers },
};

static const char old_bytes[] = "an old good file\n";

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The folder's entries, sorted, in one string. */
static char *
listing (const char *dir)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv ("|", (char **) names->pdata);
}

static guint
count_of (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* Each writer over its old file in dir fails with errno e: one message
 * naming the file once with e's reason; the old bytes and the folder's
 * entries as they were. */
static void
assert_all_fail (Data *d, const char *dir, int e)
{
  g_autofree char *before = listing (dir);

  for (guint w = 0; w < G_N_ELEMENTS (writers); w++)
    {
      g_autofree char *path = g_build_filename (dir, writers[w].name, NULL);
      g_autofree char *after = NULL;
      g_autofree char *now = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      g_test_message ("%s: %s", writers[w].name, g_strerror (e));
      g_assert_false (writers[w].write (d, path, &error));
      g_assert_nonnull (error);
      g_test_message ("  %s", error->message);
      g_assert_cmpuint (count_of (error->message, writers[w].name), ==, 1);
      g_assert_cmpuint (count_of (error->message, g_strerror (e)), ==, 1);
      g_assert_null (strchr (error->message, '\n'));
      g_assert_true (g_file_get_contents (path, &after, &len, NULL));
      g_assert_cmpmem (after, len, old_bytes, sizeof old_bytes - 1);
      now = listing (dir);
      g_assert_cmpstr (now, ==, before);
    }
}

static void
write_old_files (const char *dir)
{
  for (guint w = 0; w < G_N_ELEMENTS (writers); w++)
    {
      g_autofree char *path = g_build_filename (dir, writers[w].name, NULL);

      g_assert_true (g_file_set_contents (path, old_bytes, -1, NULL));
    }
}

#ifdef __linux__
static void
disk_child (const char *dir)
{
  g_autofree char *mnt = g_build_filename (dir, "mnt", NULL);
  g_autofree char *filler = g_build_filename (mnt, "filler", NULL);
  Data d = { 0 };

  if (!test_tmpfs_mount (dir, mnt, 256))
    return;
  data_init (&d);
  write_old_files (mnt);

  /* Full. */
  test_tmpfs_fill (filler, 0);
  assert_all_fail (&d, mnt, ENOSPC);
  g_assert_cmpint (g_unlink (filler), ==, 0);

  /* Read-only. */
  g_assert_cmpint (mount (NULL, mnt, NULL, MS_REMOUNT | MS_RDONLY, NULL), ==, 0);
  assert_all_fail (&d, mnt, EROFS);
  g_assert_cmpint (mount (NULL, mnt, NULL, MS_REMOUNT, NULL), ==, 0);

  data_clear (&d);
  g_assert_cmpint (umount (mnt), ==, 0);
}
#endif

/* A full disk, then a read-only one. */
static void
test_disk (void)
{
#ifdef __linux__
  test_in_subprocess ("FOLDRAY_TEST_WRITE_DISK", disk_child);
#else
  g_test_skip ("a tmpfs in a mount namespace is Linux's");
#endif
}

/* Over the file-size limit: EFBIG, once the app's main has done what
 * fr_process_guard_writes does; without it SIGXFSZ killed the process. */
static void
file_size_child (const char *dir)
{
  struct rlimit small = { 0 };
  Data d = { 0 };

  fr_process_guard_writes ();
  data_init (&d);
  write_old_files (dir);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &small), ==, 0);
  small.rlim_cur = sizeof old_bytes;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);
  assert_all_fail (&d, dir, EFBIG);
  data_clear (&d);
}

static void
test_file_size_limit (void)
{
  test_in_subprocess ("FOLDRAY_TEST_WRITE_FSIZE", file_size_child);
}

/* In the app's language, through its catalogue (the build's .mo files):
 * the reason a write failed is the app's, not the English of the library
 * ("cannot create a temporary file beside it", "cannot write") inside a
 * Spanish or Norwegian dialog.  Run in a subprocess for the file-size
 * limit and the locale. */
static void
translated_child (const char *dir)
{
  static const struct { const char *language, *no_folder, *too_large; } cases[] = {
    { "es", "no se puede crear un archivo temporal a su lado", "no se puede escribir" },
    { "nb", "kan ikke opprette en midlertidig fil ved siden av", "kan ikke skrive" },
  };
  struct rlimit small = { 0 };
  Data d = { 0 };
  TestCatalogue saved;

  test_catalogue_begin (&saved);
  fr_process_guard_writes ();
  data_init (&d);
  write_old_files (dir);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &small), ==, 0);
  small.rlim_cur = sizeof old_bytes;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      test_catalogue_use (cases[c].language);
      for (guint w = 0; w < G_N_ELEMENTS (writers); w++)
        {
          g_autofree char *missing = g_build_filename (dir, "missing", writers[w].name, NULL);
          g_autofree char *path = g_build_filename (dir, writers[w].name, NULL);
          g_autoptr(GError) no_folder = NULL;
          g_autoptr(GError) too_large = NULL;

          g_assert_false (writers[w].write (&d, missing, &no_folder));
          g_assert_false (writers[w].write (&d, path, &too_large));
          g_test_message ("%s | %s", no_folder->message, too_large->message);
          g_assert_nonnull (strstr (no_folder->message, cases[c].no_folder));
          g_assert_null (strstr (no_folder->message, "cannot"));
          g_assert_null (strstr (no_folder->message, "Could not"));
          g_assert_null (strstr (too_large->message, "cannot"));
          g_assert_null (strstr (too_large->message, "Could not"));
          /* The scene and the bytes are written in one piece and say
           * why with the reason alone. */
          if (w != 0 && w != 1)
            g_assert_nonnull (strstr (too_large->message, cases[c].too_large));
        }
    }
  test_catalogue_end (&saved);
  data_clear (&d);
}

static void
test_translated (void)
{
  if (!g_test_subprocess () && g_getenv ("FOLDRAY_LOCALE_DIR") == NULL)
    {
      g_test_skip ("FOLDRAY_LOCALE_DIR names no catalogue");
      return;
    }
  test_in_subprocess ("FOLDRAY_TEST_WRITE_I18N", translated_child);
}

/* A file name that is not UTF-8 (Latin-1 bytes from an old archive):
 * the message is still UTF-8, as GError's and GTK's labels need (the
 * dialog had shown nothing past the bad byte, with a Pango warning), and
 * names the file with the bad byte replaced, once. */
static void
test_non_utf8_name (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("foldray-write-XXXXXX", &error);
  Data d = { 0 };

  g_assert_no_error (error);
  data_init (&d);
  for (guint w = 0; w < G_N_ELEMENTS (writers); w++)
    {
      g_autofree char *name = g_strconcat ("caf\xe9 ", writers[w].name, NULL);
      g_autofree char *shown = g_strconcat ("caf\xef\xbf\xbd ", writers[w].name, NULL);
      g_autofree char *path = g_build_filename (dir, "missing", name, NULL);
      g_autoptr(GError) failed = NULL;

      g_assert_false (writers[w].write (&d, path, &failed));
      g_assert_nonnull (failed);
      g_assert_true (g_utf8_validate (failed->message, -1, NULL));
      g_assert_cmpuint (count_of (failed->message, shown), ==, 1);
      g_assert_cmpuint (count_of (failed->message, g_strerror (ENOENT)), ==, 1);
    }
  /* The name checked before any export: a suffix of another format, and
   * a suffix added onto a file that exists. */
  {
    g_autofree char *wrong = g_build_filename (dir, "caf\xe9.npy", NULL);
    g_autofree char *stem = g_build_filename (dir, "caf\xe9", NULL);
    g_autofree char *taken = g_build_filename (dir, "caf\xe9.vti", NULL);
    g_autoptr(GError) refused = NULL;
    g_autoptr(GError) exists = NULL;

    g_assert_null (fr_export_file_for (FR_EXPORT_TIME_VTI, wrong, &refused));
    g_assert_true (g_utf8_validate (refused->message, -1, NULL));
    g_assert_cmpuint (count_of (refused->message, "caf\xef\xbf\xbd.npy"), ==, 1);
    g_assert_true (g_file_set_contents (taken, "", -1, NULL));
    g_assert_null (fr_export_file_for (FR_EXPORT_TIME_VTI, stem, &exists));
    g_assert_true (g_utf8_validate (exists->message, -1, NULL));
    g_assert_cmpuint (count_of (exists->message, "caf\xef\xbf\xbd.vti"), ==, 1);
  }
  data_clear (&d);
  test_tmpdir_remove (dir);
}

/* Each writer, through a symbolic link to a private (0600) old file,
 * succeeds: the link stays a link, its target gets the new bytes and keeps
 * its mode, and no temporary file is left in either folder. */
static void
test_through_link (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("foldray-write-XXXXXX", &error);
  g_autofree char *real = g_build_filename (dir, "real", NULL);
  Data d = { 0 };

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir (real, 0755), ==, 0);
  data_init (&d);
  for (guint w = 0; w < G_N_ELEMENTS (writers); w++)
    {
      g_autofree char *target = g_build_filename (real, writers[w].name, NULL);
      g_autofree char *link = g_build_filename (dir, writers[w].name, NULL);
      g_autofree char *after = NULL;
      g_autoptr(GError) failed = NULL;
      GStatBuf st;

      g_assert_true (g_file_set_contents (target, old_bytes, -1, NULL));
      g_assert_cmpint (g_chmod (target, 0600), ==, 0);
      g_assert_cmpint (symlink (target, link), ==, 0);
      g_assert_true (writers[w].write (&d, link, &failed));
      g_assert_no_error (failed);
      g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
      g_assert_cmpint (g_stat (target, &st), ==, 0);
      g_assert_cmpint (st.st_mode & 07777, ==, 0600);
      g_assert_true (g_file_get_contents (target, &after, NULL, NULL));
      g_assert_cmpstr (after, !=, old_bytes);
    }
  /* The links, "real", and in it the targets: nothing else. */
  {
    g_autofree char *top = listing (dir);
    g_autofree char *inside = listing (real);

    g_assert_cmpuint (count_of (top, "|"), ==, G_N_ELEMENTS (writers));
    g_assert_cmpuint (count_of (inside, "|"), ==, G_N_ELEMENTS (writers) - 1);
    g_assert_null (strstr (inside, "|."));
    g_assert_false (g_str_has_prefix (inside, "."));
  }
  data_clear (&d);
  test_tmpdir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/write/disk-full-read-only", test_disk);
  g_test_add_func ("/app/write/file-size-limit", test_file_size_limit);
  g_test_add_func ("/app/write/translated", test_translated);
  g_test_add_func ("/app/write/non-utf8-name", test_non_utf8_name);
  g_test_add_func ("/app/write/through-link", test_through_link);
  return g_test_run ();
}
