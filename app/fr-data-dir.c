/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>

#include "fr-data-dir.h"

/* Whether this process is the app run from its build folder: only then is
 * the source tree its data (an installed binary had read the build
 * machine's checkout while it existed, and found nothing once it was gone,
 * so an install never showed that its data was missing; helper-67). */
static gboolean
running_uninstalled (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = NULL;
  g_autoptr(GFile) here = NULL, build = NULL;

  if (exe == NULL)
    return FALSE;
  dir = g_path_get_dirname (exe);
  here = g_file_new_for_path (dir);
  build = g_file_new_for_path (FOLDRAY_APP_BUILDDIR);
  return g_file_equal (here, build);
}

char *
fr_data_find (const char *folder, const char *file)
{
  const char *dirs[3] = { g_getenv ("FOLDRAY_DATA_DIR"), NULL, FOLDRAY_PKGDATADIR };

  g_return_val_if_fail (folder != NULL && file != NULL, NULL);

  if (running_uninstalled ())
    dirs[1] = FOLDRAY_SOURCE_DATADIR;
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = NULL;

      if (dirs[i] == NULL || dirs[i][0] == '\0')
        continue;
      path = g_build_filename (dirs[i], folder, file, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }
  return NULL;
}
