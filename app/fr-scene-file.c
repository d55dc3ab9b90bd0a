/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-scene-file"

#include <errno.h>
#include <float.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fr-array.h"
#include "fr-atomic-file.h"
#include "fr-message.h"
#include "fr-npy.h"
#include "fr-raster.h"
#include "fr-spr.h"
#include "fr-scene-file.h"
#include "fr-segy.h"

G_DEFINE_QUARK (fr-scene-file-error-quark, fr_scene_file_error)

/* ---------------------------------------------------------------- the doc */

/* A document around model (taken), with the default settings. */
FrSceneDoc *
fr_scene_doc_new (FrModel *model)
{
  FrSceneDoc *doc = g_new0 (FrSceneDoc, 1);

  doc->model = model;
  doc->sources = g_array_new (FALSE, FALSE, sizeof (FrVertex));
  doc->receivers = g_array_new (FALSE, FALSE, sizeof (FrVertex));
  doc->radius = fr_radius_square (5);
  doc->backend = g_strdup ("auto");
  doc->fold_method = g_strdup ("las");
  doc->display_interval = FR_SCENE_DISPLAY_INTERVAL;
  doc->display_colormap = g_strdup (FR_SCENE_DISPLAY_COLORMAP);
  doc->display_wavefront_time = FR_SCENE_DISPLAY_WAVEFRONT_TIME;
  return doc;
}

void
fr_scene_doc_free (FrSceneDoc *doc)
{
  if (doc == NULL)
    return;
  g_free (doc->title);
  fr_model_free (doc->model);
  g_array_unref (doc->sources);
  g_array_unref (doc->receivers);
  g_free (doc->backend);
  g_free (doc->fold_method);
  g_free (doc->fold_backend);
  g_clear_pointer (&doc->fold_horizon, g_array_unref);
  g_clear_pointer (&doc->fold_characteristics, g_array_unref);
  g_free (doc->display_colormap);
  g_free (doc);
}

/* ---------------------------------------------------------------- reading */

typedef struct
{
  const char *name;      /* the file, for messages */
  GError    **error;
} Reader;

static gboolean G_GNUC_PRINTF (3, 4)
fail (Reader     *r,
      int         code,
      const char *fmt,
      ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (r->error, FR_SCENE_FILE_ERROR, code, "%s: %s", r->name, msg);
  return FALSE;
}

static gboolean
is_number (JsonNode *node)
{
  GType t;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  t = json_node_get_value_type (node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static gboolean
get_number (Reader     *r,
            JsonObject *obj,
            const char *where,
            const char *member,
            gboolean    required,
            double     *out)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL && !required)
    return TRUE;
  if (node == NULL)
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("%s has no “%s”"), where, member);
  if (!is_number (node) || !isfinite (json_node_get_double (node)))
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” in %s must be a number"), member, where);
  *out = json_node_get_double (node);
  return TRUE;
}

static gboolean
get_count (Reader     *r,
           JsonObject *obj,
           const char *where,
           const char *member,
           gint64      max,
           gint64     *out)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL)
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("%s has no “%s”"), where, member);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” in %s must be a whole number"),
                 member, where);
  *out = json_node_get_int (node);
  if (*out < 1 || *out > max)
    return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("“%s” in %s must be between 1 and %lld"),
                 member, where, (long long) max);
  return TRUE;
}

static gboolean
get_string (Reader      *r,
            JsonObject  *obj,
            const char  *where,
            const char  *member,
            const char **out)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” in %s must be a string"), member, where);
  /* json-glib 1.6 reads a backslash and octal digits as a byte ("\377"
   * gives 0xff), which JSON has not: a title or path of such bytes went
   * into the window and into the next save, which was then refused as
   * not UTF-8. */
  if (!g_utf8_validate (json_node_get_string (node), -1, NULL))
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED,
                 _("“%s” in %s is not UTF-8 text (JSON has no octal escapes such as \\377)"),
                 member, where);
  *out = json_node_get_string (node);
  return TRUE;
}

/* An optional object member; *out stays NULL when absent or null. */
static gboolean
get_object (Reader      *r,
            JsonObject  *obj,
            const char  *member,
            JsonObject **out)
{
  JsonNode *node = json_object_get_member (obj, member);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” must be an object"), member);
  *out = json_node_get_object (node);
  return TRUE;
}

static gboolean
get_array (Reader      *r,
           JsonObject  *obj,
           const char  *where,
           const char  *member,
           JsonArray  **out)
{
  JsonNode *node = json_object_get_member (obj, member);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” in %s must be a list"), member, where);
  *out = json_node_get_array (node);
  return TRUE;
}

/* A pair [a, b] of numbers. */
static gboolean
get_pair (Reader     *r,
          JsonObject *obj,
          const char *where,
          const char *member,
          gboolean    required,
          double      out[2])
{
  JsonArray *a = NULL;

  if (!get_array (r, obj, where, member, &a))
    return FALSE;
  if (a == NULL)
    return required ? fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("%s has no “%s”"), where, member)
                    : TRUE;
  if (json_array_get_length (a) != 2 || !is_number (json_array_get_element (a, 0)) ||
      !is_number (json_array_get_element (a, 1)))
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” in %s must be two numbers"), member, where);
  out[0] = json_array_get_double_element (a, 0);
  out[1] = json_array_get_double_element (a, 1);
  if (!isfinite (out[0]) || !isfinite (out[1]))
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” in %s must be finite"), member, where);
  return TRUE;
}

/* A list of [x, z] points appended to out. */
static gboolean
get_points (Reader     *r,
            JsonObject *obj,
            const char *where,
            const char *member,
            GArray     *out)
{
  JsonArray *a = NULL;

  if (!get_array (r, obj, where, member, &a))
    return FALSE;
  if (a == NULL)
    return TRUE;
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *p = json_array_get_element (a, i);
      JsonArray *pa;
      FrVertex v;

      if (!JSON_NODE_HOLDS_ARRAY (p) || json_array_get_length (pa = json_node_get_array (p)) != 2 ||
          !is_number (json_array_get_element (pa, 0)) || !is_number (json_array_get_element (pa, 1)))
        return fail (r, FR_SCENE_FILE_ERROR_MALFORMED,
                     _("point %u of “%s” in %s must be [x, z]"), i + 1, member, where);
      v.x = json_array_get_double_element (pa, 0);
      v.z = json_array_get_double_element (pa, 1);
      /* As far as a grid may reach: beyond, differences of coordinates
       * overflow (an interface's slope became NaN, its layer dropped). */
      if (!(fabs (v.x) <= FR_GRID_MAX_EXTENT && fabs (v.z) <= FR_GRID_MAX_EXTENT))
        return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                     _("point %u of “%s” in %s lies too far out (coordinates at most %g)"), i + 1,
                     member, where, FR_GRID_MAX_EXTENT);
      g_array_append_val (out, v);
    }
  return TRUE;
}

/* The grid's speeds as float32, checked (a float64 grid before it is
 * narrowed: -1e-50 would pass for an obstacle), in a malloc'ed buffer
 * that the caller owns: a float32 array's own data is taken from it. */
static gboolean
speeds_of (fr_array  *a,
           fr_grid   *g,
           float    **out,
           fr_error  *err)
{
  bool copied = false;

  if (fr_array_speed_f32 (a, g, "velocity", out, &copied, err) != FR_OK)
    return FALSE;
  if (!copied)
    a->data = NULL;   /* now *out's */
  return TRUE;
}

/* FILE.json for FILE.npy: where a .npy grid's geometry is looked for.
 * The suffix is taken off in any case, as Open's filter shows MODEL.NPY
 * too; the sidecar's own suffix is always .json. */
char *
fr_scene_file_sidecar_path (const char *npy_path)
{
  size_t n = strlen (npy_path);
  g_autofree char *stem = n >= 4 && g_ascii_strcasecmp (npy_path + n - 4, ".npy") == 0
                            ? g_strndup (npy_path, n - 4)
                            : g_strdup (npy_path);

  return g_strconcat (stem, ".json", NULL);
}

/* Whether path names a scene file: it ends in .json, in any case (Save
 * As takes SCENE.JSON as a scene's name, so Open must too). */
gboolean
fr_scene_file_is_scene_name (const char *path)
{
  size_t n;

  g_return_val_if_fail (path != NULL, FALSE);
  n = strlen (path);
  return n >= 5 && g_ascii_strcasecmp (path + n - 5, ".json") == 0;
}

/* A sidecar's member: one number for both axes, or a list of one or two.
 * shown_path is the sidecar's name in UTF-8, for the message. */
static gboolean
sidecar_pair (JsonObject  *obj,
              const char  *shown_path,
              const char  *member,
              double       out[2],
              GError     **error)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL)
    return TRUE;
  if (is_number (node))
    {
      out[0] = out[1] = json_node_get_double (node);
      return TRUE;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *arr = json_node_get_array (node);
      guint n = json_array_get_length (arr);

      if ((n == 1 || n == 2) && is_number (json_array_get_element (arr, 0)) &&
          is_number (json_array_get_element (arr, n - 1)))
        {
          out[0] = json_array_get_double_element (arr, 0);
          out[1] = json_array_get_double_element (arr, n - 1);
          return TRUE;
        }
    }
  g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID,
               _("%s: “%s” must be a number or a list of two numbers"), shown_path, member);
  return FALSE;
}

/* Applies the sidecar FILE.json of FILE.npy ({"spacing": [dx, dz],
 * "origin": [x0, z0]}; "spacing" required) to grid: the one beside the
 * name given, else, for a symbolic link, the one beside the file it
 * names.  *found says whether there is one; a sidecar that exists but
 * is wrong (another member, no spacing, not numbers) is an error: read
 * as "keep", it placed the grid at spacing 1 without a word.  So is a
 * spacing too fine for the velocities v to give times any solve could
 * hold (1e-320), which the solve refused later in the sidecar's stead. */
static gboolean
read_sidecar (const char  *npy_path,
              const float *v,
              fr_grid     *grid,
              gboolean    *found,
              GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autofree char *json_path = fr_scene_file_sidecar_path (npy_path);
  g_autofree char *shown_path = NULL;
  g_autoptr(GList) members = NULL;
  double spacing[2] = { NAN, NAN };
  double origin[2] = { grid->x0, grid->z0 };
  JsonNode *root;
  JsonObject *obj;
  fr_grid g;
  fr_error err = { 0 };

  *found = FALSE;
  if (!g_file_test (json_path, G_FILE_TEST_IS_REGULAR) &&
      g_file_test (npy_path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autofree char *target = realpath (npy_path, NULL);

      if (target != NULL)
        {
          g_free (json_path);
          json_path = fr_scene_file_sidecar_path (target);
        }
    }
  if (!g_file_test (json_path, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  *found = TRUE;
  /* Messages name it in UTF-8: a Latin-1 name went in as its bytes, and
   * a dialog shows no text that is not UTF-8. */
  shown_path = g_filename_display_name (json_path);

  parser = json_parser_new ();
  if (!json_parser_load_from_file (parser, json_path, error))
    {
      /* json-glib names the file in its syntax errors, not in all (bad
       * UTF-8): the user must know it is the sidecar, not the grid. */
      if (error != NULL && *error != NULL && strstr ((*error)->message, json_path) == NULL)
        g_prefix_error (error, "%s: ", shown_path);
      /* Its quote of the token at fault may be cut inside a character. */
      if (error != NULL && *error != NULL && !g_utf8_validate ((*error)->message, -1, NULL))
        {
          char *valid = fr_message_make_valid ((*error)->message);

          g_free ((*error)->message);
          (*error)->message = valid;
        }
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID,
                   _("%s: expected a JSON object"), shown_path);
      return FALSE;
    }
  obj = json_node_get_object (root);
  members = json_object_get_members (obj);
  for (GList *m = members; m != NULL; m = m->next)
    if (g_strcmp0 (m->data, "spacing") != 0 && g_strcmp0 (m->data, "origin") != 0)
      {
        /* Shown as UTF-8: json-glib 1.6 makes a name of "\377" a 0xff byte. */
        g_autofree char *shown = g_utf8_make_valid (m->data, -1);

        g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID,
                     _("%s: unknown member “%s” (a grid's sidecar holds “spacing” and “origin”)"),
                     shown_path, shown);
        return FALSE;
      }
  if (!json_object_has_member (obj, "spacing"))
    {
      g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID,
                   _("%s: no “spacing” (a grid's sidecar gives its spacing, and its origin if "
                     "not 0, 0)"), shown_path);
      return FALSE;
    }
  if (!sidecar_pair (obj, shown_path, "spacing", spacing, error) ||
      !sidecar_pair (obj, shown_path, "origin", origin, error))
    return FALSE;
  g = fr_grid_2d (grid->nx, grid->nz, spacing[0], spacing[1], origin[0], origin[1]);
  if (fr_grid_check (&g, &err) != FR_OK || fr_check_time_scale (&g, v, TRUE, &err) != FR_OK)
    {
      g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID, "%s: %s", shown_path,
                   err.message);
      return FALSE;
    }
  *grid = g;
  return TRUE;
}

/* Reads a velocity grid file: .npy (2D, (nz, nx)) with its sidecar
 * FILE.json where there is one, or SEG-Y.  The grid gets unit spacing and
 * zero origin unless the file or its sidecar gives its own
 * (*has_spacing). */
gboolean
fr_scene_file_read_grid (const char  *path,
                         const char  *format,
                         fr_grid     *grid,
                         gboolean    *has_spacing,
                         GBytes     **values,
                         GError     **error)
{
  fr_array a = { 0 };
  fr_error err = { 0 };
  float *v = NULL;
  fr_grid g = fr_grid_2d (1, 1, 1.0, 1.0, 0.0, 0.0);
  g_autofree char *shown = NULL;

  g_return_val_if_fail (path != NULL && grid != NULL && values != NULL, FALSE);

  /* Messages name the grid in UTF-8, as a dialog shows them: a Latin-1
   * name went in as its bytes. */
  shown = g_filename_display_name (path);
  *has_spacing = FALSE;
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_MISSING_GRID,
                   _("the velocity grid “%s” does not exist"), shown);
      return FALSE;
    }
  if (g_strcmp0 (format, "segy") == 0)
    return fr_segy_read (path, grid, has_spacing, values, error);

  if (fr_npy_read (path, &a, &err) != FR_OK)
    {
      /* The library names the file in its bytes. */
      fr_message_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID, err.message);
      return FALSE;
    }
  if (a.ndim != 2 || fr_array_grid_shape (&a, &g, &err) != FR_OK ||
      !speeds_of (&a, &g, &v, &err))
    {
      if (a.ndim != 2)
        g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID,
                     _("%s: a velocity grid must be 2D (nz, nx), not %dD"), shown, a.ndim);
      else
        g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID, "%s: %s", shown, err.message);
      free (v);
      fr_array_clear (&a);
      return FALSE;
    }
  fr_array_clear (&a);
  if (!read_sidecar (path, v, &g, has_spacing, error))
    {
      free (v);
      return FALSE;
    }
  *grid = g;
  *values = g_bytes_new_with_free_func (v, fr_grid_count (&g) * sizeof (float), free, v);
  return TRUE;
}

static gboolean
read_grid (Reader     *r,
           JsonObject *root,
           fr_grid    *grid)
{
  JsonObject *g = NULL;
  double spacing[2], origin[2] = { 0.0, 0.0 };
  gint64 nx, nz;
  fr_error err = { 0 };

  if (!get_object (r, root, "grid", &g))
    return FALSE;
  if (g == NULL)
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("the scene has no “grid”"));
  if (!get_count (r, g, "grid", "nx", 1 << 20, &nx) || !get_count (r, g, "grid", "nz", 1 << 20, &nz) ||
      !get_pair (r, g, "grid", "spacing", TRUE, spacing) ||
      !get_pair (r, g, "grid", "origin", FALSE, origin))
    return FALSE;
  *grid = fr_grid_2d ((size_t) nx, (size_t) nz, spacing[0], spacing[1], origin[0], origin[1]);
  if (fr_grid_check (grid, &err) != FR_OK)
    return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("grid: %s"), err.message);
  return TRUE;
}

/* The file a background path of a scene names, with no "." or ".." left
 * (lexically): a scene saved from it must not refer to the grid through a
 * folder that may be renamed later.  Where a ".." follows a symbolic link
 * to a folder, the system resolves the text elsewhere; should only that
 * file exist, it is the one taken, as before. */
static char *
background_file (const char *path,
                 const char *base_dir)
{
  g_autofree char *lexical = NULL;
  g_autofree char *joined = NULL;
  char *physical;

  /* No folder given: relative to the working folder, as the caller chose. */
  if (!g_path_is_absolute (path) && base_dir == NULL)
    return g_strdup (path);
  lexical = g_canonicalize_filename (path, base_dir);
  if (g_file_test (lexical, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&lexical);
  joined = g_path_is_absolute (path) ? g_strdup (path) : g_build_filename (base_dir, path, NULL);
  if (g_file_test (joined, G_FILE_TEST_IS_REGULAR) && (physical = realpath (joined, NULL)) != NULL)
    return physical;
  return g_steal_pointer (&lexical);
}

static gboolean
read_background (Reader     *r,
                 JsonObject *root,
                 const char *base_dir,
                 FrModel    *model)
{
  JsonObject *b = NULL;
  const char *path = NULL, *format = NULL;
  g_autofree char *abs = NULL;
  g_autoptr(GBytes) values = NULL;
  g_autoptr(GError) local = NULL;
  double spacing[2] = { NAN, NAN }, origin[2] = { NAN, NAN };
  gboolean has_spacing = FALSE;
  fr_grid g;
  fr_error err = { 0 };

  if (!get_object (r, root, "background", &b))
    return FALSE;
  if (b == NULL)
    return TRUE;
  if (!get_string (r, b, "background", "path", &path) ||
      !get_string (r, b, "background", "format", &format) ||
      !get_pair (r, b, "background", "spacing", FALSE, spacing) ||
      !get_pair (r, b, "background", "origin", FALSE, origin))
    return FALSE;
  if (path == NULL || *path == '\0')
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("the background has no “path”"));
  /* Without a "format", the name's suffix says, as for Open. */
  if (format == NULL)
    format = fr_segy_is_segy_name (path) ? "segy" : "npy";
  if (g_strcmp0 (format, "npy") != 0 && g_strcmp0 (format, "segy") != 0)
    return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the background format “%s” is unknown"), format);

  abs = background_file (path, base_dir);
  if (g_file_test (abs, G_FILE_TEST_EXISTS) && !g_file_test (abs, G_FILE_TEST_IS_REGULAR))
    return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                 _("the background grid “%s” is not a file (%s is a folder or a device)"), path, abs);
  if (!g_file_test (abs, G_FILE_TEST_IS_REGULAR))
    return fail (r, FR_SCENE_FILE_ERROR_MISSING_GRID,
                 _("the background grid “%s” is missing (looked for %s)"), path, abs);
  if (!fr_scene_file_read_grid (abs, format, &g, &has_spacing, &values, &local))
    return fail (r, local->domain == FR_SCENE_FILE_ERROR ? local->code : FR_SCENE_FILE_ERROR_INVALID,
                 _("the background grid: %s"), local->message);
  /* Unit spacing stands in for none: the scene must say, or the model
   * would be placed at a spacing nobody gave, without a word. */
  if (!has_spacing && !isfinite (spacing[0]))
    {
      g_autofree char *sidecar = NULL;

      if (g_strcmp0 (format, "segy") == 0)
        return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                     _("the background grid “%s” gives no spacing (no sample interval, binary and "
                       "trace headers that disagree on it, or CDP X not stepping evenly): give the "
                       "background a “spacing”"), path);
      sidecar = fr_scene_file_sidecar_path (abs);
      return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                   _("the background grid “%s” gives no spacing: give the background a "
                     "“spacing”, or write a sidecar %s beside it"), path, sidecar);
    }
  /* The scene's spacing and origin, each where given, over the file's. */
  if (isfinite (spacing[0]) || isfinite (origin[0]))
    g = fr_grid_2d (g.nx, g.nz, isfinite (spacing[0]) ? spacing[0] : g.dx,
                    isfinite (spacing[0]) ? spacing[1] : g.dz,
                    isfinite (origin[0]) ? origin[0] : g.x0, isfinite (origin[0]) ? origin[1] : g.z0);
  if (fr_grid_check (&g, &err) != FR_OK)
    return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("background: %s"), err.message);
  model->background = fr_background_new (abs, format, &g, values);
  return TRUE;
}

static gboolean
read_layers (Reader     *r,
             JsonObject *root,
             FrModel    *model)
{
  JsonArray *layers = NULL;

  if (!get_array (r, root, "scene", "layers", &layers))
    return FALSE;
  if (layers == NULL)
    return TRUE;
  for (guint i = 0; i < json_array_get_length (layers); i++)
    {
      JsonNode *node = json_array_get_element (layers, i);
      g_autofree char *where = g_strdup_printf (_("layer %u"), i + 1);
      g_autoptr(FrLayer) l = fr_layer_new (0.0, 0.0, 0.0);
      JsonObject *o;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("%s must be an object"), where);
      o = json_node_get_object (node);
      if (!get_number (r, o, where, "velocity", TRUE, &l->v_top) ||
          !get_number (r, o, where, "dvdz", FALSE, &l->dvdz) ||
          !get_number (r, o, where, "dvdx", FALSE, &l->dvdx) ||
          !get_number (r, o, where, "dvdx_from", FALSE, &l->x_ref) ||
          !get_points (r, o, where, "interface", l->nodes))
        return FALSE;
      if (l->nodes->len == 0)
        return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("%s has no “interface” nodes"), where);
      g_ptr_array_add (model->layers, g_steal_pointer (&l));
    }
  return TRUE;
}

static gboolean
read_obstacles (Reader     *r,
                JsonObject *root,
                FrModel    *model)
{
  JsonArray *obstacles = NULL;

  if (!get_array (r, root, "scene", "obstacles", &obstacles))
    return FALSE;
  if (obstacles == NULL)
    return TRUE;
  for (guint i = 0; i < json_array_get_length (obstacles); i++)
    {
      JsonNode *node = json_array_get_element (obstacles, i);
      g_autofree char *where = g_strdup_printf (_("obstacle %u"), i + 1);
      g_autoptr(FrObstacle) ob = fr_obstacle_new (FR_OBSTACLE_POLYGON, 0.0);
      const char *shape = "polygon";
      JsonObject *o;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("%s must be an object"), where);
      o = json_node_get_object (node);
      if (!get_string (r, o, where, "shape", &shape) ||
          !get_number (r, o, where, "velocity", TRUE, &ob->velocity) ||
          !get_points (r, o, where, "vertices", ob->vertices))
        return FALSE;
      if (g_strcmp0 (shape, "rectangle") == 0)
        ob->shape = FR_OBSTACLE_RECTANGLE;
      else if (g_strcmp0 (shape, "polygon") != 0)
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("%s: the shape “%s” is unknown"), where, shape);
      if (ob->shape == FR_OBSTACLE_RECTANGLE && ob->vertices->len != 4)
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("%s: a rectangle has 4 vertices"), where);
      /* Corners (x0, z0) (x1, z0) (x1, z1) (x0, z1), as the editor moves
       * them: a tilted "rectangle" was distorted by its first drag. */
      if (ob->shape == FR_OBSTACLE_RECTANGLE)
        {
          const FrVertex *v = (const FrVertex *) ob->vertices->data;

          if (v[0].z != v[1].z || v[1].x != v[2].x || v[2].z != v[3].z || v[3].x != v[0].x)
            return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                         _("%s: a rectangle's corners run (x0, z0), (x1, z0), (x1, z1), (x0, z1); "
                           "give any other quadrilateral as a polygon"), where);
        }
      g_ptr_array_add (model->obstacles, g_steal_pointer (&ob));
    }
  return TRUE;
}

/* The optional members of "fold": back end, speed F (a number or
 * "grid", then with the constant kept beside it), levels, bands, the starting horizon and the points
 * characteristics are traced from. */
static gboolean
read_fold_extra (Reader     *r,
                 JsonObject *fold,
                 FrSceneDoc *doc)
{
  static const char *backends[] = { "auto", "cpu", "cuda" };
  const char *backend = NULL;
  JsonNode *node;
  gboolean known = FALSE;

  if (!get_string (r, fold, "fold", "backend", &backend))
    return FALSE;
  if (backend != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
        known |= g_str_equal (backend, backends[i]);
      if (!known)
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the fold back end “%s” is unknown"), backend);
      doc->fold_backend = g_strdup (backend);
    }

  if ((node = json_object_get_member (fold, "speed")) != NULL)
    {
      doc->has_fold_speed = TRUE;
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
          g_str_equal (json_node_get_string (node), "grid"))
        doc->fold_speed_from_grid = TRUE;
      else if (!is_number (node) || !isfinite (json_node_get_double (node)))
        return fail (r, FR_SCENE_FILE_ERROR_MALFORMED,
                     _("“speed” in fold must be a number or “grid”"));
      else if (!((doc->fold_speed = json_node_get_double (node)) > 0.0))
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the fold speed must be positive"));
    }
  /* With "speed": "grid", the constant F the user set last, kept for
   * when they go back to it. */
  if (json_object_has_member (fold, "speed_constant"))
    {
      double c = 0.0;

      if (!get_number (r, fold, "fold", "speed_constant", TRUE, &c))
        return FALSE;
      if (!doc->fold_speed_from_grid)
        return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                     _("“speed_constant” in fold goes with “speed”: “grid” only (a number "
                       "“speed” is the constant itself)"));
      if (!(c > 0.0))
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the fold speed must be positive"));
      doc->fold_speed = c;
    }

  if (json_object_has_member (fold, "delta") || json_object_has_member (fold, "count"))
    {
      gint64 count = 0;

      doc->has_fold_levels = TRUE;
      if (!get_number (r, fold, "fold", "delta", TRUE, &doc->fold_delta))
        return FALSE;
      if (!(doc->fold_delta > 0.0))
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the fold “delta” must be positive"));
      /* Zero folded horizons is allowed: count may be 0. */
      node = json_object_get_member (fold, "count");
      if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
          json_node_get_value_type (node) != G_TYPE_INT64)
        return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” in %s must be a whole number"),
                     "count", "fold");
      count = json_node_get_int (node);
      if (count < 0 || count > 1000)
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("“%s” in %s must be between %d and %d"),
                     "count", "fold", 0, 1000);
      doc->fold_count = (int) count;
    }

  if ((node = json_object_get_member (fold, "bands")) != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” in %s must be true or false"),
                     "bands", "fold");
      doc->has_fold_bands = TRUE;
      doc->fold_bands = json_node_get_boolean (node);
    }

  if (json_object_has_member (fold, "horizon"))
    {
      doc->fold_horizon = g_array_new (FALSE, FALSE, sizeof (FrVertex));
      if (!get_points (r, fold, "fold", "horizon", doc->fold_horizon))
        return FALSE;
    }
  if (json_object_has_member (fold, "characteristics"))
    {
      doc->fold_characteristics = g_array_new (FALSE, FALSE, sizeof (FrVertex));
      if (!get_points (r, fold, "fold", "characteristics", doc->fold_characteristics))
        return FALSE;
    }
  return TRUE;
}

/* The colour maps a scene may name (fr-colormap.c's ids; this library
 * has no GTK, so it keeps its own list, which tests/test-app-undo.c
 * compares with fr-colormap's). */
static const char *const colormaps[] = { "viridis", "cividis", "magma", NULL };

/* The optional "display": each member optional, defaults as set by
 * fr_scene_doc_new. */
static gboolean
read_display (Reader     *r,
              JsonObject *root,
              FrSceneDoc *doc)
{
  JsonObject *display = NULL;
  const char *colormap = NULL;
  JsonNode *node;

  if (!get_object (r, root, "display", &display))
    return FALSE;
  if (display == NULL)
    return TRUE;
  doc->has_display = TRUE;

  if (!get_number (r, display, "display", "interval", FALSE, &doc->display_interval))
    return FALSE;
  if (doc->display_interval < 0.0 || doc->display_interval > FR_SCENE_DISPLAY_INTERVAL_MAX)
    return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                 _("the display “interval” must be from 0 to %g (0 hides the isochrons), not %g"),
                 FR_SCENE_DISPLAY_INTERVAL_MAX, doc->display_interval);

  if (!get_string (r, display, "display", "colormap", &colormap))
    return FALSE;
  if (colormap != NULL)
    {
      if (!g_strv_contains (colormaps, colormap))
        {
          g_autofree char *list = g_strjoinv (", ", (char **) colormaps);

          return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                       _("the colour map “%s” is unknown (known: %s)"), colormap, list);
        }
      g_free (doc->display_colormap);
      doc->display_colormap = g_strdup (colormap);
    }

  if ((node = json_object_get_member (display, "wavefront")) != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        return fail (r, FR_SCENE_FILE_ERROR_MALFORMED, _("“%s” in %s must be true or false"),
                     "wavefront", "display");
      doc->display_wavefront = json_node_get_boolean (node);
    }

  if (!get_number (r, display, "display", "wavefront_time", FALSE, &doc->display_wavefront_time))
    return FALSE;
  if (doc->display_wavefront_time < 0.0)
    return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                 _("the display “wavefront_time” must be 0 or more, not %g"),
                 doc->display_wavefront_time);
  return TRUE;
}

/* The length units' names in the scene file, by FrLengthUnit. */
static const char *const length_units[] = { "", "m", "km", "ft", NULL };

G_STATIC_ASSERT (G_N_ELEMENTS (length_units) == FR_N_LENGTH_UNITS + 1);

/* The name a scene file gives unit: "" for none. */
const char *
fr_length_unit_get_id (FrLengthUnit unit)
{
  g_return_val_if_fail (unit < FR_N_LENGTH_UNITS, "");
  return length_units[unit];
}

/* The unit a scene file names id; FALSE for an unknown name. */
gboolean
fr_length_unit_from_id (const char   *id,
                        FrLengthUnit *unit)
{
  g_return_val_if_fail (id != NULL, FALSE);

  for (guint i = 0; i < FR_N_LENGTH_UNITS; i++)
    if (g_str_equal (id, length_units[i]))
      {
        if (unit != NULL)
          *unit = (FrLengthUnit) i;
        return TRUE;
      }
  return FALSE;
}

/* The optional "units": {"length": ...}; none without it. */
static gboolean
read_units (Reader     *r,
            JsonObject *root,
            FrSceneDoc *doc)
{
  JsonObject *units = NULL;
  const char *length = NULL;

  if (!get_object (r, root, "units", &units))
    return FALSE;
  if (units == NULL)
    return TRUE;
  doc->has_units = TRUE;
  if (!get_string (r, units, "units", "length", &length))
    return FALSE;
  if (length != NULL && !fr_length_unit_from_id (length, &doc->length_unit))
    return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                 _("the length unit “%s” is unknown (known: m, km, ft, or \"\" for none)"),
                 length);
  return TRUE;
}

/* The solver's "radius": one count of nodes for both axes, or [x, z]
 * where they differ (as foldray-cli's --radius R,RZ).  Up to 1000 as
 * earlier versions saved; above FR_SPR_RADIUS_MAX it is cut to that, which
 * on a grid of up to 101 nodes a side is the same graph and on a larger one
 * is what the solver can take (it refused the larger radius). */
static gboolean
read_radius (Reader     *r,
             JsonObject *solver,
             FrRadius   *out)
{
  JsonNode *node = json_object_get_member (solver, "radius");
  JsonArray *pair = node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  double v[2];

  if (node == NULL)
    return TRUE;
  if (is_number (node))
    v[0] = v[1] = json_node_get_double (node);
  else if (pair != NULL && json_array_get_length (pair) == 2 &&
           is_number (json_array_get_element (pair, 0)) && is_number (json_array_get_element (pair, 1)))
    {
      v[0] = json_array_get_double_element (pair, 0);
      v[1] = json_array_get_double_element (pair, 1);
    }
  else
    return fail (r, FR_SCENE_FILE_ERROR_MALFORMED,
                 _("the solver radius must be a number of nodes, or two [along x, along z]"));
  for (int i = 0; i < 2; i++)
    if (v[i] != floor (v[i]) || v[i] < 1 || v[i] > 1000)
      return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the solver radius must be a whole number from 1 to 1000"));
  out->x = (int) MIN (v[0], FR_SPR_RADIUS_MAX);
  out->z = (int) MIN (v[1], FR_SPR_RADIUS_MAX);
  return TRUE;
}

static gboolean
read_settings (Reader     *r,
               JsonObject *root,
               FrSceneDoc *doc)
{
  JsonObject *solver = NULL, *fold = NULL, *view = NULL;
  const char *backend = NULL, *method = NULL, *title = NULL, *mode = NULL, *shots = NULL;
  static const char *backends[] = { "auto", "dijkstra", "cpu", "cuda" };
  gboolean known = FALSE;

  if (!get_string (r, root, "scene", "title", &title))
    return FALSE;
  doc->title = g_strdup (title);

  if (!get_object (r, root, "solver", &solver))
    return FALSE;
  if (solver != NULL)
    {
      if (!read_radius (r, solver, &doc->radius) ||
          !get_string (r, solver, "solver", "backend", &backend))
        return FALSE;
      if (backend != NULL)
        {
          for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
            known |= g_str_equal (backend, backends[i]);
          if (!known)
            return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the back end “%s” is unknown"), backend);
          g_free (doc->backend);
          doc->backend = g_strdup (backend);
        }
    }

  if (!get_object (r, root, "fold", &fold))
    return FALSE;
  if (fold != NULL)
    {
      doc->has_fold = TRUE;
      if (!get_pair (r, fold, "fold", "psi_a", FALSE, doc->psi_a) ||
          !get_string (r, fold, "fold", "method", &method))
        return FALSE;
      if (method != NULL && !g_str_equal (method, "las") && !g_str_equal (method, "solas"))
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the fold method “%s” is unknown"), method);
      if (method != NULL)
        {
          g_free (doc->fold_method);
          doc->fold_method = g_strdup (method);
        }
      if (!read_fold_extra (r, fold, doc))
        return FALSE;
    }

  if (!get_object (r, root, "view", &view))
    return FALSE;
  if (view != NULL)
    {
      doc->has_view = TRUE;
      if (!get_number (r, view, "view", "cx", TRUE, &doc->view_cx) ||
          !get_number (r, view, "view", "cz", TRUE, &doc->view_cz) ||
          !get_number (r, view, "view", "scale", TRUE, &doc->view_scale))
        return FALSE;
      if (!(doc->view_scale > 0))
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the view scale must be positive"));
    }
  if (!get_string (r, root, "scene", "shots", &shots))
    return FALSE;
  if (shots != NULL)
    {
      if (!g_str_equal (shots, "together") && !g_str_equal (shots, "separate"))
        return fail (r, FR_SCENE_FILE_ERROR_INVALID,
                     _("the shots “%s” are unknown (together or separate)"), shots);
      doc->separate_shots = g_str_equal (shots, "separate");
    }
  if (!get_string (r, root, "scene", "mode", &mode))
    return FALSE;
  if (mode != NULL)
    {
      if (!g_str_equal (mode, "rays") && !g_str_equal (mode, "folds"))
        return fail (r, FR_SCENE_FILE_ERROR_INVALID, _("the mode “%s” is unknown (rays or folds)"),
                     mode);
      doc->has_mode = TRUE;
      doc->folds_mode = g_str_equal (mode, "folds");
    }
  return read_display (r, root, doc) && read_units (r, root, doc);
}

/* The least velocity or fold speed any part of doc's model may be solved
 * at: the default, each layer's (its top velocity, or the clamp where a
 * gradient may lower it), each permeable obstacle's, the background's
 * least positive value and the fold's constant F (1 where none is given).
 * The background is scanned only where the rest leaves step too fine: its
 * values can only lower the least, which makes the times larger. */
static double
least_speed (const FrSceneDoc *doc,
             double            step)
{
  const FrModel *m = doc->model;
  double least = MIN (m->default_velocity, doc->fold_speed > 0.0 ? doc->fold_speed : 1.0);

  for (guint i = 0; i < m->layers->len; i++)
    {
      const FrLayer *l = g_ptr_array_index (m->layers, i);

      least = MIN (least, l->dvdz == 0.0 && l->dvdx == 0.0 ? l->v_top : FR_RASTER_MIN_VELOCITY);
    }
  for (guint i = 0; i < m->obstacles->len; i++)
    {
      const FrObstacle *o = g_ptr_array_index (m->obstacles, i);

      if (o->velocity > 0.0)
        least = MIN (least, o->velocity);
    }
  if (m->background != NULL && step / least < DBL_MIN)
    {
      gsize size;
      const float *v = g_bytes_get_data (m->background->values, &size);

      for (gsize i = 0; i < size / sizeof (float); i++)
        if (v[i] > 0.0f)
          least = MIN (least, (double) v[i]);
    }
  return least;
}

/* Refuses a "grid" spacing too fine for any solve's times, as a grid's
 * sidecar is refused (fr_check_time_scale): the solve refused it only
 * after Open had shown the scene, and foldray-cli named flags the scene
 * stood for.  Times at the least speed are the largest a step gives;
 * where even they fall below double's range, every solve's do. */
static gboolean
check_time_scale (Reader           *r,
                  const FrSceneDoc *doc)
{
  const fr_grid *g = &doc->model->grid;
  const double step = MIN (g->dx, g->dz), least = least_speed (doc, step);

  if (!(step / least < DBL_MIN))
    return TRUE;
  return fail (r, FR_SCENE_FILE_ERROR_INVALID,
               _("the “grid” spacing %g gives times below double's range (smallest %.2g) even at "
                 "the scene's least velocity or fold speed, %g: rescale the units (a larger "
                 "spacing or smaller velocities give larger times)"), step, DBL_MIN, least);
}

/* json-glib parses recursively, so a document nested a hundred thousand
 * levels deep overflows the stack and crashes the app or foldray-cli.  A
 * scene is five levels deep; past this it is refused before parsing. */
#define MAX_NESTING 256

/* Whether text opens more than MAX_NESTING arrays or objects at once.
 * Brackets inside strings do not count; \" does not end a string. */
static gboolean
nested_too_deep (const char *text,
                 gsize       length)
{
  gboolean in_string = FALSE;
  int depth = 0;

  for (gsize i = 0; i < length; i++)
    {
      if (in_string)
        {
          if (text[i] == '\\')
            i++;
          else if (text[i] == '"')
            in_string = FALSE;
          continue;
        }
      switch (text[i])
        {
        case '"':
          in_string = TRUE;
          break;
        case '[':
        case '{':
          if (++depth > MAX_NESTING)
            return TRUE;
          break;
        case ']':
        case '}':
          /* Stray closers are the parser's to refuse; they must not
           * buy depth for the openers after them. */
          if (depth > 0)
            depth--;
          break;
        default:
          break;
        }
    }
  return FALSE;
}

/* Parses a scene from text.  name names it in messages; a relative
 * background path is taken from base_dir. */
FrSceneDoc *
fr_scene_doc_parse (const char  *text,
                    gssize       length,
                    const char  *name,
                    const char  *base_dir,
                    GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;
  g_autoptr(FrSceneDoc) doc = NULL;
  Reader r = { name != NULL ? name : "scene", error };
  JsonNode *root_node, *version;
  JsonObject *root;
  const char *format = NULL;
  g_autoptr(GError) check = NULL;
  fr_grid grid;
  double default_v = 1.0;

  g_return_val_if_fail (text != NULL, NULL);

  if (nested_too_deep (text, length < 0 ? strlen (text) : (gsize) length))
    {
      fail (&r, FR_SCENE_FILE_ERROR_MALFORMED,
            _("not a Foldray scene (JSON nested deeper than %d levels)"), MAX_NESTING);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, text, length, &local))
    {
      int line, column, end = 0;
      /* json-glib quotes the token at fault cut at a byte count, which
       * may fall inside a character ("…ab\u00b7z "d" gave "…ab\xc2"):
       * the message must be UTF-8 to be shown, and the quote ends before
       * that character, not in U+FFFD. */
      g_autofree char *message = fr_message_make_valid (local->message);

      /* json-glib says "<data>:LINE:COLUMN: Parse error: WHAT", with
       * "Parse error" in the user's language: skip it by its colon, not
       * by its English words. */
      if (sscanf (message, "<data>:%d:%d: %n", &line, &column, &end) == 2 && end > 0)
        {
          const char *what = message + end;
          const char *label_end = strstr (what, ": ");

          fail (&r, FR_SCENE_FILE_ERROR_MALFORMED, _("not valid JSON at line %d, column %d (%s)"),
                line, column, label_end != NULL ? label_end + 2 : what);
        }
      else
        fail (&r, FR_SCENE_FILE_ERROR_MALFORMED, _("not valid JSON (%s)"), message);
      return NULL;
    }
  root_node = json_parser_get_root (parser);
  if (root_node == NULL || !JSON_NODE_HOLDS_OBJECT (root_node))
    {
      fail (&r, FR_SCENE_FILE_ERROR_NOT_A_SCENE, _("not a Foldray scene (expected a JSON object)"));
      return NULL;
    }
  root = json_node_get_object (root_node);
  if (!get_string (&r, root, "scene", "format", &format))
    return NULL;
  if (g_strcmp0 (format, FR_SCENE_FILE_FORMAT) != 0)
    {
      fail (&r, FR_SCENE_FILE_ERROR_NOT_A_SCENE, _("not a Foldray scene (no “format”: “%s”)"),
            FR_SCENE_FILE_FORMAT);
      return NULL;
    }
  version = json_object_get_member (root, "version");
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) ||
      json_node_get_value_type (version) != G_TYPE_INT64 || json_node_get_int (version) < 1)
    {
      fail (&r, FR_SCENE_FILE_ERROR_MALFORMED, _("“version” must be a whole number from 1"));
      return NULL;
    }
  if (json_node_get_int (version) > FR_SCENE_FILE_VERSION)
    {
      fail (&r, FR_SCENE_FILE_ERROR_NEWER_VERSION,
            _("the scene is of version %lld, written by a newer Foldray; "
              "this one reads version %d"), (long long) json_node_get_int (version),
            FR_SCENE_FILE_VERSION);
      return NULL;
    }

  if (!read_grid (&r, root, &grid) ||
      !get_number (&r, root, "scene", "default_velocity", FALSE, &default_v))
    return NULL;
  doc = fr_scene_doc_new (fr_model_new (&grid, default_v));
  if (!read_background (&r, root, base_dir, doc->model) ||
      !read_layers (&r, root, doc->model) ||
      !read_obstacles (&r, root, doc->model) ||
      !get_points (&r, root, "scene", "sources", doc->sources) ||
      !get_points (&r, root, "scene", "receivers", doc->receivers) ||
      !read_settings (&r, root, doc))
    return NULL;
  if (!fr_model_check (doc->model, &check))
    {
      fail (&r, FR_SCENE_FILE_ERROR_INVALID, "%s", check->message);
      return NULL;
    }
  if (!check_time_scale (&r, doc))
    return NULL;
  return g_steal_pointer (&doc);
}

/* The folder a scene file's relative paths start from: that of the file
 * holding its text.  Through a symbolic link that is the target's folder,
 * where a save through the link writes (fr_atomic_open resolves it the
 * same way), so the link and its target read the same background. */
static char *
scene_dir (const char *path)
{
  g_autofree char *file = NULL;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    file = realpath (path, NULL);
  if (file == NULL)
    file = g_canonicalize_filename (path, NULL);
  return g_path_get_dirname (file);
}

/* Reads a scene file; a relative background path is relative to it. */
FrSceneDoc *
fr_scene_doc_load (const char  *path,
                   GError     **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autofree char *dir = NULL;
  g_autoptr(GError) local = NULL;
  guint8 chunk[65536];
  gsize len;
  char *text;

  g_return_val_if_fail (path != NULL, NULL);

  /* Read to a limit, not whole: /dev/zero or a survey's SEG-Y named as
   * the scene by mistake took memory until none was left. */
  file = g_file_new_for_path (path);
  if ((in = g_file_read (file, NULL, &local)) == NULL)
    {
      g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_IO, "%s", local->message);
      return NULL;
    }
  do
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), chunk, sizeof chunk, NULL, &local);

      if (n < 0)
        {
          g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_IO, "%s: %s", path,
                       local->message);
          return NULL;
        }
      if (n == 0)
        break;
      g_byte_array_append (bytes, chunk, (guint) n);
    }
  while (bytes->len <= FR_SCENE_FILE_MAX_BYTES);
  if (bytes->len > FR_SCENE_FILE_MAX_BYTES)
    {
      g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_MALFORMED,
                   _("%s is larger than %d MiB: not a scene file"), path,
                   FR_SCENE_FILE_MAX_BYTES >> 20);
      return NULL;
    }
  len = bytes->len;
  g_byte_array_append (bytes, (const guint8 *) "", 1);
  text = (char *) bytes->data;
  dir = scene_dir (path);
  return fr_scene_doc_parse (text, (gssize) len, path, dir, error);
}

/* ---------------------------------------------------------------- writing */

/* The shortest decimal that reads back to the same double (0.03, not
 * 0.029999999999999999), with a '.' whatever the locale, and no "-0";
 * buf holds G_ASCII_DTOSTR_BUF_SIZE bytes.  Returns buf. */
char *
fr_format_shortest (char   *buf,
                    double  v)
{
  int digits;

  if (v == 0.0)
    v = 0.0;   /* no "-0" */
  for (digits = 1; digits <= 17; digits++)
    {
      char fmt[8];

      g_snprintf (fmt, sizeof fmt, "%%.%dg", digits);
      g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, fmt, v);
      if (g_ascii_strtod (buf, NULL) == v)
        break;
    }
  /* %g writes an exponent once the number has more integer digits than
   * significant ones: 512000 came out "5.12e+05", a spacing of 10
   * "1e+01".  Those read back, but people edit these files; write them
   * plain, with the same digits. */
  if (strchr (buf, 'e') != NULL && fabs (v) >= 1.0 && fabs (v) < 1e16)
    {
      char fmt[8];
      char plain[G_ASCII_DTOSTR_BUF_SIZE];
      const int decimals = MAX (0, digits - 1 - (int) floor (log10 (fabs (v))));

      g_snprintf (fmt, sizeof fmt, "%%.%df", decimals);
      g_ascii_formatd (plain, sizeof plain, fmt, v);
      if (g_ascii_strtod (plain, NULL) == v)
        g_strlcpy (buf, plain, G_ASCII_DTOSTR_BUF_SIZE);
    }
  return buf;
}

static void
put_number (GString *s,
            double   v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (s, fr_format_shortest (buf, v));
}

static void
put_string (GString    *s,
            const char *str)
{
  g_string_append_c (s, '"');
  for (const char *p = str; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c == '"' || c == '\\')
        g_string_append_printf (s, "\\%c", c);
      else if (c == '\n')
        g_string_append (s, "\\n");
      else if (c < 0x20)
        g_string_append_printf (s, "\\u%04x", c);
      else
        g_string_append_c (s, (char) c);
    }
  g_string_append_c (s, '"');
}

static void
put_pair (GString *s,
          double   a,
          double   b)
{
  g_string_append_c (s, '[');
  put_number (s, a);
  g_string_append (s, ", ");
  put_number (s, b);
  g_string_append_c (s, ']');
}

static void
put_points (GString *s,
            GArray  *points)
{
  g_string_append_c (s, '[');
  for (guint i = 0; i < points->len; i++)
    {
      const FrVertex *v = &g_array_index (points, FrVertex, i);

      if (i > 0)
        g_string_append (s, ", ");
      put_pair (s, v->x, v->z);
    }
  g_string_append_c (s, ']');
}

/* The background path as written, relative to base_dir wherever the two
 * share a folder below the root: a grid inside the scene's folder, or
 * beside it ("../grids/v.npy"), still works when the project folder is
 * moved or copied as a whole, which is how such folders travel.  A grid
 * that shares only the root with the scene (another disk, /mnt, /media)
 * stays absolute: a chain of ".." up to the root would break as soon as
 * the scene moved, and says nothing a reader can use.  Both paths are
 * normalised first, so nothing is written through a ".." folder. */
static char *
relative_path (const char *path,
               const char *base_dir)
{
  g_autofree char *p = NULL;
  g_autofree char *b = NULL;
  g_auto(GStrv) pc = NULL;
  g_auto(GStrv) bc = NULL;
  const char *p_rest, *b_rest;
  GString *rel;
  guint i = 0;

  if (base_dir == NULL)
    return g_strdup (path);
  p = g_canonicalize_filename (path, NULL);
  b = g_canonicalize_filename (base_dir, NULL);
  p_rest = g_path_skip_root (p);
  b_rest = g_path_skip_root (b);
  /* Different roots (another drive, on Windows): nothing in common. */
  if (p_rest - p != b_rest - b || strncmp (p, b, (size_t) (p_rest - p)) != 0)
    return g_steal_pointer (&p);
  pc = g_strsplit (p_rest, G_DIR_SEPARATOR_S, -1);
  bc = *b_rest != '\0' ? g_strsplit (b_rest, G_DIR_SEPARATOR_S, -1) : g_new0 (char *, 1);
  while (pc[i] != NULL && bc[i] != NULL && g_str_equal (pc[i], bc[i]))
    i++;
  if (i == 0 || pc[i] == NULL)
    return g_steal_pointer (&p);

  rel = g_string_new (NULL);
  for (guint j = i; bc[j] != NULL; j++)
    g_string_append (rel, ".." G_DIR_SEPARATOR_S);
  for (guint j = i; pc[j] != NULL; j++)
    {
      if (j > i)
        g_string_append_c (rel, G_DIR_SEPARATOR);
      g_string_append (rel, pc[j]);
    }
  return g_string_free (rel, FALSE);
}

/* The scene as JSON text (members always in the same order, so a saved,
 * loaded and saved scene gives the same bytes). */
char *
fr_scene_doc_to_json (const FrSceneDoc *doc,
                      const char       *base_dir)
{
  const FrModel *m;
  GString *s;

  g_return_val_if_fail (doc != NULL && doc->model != NULL, NULL);

  m = doc->model;
  s = g_string_new ("{\n");
  g_string_append_printf (s, "  \"format\": \"%s\",\n  \"version\": %d,\n",
                          FR_SCENE_FILE_FORMAT, FR_SCENE_FILE_VERSION);
  if (doc->title != NULL)
    {
      g_string_append (s, "  \"title\": ");
      put_string (s, doc->title);
      g_string_append (s, ",\n");
    }
  g_string_append_printf (s, "  \"grid\": {\"nx\": %zu, \"nz\": %zu, \"spacing\": ", m->grid.nx, m->grid.nz);
  put_pair (s, m->grid.dx, m->grid.dz);
  g_string_append (s, ", \"origin\": ");
  put_pair (s, m->grid.x0, m->grid.z0);
  g_string_append (s, "},\n  \"default_velocity\": ");
  put_number (s, m->default_velocity);
  g_string_append (s, ",\n");

  /* A background without a file (a built-in model) cannot be referenced. */
  if (m->background != NULL && m->background->path != NULL)
    {
      g_autofree char *rel = relative_path (m->background->path, base_dir);

      g_string_append (s, "  \"background\": {\"path\": ");
      put_string (s, rel);
      g_string_append (s, ", \"format\": ");
      put_string (s, m->background->format);
      g_string_append (s, ", \"spacing\": ");
      put_pair (s, m->background->grid.dx, m->background->grid.dz);
      g_string_append (s, ", \"origin\": ");
      put_pair (s, m->background->grid.x0, m->background->grid.z0);
      g_string_append (s, "},\n");
    }

  g_string_append (s, "  \"layers\": [");
  for (guint i = 0; i < m->layers->len; i++)
    {
      const FrLayer *l = g_ptr_array_index (m->layers, i);

      g_string_append (s, i > 0 ? ",\n    {\"velocity\": " : "\n    {\"velocity\": ");
      put_number (s, l->v_top);
      g_string_append (s, ", \"dvdz\": ");
      put_number (s, l->dvdz);
      g_string_append (s, ", \"dvdx\": ");
      put_number (s, l->dvdx);
      /* Written where it is not the 0 that a file without it means. */
      if (l->x_ref != 0.0)
        {
          g_string_append (s, ", \"dvdx_from\": ");
          put_number (s, l->x_ref);
        }
      g_string_append (s, ", \"interface\": ");
      put_points (s, l->nodes);
      g_string_append_c (s, '}');
    }
  g_string_append (s, m->layers->len > 0 ? "\n  ],\n" : "],\n");

  g_string_append (s, "  \"obstacles\": [");
  for (guint i = 0; i < m->obstacles->len; i++)
    {
      const FrObstacle *o = g_ptr_array_index (m->obstacles, i);

      g_string_append_printf (s, "%s    {\"shape\": \"%s\", \"velocity\": ", i > 0 ? ",\n" : "\n",
                              o->shape == FR_OBSTACLE_RECTANGLE ? "rectangle" : "polygon");
      put_number (s, o->velocity);
      g_string_append (s, ", \"vertices\": ");
      put_points (s, o->vertices);
      g_string_append_c (s, '}');
    }
  g_string_append (s, m->obstacles->len > 0 ? "\n  ],\n" : "],\n");

  g_string_append (s, "  \"sources\": ");
  put_points (s, doc->sources);
  g_string_append (s, ",\n  \"receivers\": ");
  put_points (s, doc->receivers);
  if (doc->separate_shots)
    g_string_append (s, ",\n  \"shots\": \"separate\"");
  /* One number where the radii agree, as every earlier version wrote. */
  if (doc->radius.x == doc->radius.z)
    g_string_append_printf (s, ",\n  \"solver\": {\"radius\": %d, \"backend\": ", doc->radius.x);
  else
    g_string_append_printf (s, ",\n  \"solver\": {\"radius\": [%d, %d], \"backend\": ",
                            doc->radius.x, doc->radius.z);
  put_string (s, doc->backend != NULL ? doc->backend : "auto");
  g_string_append_c (s, '}');

  if (doc->has_fold)
    {
      g_string_append (s, ",\n  \"fold\": {\"psi_a\": ");
      put_pair (s, doc->psi_a[0], doc->psi_a[1]);
      g_string_append (s, ", \"method\": ");
      put_string (s, doc->fold_method != NULL ? doc->fold_method : "las");
      if (doc->fold_backend != NULL)
        {
          g_string_append (s, ", \"backend\": ");
          put_string (s, doc->fold_backend);
        }
      if (doc->has_fold_speed && doc->fold_speed_from_grid)
        {
          g_string_append (s, ", \"speed\": \"grid\"");
          if (doc->fold_speed > 0.0)
            {
              g_string_append (s, ", \"speed_constant\": ");
              put_number (s, doc->fold_speed);
            }
        }
      else if (doc->has_fold_speed)
        {
          g_string_append (s, ", \"speed\": ");
          put_number (s, doc->fold_speed);
        }
      if (doc->has_fold_levels)
        {
          g_string_append (s, ", \"delta\": ");
          put_number (s, doc->fold_delta);
          g_string_append_printf (s, ", \"count\": %d", doc->fold_count);
        }
      if (doc->has_fold_bands)
        g_string_append_printf (s, ", \"bands\": %s", doc->fold_bands ? "true" : "false");
      if (doc->fold_horizon != NULL)
        {
          g_string_append (s, ", \"horizon\": ");
          put_points (s, doc->fold_horizon);
        }
      if (doc->fold_characteristics != NULL)
        {
          g_string_append (s, ", \"characteristics\": ");
          put_points (s, doc->fold_characteristics);
        }
      g_string_append_c (s, '}');
    }
  if (doc->has_mode)
    g_string_append_printf (s, ",\n  \"mode\": \"%s\"", doc->folds_mode ? "folds" : "rays");
  if (doc->has_view)
    {
      g_string_append (s, ",\n  \"view\": {\"cx\": ");
      put_number (s, doc->view_cx);
      g_string_append (s, ", \"cz\": ");
      put_number (s, doc->view_cz);
      g_string_append (s, ", \"scale\": ");
      put_number (s, doc->view_scale);
      g_string_append_c (s, '}');
    }
  if (doc->has_display)
    {
      g_string_append (s, ",\n  \"display\": {\"interval\": ");
      put_number (s, doc->display_interval);
      g_string_append (s, ", \"colormap\": ");
      put_string (s, doc->display_colormap != NULL ? doc->display_colormap
                                                   : FR_SCENE_DISPLAY_COLORMAP);
      g_string_append_printf (s, ", \"wavefront\": %s, \"wavefront_time\": ",
                              doc->display_wavefront ? "true" : "false");
      put_number (s, doc->display_wavefront_time);
      g_string_append_c (s, '}');
    }
  if (doc->has_units)
    {
      g_string_append (s, ",\n  \"units\": {\"length\": ");
      put_string (s, fr_length_unit_get_id (doc->length_unit));
      g_string_append_c (s, '}');
    }
  g_string_append (s, "\n}\n");
  return g_string_free (s, FALSE);
}

/* A save that failed with errno e, told about path: the file the user
 * saves, never the temporary file nor a link's target. */
static gboolean
save_failed (GError     **error,
             const char  *path,
             int          e)
{
  g_autofree char *shown = g_filename_display_name (path);

  g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_IO, "%s: %s", shown, g_strerror (e));
  return FALSE;
}

/* A save that the library refused: its message names path in the file
 * system's bytes; a GError's message is UTF-8 (a Latin-1 name would
 * blank the dialog). */
static gboolean
save_refused (GError         **error,
              const fr_error  *err)
{
  fr_message_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_IO, err->message);
  return FALSE;
}

static gboolean
save_doc (const FrSceneDoc  *doc,
          const char        *path,
          gboolean           private,
          GError           **error)
{
  fr_atomic_file af;
  fr_error err = { 0 };
  g_autofree char *abs = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *text = NULL;
  size_t len;

  g_return_val_if_fail (doc != NULL && doc->model != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* Its messages name path as given (no temporary file). */
  if ((private ? fr_atomic_open_private (&af, path, &err)
               : fr_atomic_open (&af, path, &err)) != FR_OK)
    return save_refused (error, &err);
  /* Relative paths start from the folder of the file written. */
  abs = g_canonicalize_filename (af.path, NULL);
  dir = g_path_get_dirname (abs);
  text = fr_scene_doc_to_json (doc, dir);
  len = strlen (text);

  /* A write that fails here is told with its own errno, which the
   * stream's error flag would lose by the commit. */
  errno = 0;
  if (fwrite (text, 1, len, af.fp) != len)
    {
      int e = errno != 0 ? errno : EIO;

      fr_atomic_abort (&af);
      return save_failed (error, path, e);
    }

  /* Flush, fsync, close and rename: the commit's message names path as
   * given (a link the user saves, not its target). */
  if (fr_atomic_commit (&af, &err) != FR_OK)
    return save_refused (error, &err);
  return TRUE;
}

/* Writes the scene atomically through fr_atomic_file (a temporary file
 * beside it, flushed, then renamed over it): a failure leaves the old file
 * whole.  Saved through a symbolic link, the link stays and its target is
 * replaced; a file replaced keeps its permissions (a private scene stays
 * private) and, where the system lets us, its owner and group. */
gboolean
fr_scene_doc_save (const FrSceneDoc  *doc,
                   const char        *path,
                   GError           **error)
{
  return save_doc (doc, path, FALSE, error);
}

/* As fr_scene_doc_save, but a new file is made 0600: an autosave holds
 * unsaved work, and its folder may be one that others can read. */
gboolean
fr_scene_doc_save_private (const FrSceneDoc  *doc,
                           const char        *path,
                           GError           **error)
{
  return save_doc (doc, path, TRUE, error);
}
