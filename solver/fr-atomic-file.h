/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Atomic file replacement: write into a temporary file in the same folder,
 * flush it to disk, then rename it over the target.  Readers see either the
 * old file or the complete new one, never a torn one, and a failure at any
 * step removes the temporary file. */
#pragma once

#include <stdio.h>

#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fr_atomic_file {
  FILE *fp;          /* write through this; NULL once prepared */
  char *path;        /* final name: a symbolic link's target */
  char *tmp_path;    /* temporary name beside it */
  char *name;        /* the name the caller gave, which messages use */
} fr_atomic_file;

/* Opens a temporary file beside path's target.  The target is path, or
 * the file it names when path is a symbolic link (the link stays); an
 * existing target that is not a plain file (a device, a pipe, a socket, a
 * folder) is refused with FR_E_INPUT, since a rename would destroy it, and
 * one the process may not write (read-only) with FR_E_IO.  A
 * target replaced keeps its permission bits and, where the process may,
 * its owner and group; a new one gets 0666 less the umask. */
fr_status fr_atomic_open (fr_atomic_file *af, const char *path, fr_error *err);

/* As fr_atomic_open, but a new file is made 0600, whatever the umask: for
 * files that hold the user's work where others may look (the app's
 * autosaves).  A file replaced still keeps its mode. */
fr_status fr_atomic_open_private (fr_atomic_file *af, const char *path, fr_error *err);

/* Flushes, fsyncs and closes the temporary file: every step that can fail
 * for want of space or a bad disk, but not yet the rename.  A caller with
 * several files prepares them all before it commits any, so that one that
 * fails leaves the others' old files untouched.  On failure removes the
 * temporary file (as commit does); af->fp is NULL afterwards. */
fr_status fr_atomic_prepare (fr_atomic_file *af, fr_error *err);

/* Prepares (when not done yet) and renames; on any failure removes the
 * temporary file.
 * Checks the stream's error flag, so earlier failed fwrite calls surface here.
 * Its messages, as fr_atomic_open's, name the file as the caller gave it
 * (a link, not its target: the one name the user knows, said once). */
fr_status fr_atomic_commit (fr_atomic_file *af, fr_error *err);

/* Discards everything written; safe to call after a failed commit or twice. */
void fr_atomic_abort (fr_atomic_file *af);

#ifdef __cplusplus
}
#endif
