/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The traveltime of a result at a model point, for the cursor readout and
 * the marker list alike: one sampling rule, bilinear between nodes as the
 * canvas's shader draws T.  And whether a result's T is still that of the
 * scene's model and sources, for what shows T beside the markers. */
#pragma once

#include "fr-job.h"
#include "fr-scene.h"

G_BEGIN_DECLS

gboolean fr_result_time_at             (const FrResult *result,
                                        double          x,
                                        double          z,
                                        double         *t);
gboolean fr_result_time_matches_scene  (const FrResult *result,
                                        FrScene        *scene);
gboolean fr_result_shot_time_at        (const FrResult *result,
                                        guint           shot,
                                        guint           receiver,
                                        double          x,
                                        double          z,
                                        double         *t);

G_END_DECLS
