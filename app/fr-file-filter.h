/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The file choosers' filters.  They match a name's suffix in any case:
 * SEG-Y files come from acquisition as LINE.SGY as often as line.sgy, and
 * Save As takes SCENE.JSON as a scene's name; a pattern ("*.sgy") matches
 * one case only, so the chooser hid such files from Open. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkFileFilter *fr_file_filter_new      (const char *name,
                                        const char *suffix,
                                        ...) G_GNUC_NULL_TERMINATED;
GtkFileFilter *fr_file_filter_new_open (void);

G_END_DECLS
