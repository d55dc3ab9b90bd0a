/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One row of the marker list (fr-marker-panel.c): which marker it is and
 * its texts, as properties that the row's labels are bound to, so that a
 * changed text redraws only its label. */
#pragma once

#include <glib-object.h>

#include "fr-scene.h"

G_BEGIN_DECLS

#define FR_TYPE_MARKER_ITEM (fr_marker_item_get_type ())

G_DECLARE_FINAL_TYPE (FrMarkerItem, fr_marker_item, FR, MARKER_ITEM, GObject)

FrMarkerItem *fr_marker_item_new      (void);
gboolean      fr_marker_item_update   (FrMarkerItem *self,
                                       FrMarkerKind  kind,
                                       guint         index,
                                       double        x,
                                       double        z,
                                       double        time,
                                       int           decimals);
void          fr_marker_item_set_texts (FrMarkerItem *self,
                                       const char   *name,
                                       const char   *x,
                                       const char   *z,
                                       const char   *time);
FrMarkerKind  fr_marker_item_get_kind (FrMarkerItem *self,
                                       guint        *index);
const char   *fr_marker_item_get_text (FrMarkerItem *self,
                                       const char   *property);

G_END_DECLS
