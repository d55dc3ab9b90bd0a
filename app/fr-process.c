/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <signal.h>

#include "fr-process.h"

void
fr_process_guard_writes (void)
{
#ifdef SIGXFSZ
  signal (SIGXFSZ, SIG_IGN);
#endif
}
