/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The application: command-line options, actions, accelerators, the
 * shortcuts window and the About dialog. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FR_TYPE_APPLICATION (fr_application_get_type ())

G_DECLARE_FINAL_TYPE (FrApplication, fr_application, FR, APPLICATION, GtkApplication)

FrApplication *fr_application_new             (void);
int            fr_application_get_exit_status (FrApplication *self);
void           fr_application_set_exit_status (FrApplication *self,
                                               int            status);

G_END_DECLS
