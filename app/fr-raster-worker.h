/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rasterises the drawn model off the main thread while the user drags a
 * node or an obstacle: a 3000 × 2000 model takes about 0.2 s, which held
 * the window still at every pointer move.  At most one rasterisation runs;
 * a model pushed meanwhile waits, and only the newest waiting one is kept
 * (latest wins).  Each result lands on the main context in push order, so
 * nothing older than what was shown ever is. */
#pragma once

#include <glib.h>

#include "fr-model.h"

G_BEGIN_DECLS

typedef struct _FrRasterWorker FrRasterWorker;

/* A rasterisation of model landed (main thread): its velocity and
 * warning, or its error with velocity NULL.  All four are borrowed. */
typedef void (*FrRasterLanded) (const FrModel *model,
                                GBytes        *velocity,
                                const char    *warning,
                                const GError  *error,
                                gpointer       user_data);

FrRasterWorker *fr_raster_worker_new    (FrRasteriseFunc  rasterise,
                                         FrRasterLanded   landed,
                                         gpointer         user_data);
void            fr_raster_worker_free   (FrRasterWorker  *worker);
void            fr_raster_worker_push   (FrRasterWorker  *worker,
                                         const FrModel   *model);
void            fr_raster_worker_drop   (FrRasterWorker  *worker);
gboolean        fr_raster_worker_finish (FrRasterWorker  *worker,
                                         GBytes         **velocity,
                                         char           **warning,
                                         GError         **error);

G_END_DECLS
