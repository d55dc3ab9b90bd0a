/* SPDX-License-Identifier: GPL-3.0-or-later */
/* foldray-cli: the scriptable face of libfoldray (CONTRACT.md).  This file
 * only dispatches; each subcommand lives in its own cli-*.c. */
#include "foldray-config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli-common.h"
#include "cli-scene.h"

static const struct {
  const char *name;
  int (*run) (int argc, char **argv);
} subcommands[] = {
  { "info", cli_info },
  { "spr", cli_spr },
  { "fold", cli_fold },
};

static void
usage (FILE *fp)
{
  fputs ("Usage: foldray-cli SUBCOMMAND [OPTIONS]\n"
         "\n"
         "Subcommands:\n"
         "  info   the back ends this build has and the devices it sees\n"
         "  spr    shortest-path ray tracing through a 2D velocity grid\n"
         "  fold   front propagation (fold simulation)\n"
         "\n"
         "`foldray-cli SUBCOMMAND --help` lists a subcommand's options.\n"
         "Exit status: 0 success, 2 bad usage or input, 1 any other failure.\n",
         fp);
}

/* The subcommand's exit code, or 1 when what it printed (usage, info)
 * did not reach stdout: a script reading it would get less than it asked. */
static int
stdout_checked (int status)
{
  if (status == CLI_EXIT_OK && (fflush (stdout) != 0 || ferror (stdout)))
    return cli_fail (CLI_EXIT_FAILURE, "standard output: cannot write: %s", strerror (errno));
  return status;
}

int
main (int argc, char **argv)
{
  cli_guard_process ();
  if (argc < 2)
    {
      /* The contract allows one line on stderr for a failure. */
      return cli_fail (CLI_EXIT_USAGE, "missing subcommand (try --help)");
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      if (argc > 2)
        return cli_fail (CLI_EXIT_USAGE, "%s takes nothing after it (got '%s'; for a subcommand's "
                         "help: foldray-cli SUBCOMMAND --help)", argv[1], argv[2]);
      usage (stdout);
      return stdout_checked (CLI_EXIT_OK);
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      if (argc > 2)
        return cli_fail (CLI_EXIT_USAGE, "--version takes nothing after it (got '%s')", argv[2]);
      printf ("foldray-cli %s\n", FOLDRAY_VERSION);
      return stdout_checked (CLI_EXIT_OK);
    }
  for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
    if (strcmp (argv[1], subcommands[i].name) == 0)
      return stdout_checked (cli_run_with_scene (subcommands[i].name, subcommands[i].run,
                                                 argc - 1, argv + 1));
  return cli_fail (CLI_EXIT_USAGE, "unknown subcommand '%s' (try --help)", argv[1]);
}
