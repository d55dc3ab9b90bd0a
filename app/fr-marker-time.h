/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the marker list's T column shows (fr-marker-panel.c): whether a
 * result's T is still that of the scene and of the solver settings asked
 * for now, else a dash until the new solve lands; and T with one number
 * of decimals for every row, enough for five significant digits of the
 * field's largest T, so that the right-aligned column's decimal points
 * line up. */
#pragma once

#include "fr-job.h"
#include "fr-scene.h"

G_BEGIN_DECLS

gboolean  fr_marker_time_is_current (const FrResult *result,
                                     FrScene        *scene,
                                     FrRadius        radius,
                                     fr_spr_backend  backend);
int       fr_marker_time_decimals   (double          time_max);
char     *fr_marker_time_format     (double          t,
                                     int             decimals,
                                     char           *buf,
                                     gsize           size);

G_END_DECLS
