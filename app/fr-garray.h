/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Equality of GArrays of plain values (points, vertices): the undo history
 * and the fold state use it to tell an edit that changed nothing. */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* Byte for byte: the element types compared this way have no padding.
 * An empty array's data may be NULL, which memcmp must not be given. */
static inline gboolean
fr_garray_equal (GArray *a,
                 GArray *b)
{
  guint size = g_array_get_element_size (a);

  return a->len == b->len && size == g_array_get_element_size (b) &&
         (a->len == 0 || memcmp (a->data, b->data, (gsize) size * a->len) == 0);
}

G_END_DECLS
