/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The app's message catalogue (the build's .mo files, FOLDRAY_LOCALE_DIR)
 * in a test, installed as the app installs it: the app's _() and, through
 * fr_solver_i18n_install, the solver's fr__(), in C.UTF-8 (not "C", so
 * gettext follows LANGUAGE there).  test_catalogue_end puts back what
 * test_catalogue_begin changed. */
#pragma once

#include <libintl.h>
#include <locale.h>

#include <glib.h>

#include "fr-i18n.h"
#include "fr-solver-i18n.h"

typedef struct
{
  char *locale, *language, *domain;
} TestCatalogue;

static inline void
test_catalogue_begin (TestCatalogue *saved)
{
  const char *dir = g_getenv ("FOLDRAY_LOCALE_DIR");

  g_assert_nonnull (dir);
  saved->locale = g_strdup (setlocale (LC_ALL, NULL));
  saved->language = g_strdup (g_getenv ("LANGUAGE"));
  saved->domain = g_strdup (textdomain (NULL));
  bindtextdomain ("foldray", dir);
  bind_textdomain_codeset ("foldray", "UTF-8");
  textdomain ("foldray");   /* the app's _(), as main.c sets it */
  g_assert_nonnull (setlocale (LC_ALL, "C.UTF-8"));
  fr_solver_i18n_install ();
}

/* Messages in language from now on; NULL: the solver's without a
 * translator, as the command-line tools run. */
static inline void
test_catalogue_use (const char *language)
{
  if (language == NULL)
    {
      fr_set_translator (NULL);
      return;
    }
  fr_solver_i18n_install ();
  /* A change of locale makes gettext look again. */
  setlocale (LC_ALL, "C");
  g_setenv ("LANGUAGE", language, TRUE);
  g_assert_nonnull (setlocale (LC_ALL, "C.UTF-8"));
}

static inline void
test_catalogue_end (TestCatalogue *saved)
{
  fr_set_translator (NULL);
  textdomain (saved->domain);
  if (saved->language != NULL)
    g_setenv ("LANGUAGE", saved->language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  setlocale (LC_ALL, saved->locale);
  g_clear_pointer (&saved->locale, g_free);
  g_clear_pointer (&saved->language, g_free);
  g_clear_pointer (&saved->domain, g_free);
}
