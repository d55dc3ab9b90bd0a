/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Perceptually uniform colour maps (matplotlib's viridis, cividis and
 * magma), as 256-entry lookup tables for the canvas and samples for the
 * colour bar. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  FR_COLORMAP_VIRIDIS,
  FR_COLORMAP_CIVIDIS,
  FR_COLORMAP_MAGMA,
  FR_N_COLORMAPS
} FrColormap;

#define FR_COLORMAP_LUT_SIZE 256

const char *fr_colormap_get_id     (FrColormap  map);
const char *fr_colormap_get_label  (FrColormap  map);
gboolean    fr_colormap_from_id    (const char *id,
                                    FrColormap *map);
void        fr_colormap_sample     (FrColormap  map,
                                    double      t,
                                    double      rgb[3]);
void        fr_colormap_fill_lut   (FrColormap  map,
                                    guint8      rgba[FR_COLORMAP_LUT_SIZE * 4]);

G_END_DECLS
