/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <signal.h>
#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "fr-process.h"

void
fr_process_guard_writes (void)
{
#ifdef SIGXFSZ
  signal (SIGXFSZ, SIG_IGN);
#endif
}

void
fr_process_fit_address_limit (void)
{
#if defined(M_ARENA_MAX)
  struct rlimit limit;

  if (getrlimit (RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    mallopt (M_ARENA_MAX, 2);
#endif
}
