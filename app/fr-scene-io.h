/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bundled example grids, found in the data folders or built in.  (A
 * grid file with its sidecar is read by fr_scene_file_read_grid.) */
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

GQuark    fr_scene_io_error_quark        (void);
char     *fr_scene_io_find_example_scene (const char  *name);
char     *fr_scene_io_find_example       (const char  *name);
gboolean  fr_scene_io_load_example       (const char  *name,
                                          fr_grid     *grid,
                                          GBytes     **velocity,
                                          char       **title,
                                          GError     **error);

G_END_DECLS
