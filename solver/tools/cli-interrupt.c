/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-interrupt.h"

#include <signal.h>
#include <stddef.h>

/* Raising the flag is one lock-free atomic store, which is
 * async-signal-safe. */
static fr_cancel *interrupt_flag;
static struct sigaction old_int, old_term, old_hup;

static void
on_signal (int sig)
{
  (void) sig;
  if (interrupt_flag != NULL)
    fr_cancel_raise (interrupt_flag);
}

/* A signal the process was started ignoring stays ignored: `nohup` for
 * SIGHUP, a shell's background job for SIGINT. */
static void
catch_unless_ignored (int sig, const struct sigaction *sa, struct sigaction *old)
{
  sigaction (sig, NULL, old);
  if (old->sa_handler != SIG_IGN)
    sigaction (sig, sa, NULL);
}

fr_cancel *
cli_interrupt_install (void)
{
  struct sigaction sa = { 0 };

  interrupt_flag = fr_cancel_new ();
  if (interrupt_flag == NULL)
    return NULL;
  sa.sa_handler = on_signal;
  sigemptyset (&sa.sa_mask);
  catch_unless_ignored (SIGINT, &sa, &old_int);
  catch_unless_ignored (SIGTERM, &sa, &old_term);
  catch_unless_ignored (SIGHUP, &sa, &old_hup);    /* a closed terminal */
  return interrupt_flag;
}

void
cli_interrupt_remove (void)
{
  if (interrupt_flag == NULL)
    return;
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  sigaction (SIGHUP, &old_hup, NULL);
  fr_cancel_free (interrupt_flag);
  interrupt_flag = NULL;
}
