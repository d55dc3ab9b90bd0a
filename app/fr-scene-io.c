/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-scene-io"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "fr-scene-file.h"
#include "fr-scene-io.h"

G_DEFINE_QUARK (fr-scene-io-error-quark, fr_scene_io_error)

/* Reads a 2D velocity grid (float32 or float64, shape (nz, nx)) and checks
 * its values.  The grid gets unit spacing and a zero origin; the caller
 * applies the sidecar or asks the user. */
gboolean
fr_scene_io_read_npy (const char  *path,
                      fr_grid     *grid,
                      GBytes     **velocity,
                      GError     **error)
{
  gboolean has_spacing;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (grid != NULL, FALSE);
  g_return_val_if_fail (velocity != NULL, FALSE);

  /* The scene loader's reader: one place checks a grid's shape and speeds. */
  return fr_scene_file_read_grid (path, "npy", grid, &has_spacing, velocity, error);
}

static gboolean
read_pair (JsonObject  *obj,
           const char  *member,
           double       out[2],
           GError     **error)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      out[0] = out[1] = json_node_get_double (node);
      return TRUE;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *arr = json_node_get_array (node);
      guint n = json_array_get_length (arr);

      if (n == 1 || n == 2)
        {
          out[0] = json_array_get_double_element (arr, 0);
          out[1] = json_array_get_double_element (arr, n - 1);
          return TRUE;
        }
    }
  g_set_error (error, FR_SCENE_IO_ERROR, FR_SCENE_IO_ERROR_INVALID,
               _("“%s” must be a number or a list of two numbers"), member);
  return FALSE;
}

/* FILE.json for FILE.npy: where a grid's geometry is looked for. */
char *
fr_scene_io_sidecar_path (const char *npy_path)
{
  g_autofree char *stem = g_str_has_suffix (npy_path, ".npy")
                            ? g_strndup (npy_path, strlen (npy_path) - 4)
                            : g_strdup (npy_path);

  return g_strconcat (stem, ".json", NULL);
}

/* Applies FILE.json beside FILE.npy ({"spacing": [dx, dz], "origin":
 * [x0, z0]}) to grid.  *found says whether the sidecar exists; a sidecar
 * that exists but is wrong is an error. */
gboolean
fr_scene_io_read_sidecar (const char  *npy_path,
                          fr_grid     *grid,
                          gboolean    *found,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autofree char *json_path = NULL;
  JsonNode *root;
  JsonObject *obj;
  double spacing[2] = { grid->dx, grid->dz };
  double origin[2] = { grid->x0, grid->z0 };
  fr_grid g;
  fr_error err = { 0 };

  g_return_val_if_fail (npy_path != NULL, FALSE);
  g_return_val_if_fail (grid != NULL, FALSE);

  *found = FALSE;
  json_path = fr_scene_io_sidecar_path (npy_path);
  if (!g_file_test (json_path, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  *found = TRUE;

  parser = json_parser_new ();
  if (!json_parser_load_from_file (parser, json_path, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, FR_SCENE_IO_ERROR, FR_SCENE_IO_ERROR_INVALID,
                   _("%s: expected a JSON object"), json_path);
      return FALSE;
    }
  obj = json_node_get_object (root);
  if (!read_pair (obj, "spacing", spacing, error) || !read_pair (obj, "origin", origin, error))
    {
      g_prefix_error (error, "%s: ", json_path);
      return FALSE;
    }

  g = fr_grid_2d (grid->nx, grid->nz, spacing[0], spacing[1], origin[0], origin[1]);
  if (fr_grid_check (&g, &err) != FR_OK)
    {
      g_set_error (error, FR_SCENE_IO_ERROR, FR_SCENE_IO_ERROR_INVALID, "%s: %s", json_path, err.message);
      return FALSE;
    }
  *grid = g;
  return TRUE;
}

/* The path of a bundled example grid ("three-layer", "gradient"), or NULL.
 * $FOLDRAY_DATA_DIR wins, then the installed data, then the source tree. */
char *
fr_scene_io_find_example (const char *name)
{
  const char *dirs[3];
  g_autofree char *file = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  dirs[0] = g_getenv ("FOLDRAY_DATA_DIR");
  dirs[1] = FOLDRAY_PKGDATADIR;
  dirs[2] = FOLDRAY_SOURCE_DATADIR;
  file = g_strconcat (name, ".npy", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = NULL;

      if (dirs[i] == NULL)
        continue;
      path = g_build_filename (dirs[i], "examples", file, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }
  return NULL;
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
      g_debug ("example %s not found, using the built-in one", name);
      *velocity = builtin_example (name, grid);
      *title = g_strdup (name);
      return TRUE;
    }
  if (!fr_scene_io_read_npy (path, grid, velocity, error))
    return FALSE;
  if (!fr_scene_io_read_sidecar (path, grid, &found, error))
    {
      g_clear_pointer (velocity, g_bytes_unref);
      return FALSE;
    }
  if (!found)
    {
      /* The examples are in km at 0.01 km (data/examples/README.md). */
      *grid = fr_grid_2d (grid->nx, grid->nz, 0.01, 0.01, 0.0, 0.0);
    }
  *title = g_strdup (name);
  return TRUE;
}
