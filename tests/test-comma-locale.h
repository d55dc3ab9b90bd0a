/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A numeric locale with a decimal comma, as the GUI may run the writers
 * under: an installed one, else one built with localedef into dir
 * (Spanish numbers, POSIX for the rest).  Sets LC_NUMERIC to it and says
 * which, or returns NULL with LC_NUMERIC unchanged when none can be had;
 * the caller then skips what needed it, rather than passing with the C
 * locale's point. */
#pragma once

#include <glib.h>
#include <locale.h>

static inline const char *
test_comma_locale (const char *dir)
{
  static const char *const candidates[] = {
    "es_ES.UTF-8", "nb_NO.UTF-8", "de_DE.UTF-8", "fr_FR.UTF-8",
  };
  const char *found = NULL;
  char probe[16];

  for (size_t i = 0; i < G_N_ELEMENTS (candidates) && found == NULL; i++)
    if (setlocale (LC_NUMERIC, candidates[i]) != NULL)
      found = candidates[i];
  if (found == NULL)
    {
      /* Build one when the system has none compiled (which keeps
       * localedef well under a second). */
      static const char source[] =
        "LC_CTYPE\ncopy \"POSIX\"\nEND LC_CTYPE\n"
        "LC_COLLATE\ncopy \"POSIX\"\nEND LC_COLLATE\n"
        "LC_NUMERIC\ncopy \"es_ES\"\nEND LC_NUMERIC\n"
        "LC_MONETARY\ncopy \"POSIX\"\nEND LC_MONETARY\n"
        "LC_TIME\ncopy \"POSIX\"\nEND LC_TIME\n"
        "LC_MESSAGES\ncopy \"POSIX\"\nEND LC_MESSAGES\n";
      g_autofree char *localedef = g_find_program_in_path ("localedef");
      g_autofree char *src = g_build_filename (dir, "comma.src", NULL);
      g_autofree char *target = g_build_filename (dir, "xx_XX.UTF-8", NULL);
      /* -c: the missing optional categories only warn. */
      const char *argv[] = { localedef, "-c", "-i", src, "-f", "UTF-8", target, NULL };

      g_assert_true (g_file_set_contents (src, source, -1, NULL));
      if (localedef != NULL
          && g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL
                           | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, NULL, NULL))
        {
          g_setenv ("LOCPATH", dir, TRUE);
          if (setlocale (LC_NUMERIC, "xx_XX.UTF-8") != NULL)
            found = "es_ES numbers (built)";
          g_unsetenv ("LOCPATH");
        }
    }
  if (found == NULL)
    return NULL;
  g_test_message ("numeric locale: %s", found);
  g_snprintf (probe, sizeof probe, "%.1f", 0.5);
  g_assert_cmpstr (probe, ==, "0,5");
  return found;
}
