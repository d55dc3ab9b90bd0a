/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SIGINT, SIGTERM and SIGHUP as a request to stop: the tools check the flag
 * between steps and before committing a file, so that an interrupted run
 * leaves the old file and no temporary one. */
#pragma once

#include "fr-cancel.h"

/* Installs handlers that raise the returned flag.  A signal the process
 * was started ignoring stays ignored.  Returns NULL when out of memory;
 * pair with cli_interrupt_remove. */
fr_cancel *cli_interrupt_install (void);

/* Restores the previous handlers and frees the flag. */
void cli_interrupt_remove (void);
