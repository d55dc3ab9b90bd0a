/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Runs foldray-cli ($FOLDRAY_CLI) for the CLI test programs, capturing its
 * exit status and both streams. */
#pragma once

#include <glib.h>
#include <sys/wait.h>

typedef struct run_out {
  int status;           /* exit status, -1 when killed */
  char *out, *err;
} run_out;

/* Runs foldray-cli [subcommand] args... (args NULL-terminated). */
static inline run_out
cli_run (const char *subcommand, const char *const *args)
{
  const char *cli = g_getenv ("FOLDRAY_CLI");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  run_out r = { 0 };
  int wait_status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  if (subcommand != NULL)
    g_ptr_array_add (argv, (gpointer) subcommand);
  for (const char *const *a = args; *a; a++)
    g_ptr_array_add (argv, (gpointer) *a);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &r.out, &r.err, &wait_status, &error));
  g_assert_no_error (error);
  r.status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  return r;
}

static inline void
run_out_clear (run_out *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}
