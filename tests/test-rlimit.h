/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Holding a test's child process to a little more memory than it already
 * maps, as `ulimit -v` or `ulimit -d` would: the soft RLIMIT_AS or
 * RLIMIT_DATA set some headroom above what the kernel counts against it
 * now.  Only in a child (test_in_subprocess, g_test_trap_subprocess): the
 * limit must not outlive the case. */
#pragma once

#include <string.h>
#include <sys/resource.h>

#include <glib.h>

#include "test-sanitizer.h"

/* /proc/self/status's field ("VmSize:", "VmData:") in bytes, now. */
static inline double
test_status_bytes (const char *field)
{
  g_autofree char *text = NULL;
  const char *at;

  g_assert_true (g_file_get_contents ("/proc/self/status", &text, NULL, NULL));
  at = strstr (text, field);
  g_assert_nonnull (at);
  return g_ascii_strtod (at + strlen (field), NULL) * 1024.0;
}

/* Sets resource's soft limit headroom bytes above what field counts;
 * FALSE, setting nothing, where its hard limit is lower or a sanitizer
 * runs (its shadow memory and its allocator, which aborts where malloc
 * would return NULL, do not mix with such a limit); the caller then
 * skips. */
static inline gboolean
test_limit_memory (int resource, const char *field, double headroom)
{
  struct rlimit rl;
  double want;

  if (TEST_UNDER_SANITIZER)
    return FALSE;
  want = test_status_bytes (field) + headroom;
  g_assert_cmpint (getrlimit (resource, &rl), ==, 0);
  if (rl.rlim_max != RLIM_INFINITY && want > (double) rl.rlim_max)
    return FALSE;
  rl.rlim_cur = (rlim_t) want;
  g_assert_cmpint (setrlimit (resource, &rl), ==, 0);
  return TRUE;
}
