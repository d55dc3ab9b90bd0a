/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-export"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "fr-array.h"
#include "fr-atomic-file.h"
#include "fr-axes-draw.h"
#include "fr-csv.h"
#include "fr-shot-job.h"
#include "fr-export.h"
#include "fr-message.h"
#include "fr-npy.h"
#include "fr-time-plot.h"
#include "fr-vtk.h"

static cairo_status_t
append_bytes (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* The library's message, which names a file in its own bytes, made UTF-8
 * as a GError's message must be (a Latin-1 name would blank the dialog). */
static gboolean
fail_fr (GError        **error,
         const fr_error *err)
{
  fr_message_set_error (error, G_IO_ERROR,
                        err->code == FR_E_IO ? G_IO_ERROR_FAILED : G_IO_ERROR_INVALID_ARGUMENT,
                        err->message);
  return FALSE;
}

/* Writes picture (the GL rendering) with the axes and colour bar drawn
 * over it, scaled like the picture, as a PNG at path. */
gboolean
fr_export_png (cairo_surface_t  *picture,
               const FrView     *view,
               FrScene          *scene,
               FrColormap        colormap,
               const char       *path,
               GError          **error)
{
  g_autoptr(GByteArray) png = NULL;
  cairo_t *cr;
  FrPlotLayout layout;
  FrView scaled;
  int width, height;
  cairo_status_t status;

  g_return_val_if_fail (picture != NULL, FALSE);
  g_return_val_if_fail (view != NULL, FALSE);
  g_return_val_if_fail (FR_IS_SCENE (scene), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  width = cairo_image_surface_get_width (picture);
  height = cairo_image_surface_get_height (picture);
  scaled = fr_view_scaled (view, width, height);

  fr_plot_layout_for_view (&layout, &scaled, scene, width / view->width);
  cr = cairo_create (picture);
  fr_axes_draw (cr, &scaled, &layout, scene, colormap, width / view->width, FR_AXES_ON_CANVAS);
  cairo_destroy (cr);
  cairo_surface_flush (picture);

  png = g_byte_array_new ();
  status = cairo_surface_write_to_png_stream (picture, append_bytes, png);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not encode the picture: %s"),
                   cairo_status_to_string (status));
      return FALSE;
    }
  return fr_export_write_file (path, png->data, png->len, error);
}

/* The name of an export's file type, for the file chooser's filter. */
static const char *
format_name (FrExportKind kind)
{
  switch (kind)
    {
    case FR_EXPORT_PICTURE:
      return _("PNG pictures");
    case FR_EXPORT_TIME_NPY:
    case FR_EXPORT_VELOCITY_NPY:
      return _("NumPy arrays");
    case FR_EXPORT_TIME_VTI:
    case FR_EXPORT_VELOCITY_VTI:
      return _("VTK image data (ParaView)");
    case FR_EXPORT_RAYS_CSV:
    case FR_EXPORT_HORIZONS_CSV:
    case FR_EXPORT_RECEIVERS_CSV:
    case FR_EXPORT_TIMES_CSV:
      return _("CSV files");
    case FR_EXPORT_RAYS_VTP:
    case FR_EXPORT_HORIZONS_VTP:
      return _("VTK polygonal data (ParaView)");
    case FR_EXPORT_FIGURE_SVG:
    case FR_EXPORT_CURVE_SVG:
      return _("SVG figures");
    case FR_EXPORT_FIGURE_PDF:
    case FR_EXPORT_CURVE_PDF:
      return _("PDF figures");
    default:
      g_return_val_if_reached (NULL);
    }
}

/* Prepares a save chooser for an export: a filter for its format, the
 * picture's size choice, and a proposed file beside the scene
 * (scene_path, or NULL when it was never saved) named after it. */
void
fr_export_chooser_setup (GtkFileChooser *chooser,
                         FrExportKind    kind,
                         const char     *scene_path,
                         const char     *basename)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *pattern = g_strconcat ("*", fr_export_suffix (kind), NULL);
  g_autofree char *label = NULL;
  g_autofree char *name = NULL;
  g_autofree char *stem = NULL;

  g_return_if_fail (GTK_IS_FILE_CHOOSER (chooser));
  g_return_if_fail (basename != NULL);

  /* Translators: a file type and its pattern, e.g. "CSV files (*.csv)". */
  label = g_strdup_printf (_("%s (%s)"), format_name (kind), pattern);
  gtk_file_filter_set_name (filter, label);
  gtk_file_filter_add_suffix (filter, fr_export_suffix (kind) + 1);   /* FIG.PNG too */
  gtk_file_chooser_add_filter (chooser, filter);
  gtk_file_chooser_set_filter (chooser, filter);

  if (kind == FR_EXPORT_PICTURE)
    {
      static const char *ids[] = { "1", "2", "3", "4", NULL };
      const char *labels[] = { _("Canvas size"), _("2× canvas size"), _("3× canvas size"),
                               _("4× canvas size"), NULL };

      gtk_file_chooser_add_choice (chooser, "scale", _("Size"), ids, labels);
      gtk_file_chooser_set_choice (chooser, "scale", "1");
    }

  if (scene_path != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (scene_path);
      g_autofree char *base = g_path_get_basename (scene_path);
      g_autoptr(GFile) folder = g_file_new_for_path (dir);
      char *dot = strrchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      gtk_file_chooser_set_current_folder (chooser, folder, NULL);
      stem = g_strdup_printf ("%s-%s", base, basename);
    }
  name = g_strconcat (stem != NULL ? stem : basename, fr_export_suffix (kind), NULL);
  gtk_file_chooser_set_current_name (chooser, name);
}

/* The picture's size factor chosen in a chooser set up by
 * fr_export_chooser_setup; 1 for every other export (asking GTK for a
 * choice the chooser lacks warns). */
int
fr_export_chooser_get_scale (GtkFileChooser *chooser,
                             FrExportKind    kind)
{
  const char *scale;

  g_return_val_if_fail (GTK_IS_FILE_CHOOSER (chooser), 1);

  if (kind != FR_EXPORT_PICTURE)
    return 1;
  scale = gtk_file_chooser_get_choice (chooser, "scale");
  return scale != NULL ? CLAMP (atoi (scale), 1, 8) : 1;
}

/* Writes data to path atomically, through fr_atomic_file like every
 * other output: a failed write leaves the old file whole; a symbolic link
 * is written through; a device, pipe or folder at path is refused, not
 * replaced; a file replaced keeps its permissions.  Errors name path, the
 * file the user chose (never the temporary file, nor a link's target). */
gboolean
fr_export_write_file (const char  *path,
                      const void  *data,
                      gsize        length,
                      GError     **error)
{
  fr_atomic_file af;
  fr_error err = { 0 };
  g_autofree char *shown = NULL;
  g_autofree char *reason = NULL;
  const char *m;
  int e;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  shown = g_filename_display_name (path);

  if (fr_atomic_open (&af, path, &err) != FR_OK)
    goto failed;
  errno = 0;
  if (fwrite (data, 1, length, af.fp) != length)
    {
      e = errno != 0 ? errno : EIO;
      fr_atomic_abort (&af);
      /* Translators: the file the user chose, then why it could not be written. */
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), _("Could not write “%s”: %s"),
                   shown, g_strerror (e));
      return FALSE;
    }
  if (fr_atomic_commit (&af, &err) == FR_OK)
    return TRUE;

failed:
  /* The library's messages are "PATH: reason" (path as given) or name no file. */
  m = err.message;
  if (g_str_has_prefix (m, path) && strncmp (m + strlen (path), ": ", 2) == 0)
    m += strlen (path) + 2;
  reason = g_utf8_make_valid (m, -1);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not write “%s”: %s"), shown, reason);
  return FALSE;
}

/* Writes a node grid (T or velocity) as .npy or .vti. */
gboolean
fr_export_grid (FrExportKind    kind,
                const fr_grid  *grid,
                const float    *values,
                const char     *name,
                const char     *path,
                GError        **error)
{
  fr_error err = { 0 };

  g_return_val_if_fail (grid != NULL, FALSE);
  g_return_val_if_fail (values != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  switch (kind)
    {
    case FR_EXPORT_TIME_NPY:
    case FR_EXPORT_VELOCITY_NPY:
      {
        fr_array a = fr_array_wrap_grid (grid, FR_F32, values);

        if (fr_npy_write (path, &a, &err) != FR_OK)
          return fail_fr (error, &err);
        return TRUE;
      }

    case FR_EXPORT_TIME_VTI:
    case FR_EXPORT_VELOCITY_VTI:
      {
        fr_vtk_field field = { name, FR_F32, values };

        if (fr_vtk_write_image (path, grid, &field, 1, &err) != FR_OK)
          return fail_fr (error, &err);
        return TRUE;
      }

    case FR_EXPORT_PICTURE:
    case FR_EXPORT_RAYS_CSV:
    case FR_EXPORT_RAYS_VTP:
    default:
      g_return_val_if_reached (FALSE);
    }
}

/* Writes the result's rays as CSV (CONTRACT.md's RAYS.csv) or .vtp. */
gboolean
fr_export_rays (FrExportKind   kind,
                FrResult      *result,
                const char    *path,
                GError       **error)
{
  fr_error err = { 0 };
  guint n;

  g_return_val_if_fail (result != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  n = result->rays->len;
  if (kind == FR_EXPORT_RAYS_CSV)
    {
      g_autofree fr_csv_ray *rays = g_new0 (fr_csv_ray, MAX (n, 1));

      for (guint i = 0; i < n; i++)
        {
          GArray *ray = g_ptr_array_index (result->rays, i);

          rays[i].receiver = i;
          rays[i].npoints = ray->len / 2;
          rays[i].points = (const double *) ray->data;
        }
      if (fr_csv_write_rays (path, 2, rays, n, &err) != FR_OK)
        return fail_fr (error, &err);
      return TRUE;
    }
  else if (kind == FR_EXPORT_RAYS_VTP)
    {
      g_autofree const double **pts = g_new0 (const double *, MAX (n, 1));
      g_autofree size_t *npts = g_new0 (size_t, MAX (n, 1));

      for (guint i = 0; i < n; i++)
        {
          GArray *ray = g_ptr_array_index (result->rays, i);

          pts[i] = (const double *) ray->data;
          npts[i] = ray->len / 2;
        }
      if (fr_vtk_write_polylines (path, 2, pts, npts, n, "receiver", &err) != FR_OK)
        return fail_fr (error, &err);
      return TRUE;
    }
  g_return_val_if_reached (FALSE);
}

/* Whether an export is of the receivers (the receivers file, the arrival
 * times, the traveltime curve): Rays mode's, and only where there are
 * receivers. */
gboolean
fr_export_is_of_receivers (FrExportKind kind)
{
  return kind == FR_EXPORT_RECEIVERS_CSV || kind == FR_EXPORT_TIMES_CSV ||
         kind == FR_EXPORT_CURVE_SVG || kind == FR_EXPORT_CURVE_PDF;
}

gboolean
fr_export_has_receivers (FrScene  *scene,
                         GError  **error)
{
  guint n;

  g_return_val_if_fail (FR_IS_SCENE (scene), FALSE);

  fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  if (n > 0)
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                       _("There are no receivers to export: Shift+click the model to place "
                         "one, or import a receivers file"));
  return FALSE;
}

/* Writes the scene's receivers as a receivers file (CONTRACT.md's R.csv:
 * `x,z`, one per line), which foldray-cli and Import Receivers read back. */
gboolean
fr_export_receivers (FrScene     *scene,
                     const char  *path,
                     GError     **error)
{
  fr_error err = { 0 };
  g_autofree double *xz = NULL;
  const FrPoint *receivers;
  fr_points points;
  guint n;

  g_return_val_if_fail (FR_IS_SCENE (scene), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!fr_export_has_receivers (scene, error))
    return FALSE;
  receivers = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  xz = g_new (double, 2 * (gsize) n);
  for (guint i = 0; i < n; i++)
    {
      xz[2 * i] = receivers[i].x;
      xz[2 * i + 1] = receivers[i].z;
    }
  points = (fr_points) { .ndim = 2, .count = n, .xyz = xz };
  if (fr_csv_write_points (path, &points, &err) != FR_OK)
    return fail_fr (error, &err);
  return TRUE;
}

/* Writes the first-arrival time at each receiver of the result's solve,
 * as foldray-cli's --times-out does (`receiver,x,z,t`, inf where no source
 * reaches it): T at the node the receiver stands on (the scene keeps
 * receivers on nodes), in single precision, as the result holds T.  Where
 * each source fired alone, every shot's times, shot by shot
 * (`source,source_x,source_z,receiver,x,z,t`, fr_csv_write_shot_times). */
gboolean
fr_export_times (FrResult    *result,
                 const char  *path,
                 GError     **error)
{
  const FrJob *job;
  g_autofree double *t = NULL;
  fr_points points;
  fr_error err = { 0 };

  g_return_val_if_fail (result != NULL && result->time != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  job = result->job;
  if (job->kind != FR_JOB_SPR || job->n_receivers == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("There are no arrival times to export: Shift+click the model to "
                             "place a receiver, or import a receivers file"));
      return FALSE;
    }
  points = (fr_points) { .ndim = 2, .count = job->n_receivers, .xyz = job->receivers };
  if (result->shots != NULL)
    {
      const FrShots *shots = result->shots;
      const gsize n = (gsize) shots->n * shots->n_receivers;
      const fr_points sources = { .ndim = 2, .count = shots->n, .xyz = shots->sources };

      t = g_new (double, n);
      for (gsize i = 0; i < n; i++)
        t[i] = shots->times[i];
      if (fr_csv_write_shot_times (path, &sources, &points, t, TRUE, &err) != FR_OK)
        return fail_fr (error, &err);
      return TRUE;
    }
  t = g_new (double, job->n_receivers);
  for (guint k = 0; k < job->n_receivers; k++)
    {
      size_t ix, iz;

      if (!fr_grid_nearest_node (&job->grid, job->receivers[2 * k], 0.0,
                                 job->receivers[2 * k + 1], &ix, NULL, &iz))
        g_return_val_if_reached (FALSE);
      t[k] = result->time[fr_grid_index (&job->grid, ix, 0, iz)];
    }
  if (fr_csv_write_times (path, &points, t, TRUE, &err) != FR_OK)
    return fail_fr (error, &err);
  return TRUE;
}

/* Writes the receivers' traveltime curve (fr-time-plot.c), T against x as
 * the marker panel draws it, as an SVG or PDF figure. */
gboolean
fr_export_curve (FrExportKind   kind,
                 FrScene       *scene,
                 FrResult      *result,
                 const char    *path,
                 GError       **error)
{
  g_autoptr(FrTimePlot) plot = NULL;

  g_return_val_if_fail (kind == FR_EXPORT_CURVE_SVG || kind == FR_EXPORT_CURVE_PDF, FALSE);
  g_return_val_if_fail (FR_IS_SCENE (scene), FALSE);
  g_return_val_if_fail (result != NULL && result->time != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (result->job->kind != FR_JOB_SPR)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The traveltime curve belongs to Rays mode: switch to Rays mode to export it"));
      return FALSE;
    }
  if (!fr_export_has_receivers (scene, error))
    return FALSE;
  plot = fr_time_plot_new ();
  fr_time_plot_set_unit (plot, fr_scene_get_length_unit (scene));
  fr_time_plot_set_scene (plot, scene, result);
  return fr_time_plot_write (plot, kind == FR_EXPORT_CURVE_SVG ? FR_FIGURE_SVG : FR_FIGURE_PDF,
                             path, error);
}

/* Writes one of the non-picture exports of the current scene and result. */
gboolean
fr_export_result (FrExportKind   kind,
                  FrScene       *scene,
                  FrResult      *result,
                  const char    *path,
                  GError       **error)
{
  g_return_val_if_fail (FR_IS_SCENE (scene), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  switch (kind)
    {
    case FR_EXPORT_VELOCITY_NPY:
    case FR_EXPORT_VELOCITY_VTI:
      if (!fr_scene_has_model (scene))
        break;
      return fr_export_grid (kind, fr_scene_get_grid (scene),
                             g_bytes_get_data (fr_scene_get_velocity (scene), NULL),
                             "velocity", path, error);

    case FR_EXPORT_TIME_NPY:
    case FR_EXPORT_TIME_VTI:
      if (result == NULL || !result->ok || result->time == NULL)
        break;
      return fr_export_grid (kind, &result->job->grid, result->time, "T", path, error);

    case FR_EXPORT_RAYS_CSV:
    case FR_EXPORT_RAYS_VTP:
      if (result == NULL || !result->ok)
        break;
      return fr_export_rays (kind, result, path, error);

    case FR_EXPORT_RECEIVERS_CSV:
      return fr_export_receivers (scene, path, error);

    case FR_EXPORT_TIMES_CSV:
      if (result == NULL || !result->ok || result->time == NULL)
        break;
      return fr_export_times (result, path, error);

    case FR_EXPORT_CURVE_SVG:
    case FR_EXPORT_CURVE_PDF:
      if (result == NULL || !result->ok || result->time == NULL)
        break;
      return fr_export_curve (kind, scene, result, path, error);

    case FR_EXPORT_PICTURE:
    default:
      g_return_val_if_reached (FALSE);
    }

  /* A failed solve is no solve still running. */
  if (result != NULL && !result->ok)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                 _("There is nothing to export: the solve failed (%s)"),
                 result->error != NULL ? result->error : "");
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                         _("There is nothing to export yet: the traveltimes are still being computed"));
  return FALSE;
}

/* The file an export chosen as path writes: path itself when it ends in
 * the export's suffix, else path with the suffix added (as Save As adds
 * .json).  A name ending in another export's suffix (T.npy for the .vti
 * export) is refused: the file was written in the format chosen, whatever
 * its name said, and np.load called VTK XML "pickled data".  So is adding
 * the suffix onto a file that exists, which the chooser did not ask about. */
char *
fr_export_file_for (FrExportKind   kind,
                    const char    *path,
                    GError       **error)
{
  static const char *known[] = { ".png", ".npy", ".vti", ".vtp", ".csv", ".svg", ".pdf" };
  const char *suffix = fr_export_suffix (kind);
  g_autofree char *base = g_path_get_basename (path);
  const char *dot = strrchr (base, '.');
  char *with;

  g_return_val_if_fail (path != NULL, NULL);

  if (dot != NULL && g_ascii_strcasecmp (dot, suffix) == 0)
    return g_strdup (path);
  for (guint i = 0; dot != NULL && i < G_N_ELEMENTS (known); i++)
    if (g_ascii_strcasecmp (dot, known[i]) == 0)
      {
        g_autofree char *shown = g_filename_display_name (base);

        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                     _("“%s” ends in %s, but this export writes a %s file: name it with %s, "
                       "or choose the export that writes %s"), shown, known[i], suffix, suffix,
                     known[i]);
        return NULL;
      }
  with = g_strconcat (path, suffix, NULL);
  if (g_file_test (with, G_FILE_TEST_EXISTS))
    {
      g_autofree char *shown = g_filename_display_name (with);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("Exports of this kind end in %s, and %s already exists; type its name with "
                     "%s to replace it, or choose another"), suffix, shown, suffix);
      g_free (with);
      return NULL;
    }
  return with;
}

/* Whether a and b name one file (through links, and hard links too). */
static gboolean
same_file (const char *a,
           const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* FALSE, with a message naming it, when an export to path would replace
 * a file the scene reads: its background grid, or the scene file itself
 * (scene_path, NULL when unsaved).  The scene keeps the background's
 * values in memory, so nothing would show the loss until the scene is
 * opened again, over a grid that has become the export (layers painted
 * into it twice, or T read as velocities).  foldray-picture refuses an
 * --out that names an input in the same way. */
gboolean
fr_export_check_target (FrScene     *scene,
                        const char  *scene_path,
                        const char  *path,
                        GError     **error)
{
  const FrModel *model;
  g_autofree char *shown = NULL;

  g_return_val_if_fail (FR_IS_SCENE (scene), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  model = fr_scene_get_model (scene);
  shown = g_filename_display_name (path);
  if (model != NULL && model->background != NULL && same_file (path, model->background->path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("“%s” is this model’s background grid, which the scene reads when it is opened: "
                     "writing over it would change the model. Choose another name."), shown);
      return FALSE;
    }
  if (scene_path != NULL && same_file (path, scene_path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("“%s” is this scene’s own file. Choose another name."), shown);
      return FALSE;
    }
  return TRUE;
}

/* The file name suffix of an export, with its dot. */
const char *
fr_export_suffix (FrExportKind kind)
{
  switch (kind)
    {
    case FR_EXPORT_PICTURE:
      return ".png";
    case FR_EXPORT_TIME_NPY:
    case FR_EXPORT_VELOCITY_NPY:
      return ".npy";
    case FR_EXPORT_TIME_VTI:
    case FR_EXPORT_VELOCITY_VTI:
      return ".vti";
    case FR_EXPORT_RAYS_CSV:
    case FR_EXPORT_HORIZONS_CSV:
    case FR_EXPORT_RECEIVERS_CSV:
    case FR_EXPORT_TIMES_CSV:
      return ".csv";
    case FR_EXPORT_RAYS_VTP:
    case FR_EXPORT_HORIZONS_VTP:
      return ".vtp";
    case FR_EXPORT_FIGURE_SVG:
    case FR_EXPORT_CURVE_SVG:
      return ".svg";
    case FR_EXPORT_FIGURE_PDF:
    case FR_EXPORT_CURVE_PDF:
      return ".pdf";
    default:
      g_return_val_if_reached (NULL);
    }
}
