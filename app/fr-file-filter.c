/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-file-filter"

#include "config.h"

#include <glib/gi18n.h>

#include "fr-file-filter.h"

/* A filter named name for the files whose names end in .SUFFIX, for each
 * suffix given (without its dot; NULL ends the list), in any case. */
GtkFileFilter *
fr_file_filter_new (const char *name,
                    const char *suffix,
                    ...)
{
  GtkFileFilter *filter;
  va_list args;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (suffix != NULL, NULL);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, name);
  va_start (args, suffix);
  for (const char *s = suffix; s != NULL; s = va_arg (args, const char *))
    gtk_file_filter_add_suffix (filter, s);
  va_end (args);
  return filter;
}

/* What Open offers: scenes and the velocity grids it reads. */
GtkFileFilter *
fr_file_filter_new_open (void)
{
  return fr_file_filter_new (_("Scenes and velocity grids (.json, .npy, .sgy)"),
                             "json", "npy", "sgy", "segy", NULL);
}
