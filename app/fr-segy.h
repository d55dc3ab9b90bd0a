/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SEG-Y velocity models through segyio: one trace per grid column (x), its
 * samples down the column (z); every trace of the binary header's length
 * and starting at one depth.  The file carries its spacing when the
 * traces' CDP X coordinates (byte 181, with the scalar of byte 71) step
 * evenly and a sample interval is set (the first trace header's that gives
 * one, bytes 117-118, else the binary header's; where both are set and
 * differ, the spacing counts as not given, so the user confirms it, and
 * traces with different intervals are refused); dz is then the
 * interval / 1000 (depth models store metres × 1000 there, as segyio's
 * writers do for milliseconds), x0 the first trace's CDP X and z0 the
 * delay recording time (bytes 109-110).  Otherwise the caller asks the
 * user for the spacing. */
#pragma once

#include <glib.h>

#include "fr-grid.h"

G_BEGIN_DECLS

gboolean fr_segy_available    (void);
gboolean fr_segy_is_segy_name (const char     *path);
gboolean fr_segy_read         (const char     *path,
                               fr_grid        *grid,
                               gboolean       *has_spacing,
                               GBytes        **values,
                               GError        **error);

G_END_DECLS
