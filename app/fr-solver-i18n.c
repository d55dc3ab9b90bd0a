/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "fr-i18n.h"
#include "fr-solver-i18n.h"

/* The solver's messages are in the app's own catalogue: po/POTFILES.in
 * lists the solver files that mark them with fr__. */
static const char *
translate (const char *msgid)
{
  return g_dgettext (GETTEXT_PACKAGE, msgid);
}

void
fr_solver_i18n_install (void)
{
  fr_set_translator (translate);
}
