/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A test's scratch folders, removed whole at the end.  The removal does
 * not follow symbolic links: a link a test made to a folder elsewhere (the
 * output checks make such links) goes, what it points at stays. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

static inline void
test_tmpdir_remove (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            test_tmpdir_remove (child);
          else
            g_unlink (child);
        }
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_remove (path);
}

/* Runs child (dir) in a subprocess of this test, dir a fresh scratch
 * folder named in $var (a child may set limits, a locale or a mount
 * namespace that must not outlive it); the test is skipped with the
 * reason a child left in dir/skip where it could not set up. */
static inline void
test_in_subprocess (const char *var, void (*child) (const char *dir))
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *skip = NULL;
  g_autofree char *why = NULL;

  if (g_test_subprocess ())
    {
      child (g_getenv (var));
      return;
    }
  dir = g_dir_make_tmp ("foldray-test-XXXXXX", &error);
  g_assert_no_error (error);
  skip = g_build_filename (dir, "skip", NULL);
  g_setenv (var, dir, TRUE);
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv (var);
  g_test_trap_assert_passed ();
  if (g_file_get_contents (skip, &why, NULL, NULL))
    g_test_skip (why);
  test_tmpdir_remove (dir);
}
