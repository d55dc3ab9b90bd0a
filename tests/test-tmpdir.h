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
