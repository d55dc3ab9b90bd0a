/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A small tmpfs for a test's child process to fill up or make read-only:
 * mounted in a mount namespace of its own (a user namespace too when not
 * root), so nothing outside the child sees it.  Where none may be made,
 * the reason goes to DIR/skip for the parent to skip with
 * (test_in_subprocess). */
#pragma once

#ifdef __linux__
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/types.h>
#include <unistd.h>

#include "test-tmpdir.h"

static inline void
test_tmpfs_skip_because (const char *dir, const char *why)
{
  g_autofree char *skip = g_build_filename (dir, "skip", NULL);
  g_autofree char *text = g_strdup_printf ("%s: %s", why, g_strerror (errno));

  g_assert_true (g_file_set_contents (skip, text, -1, NULL));
}

static inline gboolean
test_tmpfs_write_proc (const char *file, const char *text)
{
  return g_file_set_contents_full (file, text, -1, G_FILE_SET_CONTENTS_NONE, 0644, NULL);
}

/* A tmpfs of size_kib KiB at mnt (made here); FALSE, with the reason in
 * dir/skip, where none may be mounted. */
static inline gboolean
test_tmpfs_mount (const char *dir, const char *mnt, unsigned size_kib)
{
  uid_t uid = geteuid ();
  gid_t gid = getegid ();
  g_autofree char *options = g_strdup_printf ("size=%uk,mode=0755", size_kib);

  g_assert_cmpint (g_mkdir (mnt, 0755), ==, 0);
  if (unshare (CLONE_NEWNS) != 0)
    {
      g_autofree char *uid_map = g_strdup_printf ("%u %u 1", (unsigned) uid, (unsigned) uid);
      g_autofree char *gid_map = g_strdup_printf ("%u %u 1", (unsigned) gid, (unsigned) gid);

      if (unshare (CLONE_NEWUSER | CLONE_NEWNS) != 0)
        {
          test_tmpfs_skip_because (dir, "no mount namespace");
          return FALSE;
        }
      if (!test_tmpfs_write_proc ("/proc/self/setgroups", "deny") ||
          !test_tmpfs_write_proc ("/proc/self/uid_map", uid_map) ||
          !test_tmpfs_write_proc ("/proc/self/gid_map", gid_map))
        {
          test_tmpfs_skip_because (dir, "no user namespace mapping");
          return FALSE;
        }
    }
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
    {
      test_tmpfs_skip_because (dir, "cannot make the mounts private");
      return FALSE;
    }
  if (mount ("foldray-test", mnt, "tmpfs", 0, options) != 0)
    {
      test_tmpfs_skip_because (dir, "cannot mount a tmpfs");
      return FALSE;
    }
  return TRUE;
}

/* Fills the file system of filler to its last page, then gives back keep
 * bytes of it. */
static inline void
test_tmpfs_fill (const char *filler, off_t keep)
{
  char block[4096] = { 0 };
  FILE *f = fopen (filler, "wb");

  g_assert_nonnull (f);
  setvbuf (f, NULL, _IONBF, 0);
  while (fwrite (block, 1, sizeof block, f) == sizeof block)
    ;
  g_assert_cmpint (errno, ==, ENOSPC);
  if (keep > 0)
    g_assert_cmpint (ftruncate (fileno (f), ftello (f) > keep ? ftello (f) - keep : 0), ==, 0);
  fclose (f);
}
#endif
