/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A written PDF read back through poppler's pdfinfo and pdftotext
 * (tests/setup-debian.sh installs poppler-utils). */
#pragma once

#include <glib.h>

/* The standard output of the tool argv[0] names, run with argv's
 * arguments; the test fails where it is missing or exits non-zero. */
static inline char *
test_poppler_run (const char *const *argv)
{
  g_autofree char *exe = g_find_program_in_path (argv[0]);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  char *out = NULL;
  int status = 0;
  g_autoptr(GError) error = NULL;

  if (exe == NULL)
    g_error ("%s not found: install poppler-utils (tests/setup-debian.sh)", argv[0]);
  g_ptr_array_add (args, exe);
  for (guint i = 1; argv[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) argv[i]);
  g_ptr_array_add (args, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

/* pdfinfo's report on the PDF at path (its pages, its page size). */
static inline char *
test_pdf_info (const char *path)
{
  const char *argv[] = { "pdfinfo", path, NULL };

  return test_poppler_run (argv);
}

/* The PDF's text, in reading order or, with layout, laid out as on the
 * page (a line of the page a line of text). */
static inline char *
test_pdf_text (const char *path,
               gboolean    layout)
{
  const char *plain[] = { "pdftotext", path, "-", NULL };
  const char *laid[] = { "pdftotext", "-layout", path, "-", NULL };

  return test_poppler_run (layout ? laid : plain);
}
