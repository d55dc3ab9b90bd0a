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

/* message made valid UTF-8 for a dialog: where it quotes text that was cut
 * inside a character (json-glib quotes a token at fault cut at a byte
 * count, "…ab\xc2" for "…ab·z "), the piece of that character before the
 * closing quote is dropped, so the quote ends on the character before it;
 * any other byte that is not UTF-8 shows as U+FFFD. */
char *
fr_message_make_valid (const char *message)
{
  GString *s;
  const char *p, *bad;

  g_return_val_if_fail (message != NULL, NULL);

  s = g_string_new (NULL);
  for (p = message; !g_utf8_validate (p, -1, &bad); )
    {
      gsize n = 1;

      g_string_append_len (s, p, bad - p);
      while (((guchar) bad[n] & 0xC0) == 0x80)
        n++;
      if (bad[n] == '"' && g_utf8_get_char_validated (bad, (gssize) n) == (gunichar) -2)
        p = bad + n;
      else
        {
          g_string_append_unichar (s, 0xFFFD);
          p = bad + 1;
        }
    }
  g_string_append (s, p);
  return g_string_free (s, FALSE);
}
