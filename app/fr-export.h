/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writing what the canvas shows: the picture as PNG, T and velocity as
 * .npy and .vti, rays as CSV and .vtp, the receivers and the arrival
 * times at them as CSV, and those times as a traveltime curve (SVG, PDF).  Every writer is atomic: a failure
 * leaves no file behind, partial or otherwise. */
#pragma once

#include <gtk/gtk.h>
#include <cairo.h>

#include "fr-colormap.h"
#include "fr-job.h"
#include "fr-scene.h"
#include "fr-view.h"

G_BEGIN_DECLS

typedef enum
{
  FR_EXPORT_PICTURE,
  FR_EXPORT_TIME_NPY,
  FR_EXPORT_TIME_VTI,
  FR_EXPORT_VELOCITY_NPY,
  FR_EXPORT_VELOCITY_VTI,
  FR_EXPORT_RAYS_CSV,
  FR_EXPORT_RAYS_VTP,
  FR_EXPORT_FIGURE_SVG,       /* fr-figure.c */
  FR_EXPORT_FIGURE_PDF,
  FR_EXPORT_HORIZONS_CSV,     /* folded horizons: fr-fold-job.c */
  FR_EXPORT_HORIZONS_VTP,
  FR_EXPORT_RECEIVERS_CSV,    /* the scene's receivers, as foldray-cli reads them */
  FR_EXPORT_TIMES_CSV,        /* T at each receiver, as foldray-cli --times-out writes it */
  FR_EXPORT_CURVE_SVG,        /* the traveltime curve as a figure: fr-time-plot.c */
  FR_EXPORT_CURVE_PDF,
} FrExportKind;

gboolean  fr_export_png          (cairo_surface_t  *picture,
                                  const FrView     *view,
                                  FrScene          *scene,
                                  FrColormap        colormap,
                                  const char       *path,
                                  GError          **error);
gboolean  fr_export_grid         (FrExportKind      kind,
                                  const fr_grid    *grid,
                                  const float      *values,
                                  const char       *name,
                                  const char       *path,
                                  GError          **error);
gboolean  fr_export_rays         (FrExportKind      kind,
                                  FrResult         *result,
                                  const char       *path,
                                  GError          **error);
gboolean  fr_export_is_of_receivers (FrExportKind  kind);
gboolean  fr_export_has_receivers (FrScene         *scene,
                                  GError          **error);
gboolean  fr_export_receivers    (FrScene          *scene,
                                  const char       *path,
                                  GError          **error);
gboolean  fr_export_times        (FrResult         *result,
                                  const char       *path,
                                  GError          **error);
gboolean  fr_export_curve        (FrExportKind      kind,
                                  FrScene          *scene,
                                  FrResult         *result,
                                  const char       *path,
                                  GError          **error);
gboolean  fr_export_result       (FrExportKind      kind,
                                  FrScene          *scene,
                                  FrResult         *result,
                                  const char       *path,
                                  GError          **error);
gboolean  fr_export_check_target (FrScene          *scene,
                                  const char       *scene_path,
                                  const char       *path,
                                  GError          **error);
const char *fr_export_suffix     (FrExportKind      kind);
char     *fr_export_file_for     (FrExportKind      kind,
                                  const char       *path,
                                  GError          **error);
void      fr_export_chooser_setup (GtkFileChooser   *chooser,
                                  FrExportKind      kind,
                                  const char       *scene_path,
                                  const char       *basename);
int       fr_export_chooser_get_scale (GtkFileChooser *chooser,
                                  FrExportKind      kind);
gboolean  fr_export_write_file   (const char       *path,
                                  const void       *data,
                                  gsize             length,
                                  GError          **error);

G_END_DECLS
