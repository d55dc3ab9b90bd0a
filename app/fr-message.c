/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-message"

#include "fr-message.h"

/* Sets error (which may be NULL) to domain, code and message made valid
 * UTF-8: a name in Latin-1 shows its bytes as U+FFFD, the rest as is. */
void
fr_message_set_error (GError     **error,
                      GQuark       domain,
                      gint         code,
                      const char  *message)
{
  g_autofree char *valid = NULL;

  g_return_if_fail (message != NULL);

  valid = g_utf8_make_valid (message, -1);
  g_set_error_literal (error, domain, code, valid);
}
