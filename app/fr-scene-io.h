/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reading velocity models for the scene: `.npy` grids with their JSON
 * sidecar (spacing and origin), and the bundled example scenes. */
#pragma once

#include <gio/gio.h>

#include "fr-grid.h"

G_BEGIN_DECLS

#define FR_SCENE_IO_ERROR (fr_scene_io_error_quark ())

typedef enum
{
  FR_SCENE_IO_ERROR_FAILED,
  FR_SCENE_IO_ERROR_INVALID,
} FrSceneIoError;

GQuark    fr_scene_io_error_quark   (void);
gboolean  fr_scene_io_read_npy      (const char  *path,
                                     fr_grid     *grid,
                                     GBytes     **velocity,
                                     GError     **error);
char     *fr_scene_io_sidecar_path  (const char  *npy_path);
gboolean  fr_scene_io_read_sidecar  (const char  *npy_path,
                                     fr_grid     *grid,
                                     gboolean    *found,
                                     GError     **error);
char     *fr_scene_io_find_example  (const char  *name);
gboolean  fr_scene_io_load_example  (const char  *name,
                                     fr_grid     *grid,
                                     GBytes     **velocity,
                                     char       **title,
                                     GError     **error);

G_END_DECLS
