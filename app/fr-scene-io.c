/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-scene-io"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "fr-data-dir.h"
#include "fr-scene-file.h"
#include "fr-scene-io.h"

G_DEFINE_QUARK (fr-scene-io-error-quark, fr_scene_io_error)

/* The path of the bundled file folder/NAME.ending, or NULL
 * (fr-data-dir.h says where it is looked for). */
static char *
find_bundled (const char *folder,
              const char *name,
              const char *ending)
{
  g_autofree char *file = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  file = g_strconcat (name, ending, NULL);
  return fr_data_find (folder, file);
}

/* The path of a bundled example grid ("three-layer", "gradient"), or NULL. */
char *
fr_scene_io_find_example (const char *name)
{
  return find_bundled ("examples", name, ".npy");
}

/* The path of a bundled example scene (data/scenes/NAME.json), or NULL. */
char *
fr_scene_io_find_example_scene (const char *name)
{
  return find_bundled ("scenes", name, ".json");
}

/* Built-in stand-ins, so the application opens on something even when the
 * example files are not installed: 3 km × 2 km at 0.01 km. */
static GBytes *
builtin_example (const char *name,
                 fr_grid    *grid)
{
  fr_grid g = fr_grid_2d (301, 201, 0.01, 0.01, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));

  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      {
        double z = g.z0 + iz * g.dz;
        float value;

        if (g_strcmp0 (name, "gradient") == 0)
          value = (float) (1.5 + 1.0 * z);
        else
          value = z < 0.6 ? 1.5f : z < 1.3 ? 2.5f : 3.5f;
        v[fr_grid_index (&g, ix, 0, iz)] = value;
      }
  *grid = g;
  return g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
}

/* Loads a bundled example with its sidecar geometry; falls back to a
 * built-in model of the same kind when the file is absent. */
gboolean
fr_scene_io_load_example (const char  *name,
                          fr_grid     *grid,
                          GBytes     **velocity,
                          char       **title,
                          GError     **error)
{
  g_autofree char *path = NULL;
  gboolean found = FALSE;

  g_return_val_if_fail (name != NULL, FALSE);

  path = fr_scene_io_find_example (name);
  if (path == NULL)
    {
      /* An install without its data (helper-67): said, not hidden in a
       * debug message, as the stand-in is not the model the docs show. */
      g_printerr (_("foldray: the example “%s” is not installed (%s); showing a built-in stand-in\n"),
                  name, FOLDRAY_PKGDATADIR);
      *velocity = builtin_example (name, grid);
      *title = g_strdup (name);
      return TRUE;
    }
  if (!fr_scene_file_read_grid (path, "npy", grid, &found, velocity, error))
    return FALSE;
  if (!found)
    {
      /* The examples are in km at 0.01 km (data/examples/README.md). */
      *grid = fr_grid_2d (grid->nx, grid->nz, 0.01, 0.01, 0.0, 0.0);
    }
  *title = g_strdup (name);
  return TRUE;
}
