/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A library's message (libfoldray's fr_error, a file name in it as its
 * bytes) carried into a GError, whose message a dialog shows and must be
 * UTF-8. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void fr_message_set_error (GError     **error,
                           GQuark       domain,
                           gint         code,
                           const char  *message);

char *fr_message_make_valid (const char  *message);

G_END_DECLS
