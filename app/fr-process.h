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

G_END_DECLS
