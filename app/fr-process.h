/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the app asks of its process before anything is written. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Makes a write past the file-size limit (ulimit -f) an error that the
 * writer reports (EFBIG), not SIGXFSZ, which kills the process: a scene
 * saved or an export written over the limit took the app down with the
 * unsaved edits and left the writer's temporary file behind.  foldray-cli
 * and foldray-picture do the same (cli_guard_process).  Call it once,
 * from main, before any thread starts. */
void fr_process_guard_writes (void);

/* Under an address-space limit (ulimit -v), which counts memory reserved
 * as well as used, keeps glibc's malloc to two arenas: it reserves 64 MB
 * for each thread's own, and GTK's, Mesa's and OpenMP's threads then took
 * 0.7 GB of a limit before any grid was loaded (1.3 GB of address space
 * at rest on 2 cores, 0.6 GB with two arenas), until a thread GLib could
 * not start aborted the app.  Nothing changes without a limit.  Call it
 * once, from main, before any thread starts. */
void fr_process_fit_address_limit (void);

G_END_DECLS
