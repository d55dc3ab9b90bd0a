/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the bundled data (example grids, fold horizons, scenes) is read
 * from: $FOLDRAY_DATA_DIR, else the source tree's data/ for a binary run
 * from its build folder, else the installed $datadir/foldray. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The path of data/<folder>/<file> as found first in those places, or
 * NULL. */
char *fr_data_find (const char *folder, const char *file);

G_END_DECLS
