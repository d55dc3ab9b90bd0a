/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cgroup limit is read afresh at each check: a few small files, cheap
 * next to the solve or the file read that the check guards, and a limit
 * can change while the process runs (systemctl set-property).  So are the
 * process's own limits and what it already maps against them. */
#include "fr-memory-private.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fr-i18n.h"

#define GB 1073741824.0   /* 2^30: the unit free(1) and the system monitors show */

/* cgroup v1 writes "no limit" as the largest page-aligned long
 * (9223372036854771712); anything this large is no limit either way. */
#define CGROUP_NO_LIMIT ((unsigned long long) 1 << 62)

/* /proc/self/cgroup holds one short line per hierarchy; a longer file
 * (thousands of characters of paths) is read in part, its last, cut line
 * dropped. */
#define CGROUP_FILE_MAX 8192

double
fr_memory_physical (void)
{
  long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return 0.0;
  return (double) pages * (double) page;
}

/* ---- cgroup limit ------------------------------------------------------ */

/* Reads at most size - 1 bytes of path into buf, NUL-terminated; the
 * length, or -1 when the file cannot be read. */
static ssize_t
read_small_file (const char *path, char *buf, size_t size)
{
  size_t used = 0;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

  if (fd < 0)
    return -1;
  while (used < size - 1)
    {
      ssize_t got = read (fd, buf + used, size - 1 - used);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          close (fd);
          return -1;
        }
      if (got == 0)
        break;
      used += (size_t) got;
    }
  close (fd);
  buf[used] = '\0';
  return (ssize_t) used;
}

/* A limit file's value in bytes: a decimal number, or "max"; 0 for no
 * limit and for anything unreadable or malformed.  A limit of 0 bytes
 * also reads as none: no process could run under it. */
static unsigned long long
read_limit (const char *path)
{
  char text[64], *end;
  const char *p = text;
  unsigned long long v;
  ssize_t n = read_small_file (path, text, sizeof text);

  if (n <= 0)
    return 0;
  while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
    text[--n] = '\0';
  if (*p < '0' || *p > '9')
    return 0;     /* "max", empty, negative or garbage */
  errno = 0;
  v = strtoull (p, &end, 10);
  if (errno != 0 || *end != '\0' || v >= CGROUP_NO_LIMIT)
    return 0;
  return v;
}

/* The smallest limit in file `name` in the folder sysroot/base/cgroup and
 * in each parent up to sysroot/base itself (0 when none).  The walk reaches
 * the top because a container often sees its own cgroup mounted there
 * while /proc/self/cgroup still names the full path. */
static unsigned long long
limit_along (const char *sysroot, const char *base, const char *cgroup, const char *name)
{
  char path[PATH_MAX], file[PATH_MAX + 32];
  unsigned long long best = 0;
  size_t len;
  int n;

  if (cgroup[0] != '/')
    return 0;
  n = snprintf (path, sizeof path, "%s%s%s", sysroot, base, cgroup);
  if (n < 0 || (size_t) n >= sizeof path)
    return 0;
  len = (size_t) n - strlen (cgroup);    /* where the cgroup path starts */
  for (;;)
    {
      unsigned long long v;
      char *slash;

      while (strlen (path) > len && path[strlen (path) - 1] == '/')
        path[strlen (path) - 1] = '\0';
      snprintf (file, sizeof file, "%s/%s", path, name);
      v = read_limit (file);
      if (v > 0 && (best == 0 || v < best))
        best = v;
      if (strlen (path) <= len)
        break;
      slash = strrchr (path + len, '/');
      if (slash == NULL)
        break;
      *slash = '\0';
    }
  return best;
}

/* Whether the comma-separated list s[0..n) names the memory controller. */
static bool
lists_memory (const char *s, size_t n)
{
  const char *end = s + n;

  while (s < end)
    {
      const char *comma = memchr (s, ',', (size_t) (end - s));
      size_t len = (size_t) ((comma != NULL ? comma : end) - s);
      if (len == 6 && memcmp (s, "memory", 6) == 0)
        return true;
      s += len + 1;
    }
  return false;
}

static unsigned long long
smaller_limit (unsigned long long a, unsigned long long b)
{
  if (a == 0)
    return b;
  return b == 0 || a < b ? a : b;
}

double
fr_memory_cgroup_limit_at (const char *sysroot)
{
  char text[CGROUP_FILE_MAX], file[PATH_MAX];
  unsigned long long best = 0;
  char *line, *next;
  ssize_t n;

  if (sysroot == NULL)
    sysroot = "";
  if (snprintf (file, sizeof file, "%s/proc/self/cgroup", sysroot) >= (int) sizeof file)
    return 0.0;
  n = read_small_file (file, text, sizeof text);
  if (n <= 0)
    return 0.0;
  /* Lines "ID:CONTROLLERS:PATH": "0::PATH" is the v2 hierarchy, a v1 one
   * lists "memory" among its controllers.  A hybrid system has both; each
   * found is read and the smaller limit wins. */
  for (line = text; line < text + n; line = next)
    {
      char *nl = strchr (line, '\n'), *c1, *c2;

      if (nl == NULL && (size_t) n == sizeof text - 1)
        break;    /* cut by the buffer */
      next = nl != NULL ? nl + 1 : text + n;
      if (nl != NULL)
        *nl = '\0';
      if ((c1 = strchr (line, ':')) == NULL || (c2 = strchr (c1 + 1, ':')) == NULL)
        continue;
      if (c1 - line == 1 && line[0] == '0' && c2 == c1 + 1)
        best = smaller_limit (best, limit_along (sysroot, "/sys/fs/cgroup", c2 + 1, "memory.max"));
      else if (lists_memory (c1 + 1, (size_t) (c2 - c1 - 1)))
        best = smaller_limit (best, limit_along (sysroot, "/sys/fs/cgroup/memory", c2 + 1,
                                                 "memory.limit_in_bytes"));
    }
  return (double) best;
}

/* ---- the process's own limits ---------------------------------------- */

/* /proc/self/status's field (e.g. "VmSize:") in bytes; -1 when unknown. */
static double
status_bytes (const char *field)
{
  char text[4096];
  const char *line;
  unsigned long long kb;
  size_t len = strlen (field);

  if (read_small_file ("/proc/self/status", text, sizeof text) <= 0)
    return -1.0;
  for (line = text; line != NULL; line = strchr (line, '\n'))
    {
      if (*line == '\n')
        line++;
      if (strncmp (line, field, len) == 0 && sscanf (line + len, " %llu kB", &kb) == 1)
        return (double) kb * 1024.0;
    }
  return -1.0;
}

/* What the soft limit `resource` leaves this process: the limit less what
 * the process already maps against it (field of /proc/self/status), or the
 * whole limit when that is unknown; at least 1 byte, so that a limit
 * already reached still reads as one.  0 when there is no limit. */
static double
rlimit_left (int resource, const char *field)
{
  struct rlimit rl;
  double limit, used;

  if (getrlimit (resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return 0.0;
  limit = (double) rl.rlim_cur;
  used = status_bytes (field);
  if (used > 0.0)
    limit -= used;
  return limit >= 1.0 ? limit : 1.0;
}

/* ---- the check --------------------------------------------------------- */

/* What bounds the memory this process may use. */
typedef enum
{
  BOUND_MACHINE,
  BOUND_CGROUP,
  BOUND_ADDRESS_SPACE,
  BOUND_DATA,
} bound;

/* The bytes this process may use (0: unknown) and what sets that: the
 * smallest of the physical memory (*phys, for the message), the cgroup
 * limit and what RLIMIT_AS (ulimit -v) and RLIMIT_DATA (ulimit -d) leave.
 * Past an rlimit malloc returns NULL rather than the OOM killer ending the
 * process, but a solve that meets it fails all the same, only later. */
static double
available (const char *sysroot, bound *by, double *phys)
{
  const double limits[] = {
    [BOUND_MACHINE] = fr_memory_physical (),
    [BOUND_CGROUP] = fr_memory_cgroup_limit_at (sysroot),
    [BOUND_ADDRESS_SPACE] = rlimit_left (RLIMIT_AS, "VmSize:"),
    [BOUND_DATA] = rlimit_left (RLIMIT_DATA, "VmData:"),
  };
  double have = 0.0;

  *by = BOUND_MACHINE;
  *phys = limits[BOUND_MACHINE];
  for (int k = 0; k < (int) (sizeof limits / sizeof limits[0]); k++)
    if (limits[k] > 0.0 && (have <= 0.0 || limits[k] < have))
      {
        have = limits[k];
        *by = (bound) k;
      }
  return have;
}

double
fr_memory_available_at (const char *sysroot)
{
  bound by;
  double phys;

  return available (sysroot, &by, &phys);
}

double
fr_memory_available (void)
{
  return fr_memory_available_at ("");
}

fr_status
fr_memory_check_at (double bytes, const char *sysroot, const char *what, fr_error *err)
{
  const char *why;
  bound by;
  double phys;
  const double have = available (sysroot, &by, &phys);

  if (have <= 0.0 || !(bytes > have))
    return FR_OK;
  if (by == BOUND_MACHINE)
    return fr_error_set (err, FR_E_NOMEM, fr__ ("%s needs about %.1f GB of memory, this machine has %.1f GB"),
                         what, bytes / GB, have / GB);
  /* Translators: what limits the memory a process may use, shown in
   * brackets after "this process may use N GB". */
  why = by == BOUND_CGROUP ? fr__ ("its cgroup's memory limit")
        : by == BOUND_ADDRESS_SPACE ? fr__ ("the rest of its address-space limit, ulimit -v")
        : fr__ ("the rest of its data-size limit, ulimit -d");
  if (phys <= 0.0)
    return fr_error_set (err, FR_E_NOMEM, fr__ ("%s needs about %.1f GB of memory, this process may use "
                         "%.1f GB (%s)"), what, bytes / GB, have / GB, why);
  return fr_error_set (err, FR_E_NOMEM, fr__ ("%s needs about %.1f GB of memory, this machine has %.1f GB, "
                       "of which this process may use %.1f GB (%s)"),
                       what, bytes / GB, phys / GB, have / GB, why);
}

fr_status
fr_memory_check (double bytes, const char *what, fr_error *err)
{
  return fr_memory_check_at (bytes, "", what, err);
}
