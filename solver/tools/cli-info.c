/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `foldray-cli info`: the back ends this build has and the devices it sees. */
#include "foldray-config.h"

#include <stdbool.h>
#include <stdio.h>

#include "cli-common.h"
#include "fr-device.h"
#include "fr-spr.h"

#define INFO_MAX_DEVICES 16

static void
usage (void)
{
  puts ("Usage: foldray-cli info\n"
        "Prints the back ends this build has and the CUDA devices it sees.");
}

int
cli_info (int argc, char **argv)
{
  fr_device_info devices[INFO_MAX_DEVICES];
  char why[256] = "";
  int ndev = 0;
  bool help;
  int status;
  fr_status st;

  status = cli_parse_options (argc, argv, 1, NULL, 0, &help);
  if (status != CLI_EXIT_OK)
    return status;
  if (help)
    {
      usage ();
      return CLI_EXIT_OK;
    }

  st = fr_cuda_devices (devices, INFO_MAX_DEVICES, &ndev, why, sizeof why);
  if (st != FR_OK)
    {
      /* Seeing no device is not a failure of `info`: report it as such. */
      ndev = 0;
      snprintf (why, sizeof why, "device query failed (%s)", fr_status_name (st));
    }

  printf ("foldray-cli %s\n", FOLDRAY_VERSION);
  printf ("back ends: dijkstra, cpu (%s, %d thread%s), ",
          FOLDRAY_HAVE_OPENMP ? "OpenMP" : "no OpenMP",
          fr_cpu_threads (), fr_cpu_threads () == 1 ? "" : "s");
  if (!fr_cuda_built ())
    printf ("cuda (not built)\n");
  else if (ndev == 0)
    printf ("cuda (built, no device: %s)\n", why[0] ? why : "none found");
  else
    printf ("cuda (built, %d device%s)\n", ndev, ndev == 1 ? "" : "s");
  printf ("auto picks: %s\n", fr_cuda_built () && ndev > 0 ? "cuda" : "cpu");

  if (ndev == 0)
    printf ("devices: none\n");
  for (int i = 0; i < ndev; i++)
    printf ("device %d: %s, %.1f GiB, %d SMs, compute capability %d.%d\n", i,
            devices[i].name, (double) devices[i].memory_bytes / (1024.0 * 1024.0 * 1024.0),
            devices[i].multiprocessors, devices[i].major, devices[i].minor);
  return CLI_EXIT_OK;
}
