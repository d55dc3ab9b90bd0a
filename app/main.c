/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Foldray: watch seismic traveltimes and rays redraw as you drag. */
#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "fr-application.h"
#include "fr-process.h"
#include "fr-solver-i18n.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FrApplication) app = NULL;
  int status;

  fr_process_guard_writes ();
  fr_process_fit_address_limit ();
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  fr_solver_i18n_install ();

  app = fr_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  return status != 0 ? status : fr_application_get_exit_status (app);
}
