/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fr-memory: the cgroup limit read from fake /proc and /sys trees (v2, v1,
 * nested, hybrid, missing and malformed files), the process's own
 * address-space and data-size limits (set in a child), and the check that
 * takes the smallest of them and the physical memory. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "fr-memory-private.h"
#include "test-rlimit.h"
#include "test-tmpdir.h"

#define MiB 1048576.0
#define GiB 1073741824.0

static char *scratch_dir;   /* one per run, removed at the end */

/* A fresh fake root holding files[] (pairs of a relative path and its
 * contents, NULL-terminated); remove it with test_tmpdir_remove. */
static char *
make_tree (const char *name, const char *const *files)
{
  char *root = g_build_filename (scratch_dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (root, 0755), ==, 0);
  for (size_t i = 0; files[i] != NULL; i += 2)
    {
      g_autofree char *path = g_build_filename (root, files[i], NULL);
      g_autofree char *dir = g_path_get_dirname (path);
      g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
      g_assert_true (g_file_set_contents (path, files[i + 1], -1, NULL));
    }
  return root;
}

/* ---- the parser on fake trees ------------------------------------------ */

typedef struct cgroup_case {
  const char *what;
  double limit;              /* expected bytes; 0: no limit */
  const char *files[16];     /* path, contents, ...; NULL-terminated */
} cgroup_case;

#define SELF "proc/self/cgroup"
#define V2 "sys/fs/cgroup/"
#define V1 "sys/fs/cgroup/memory/"
#define V1_UNLIMITED "9223372036854771712\n"

static const cgroup_case cgroup_cases[] = {
  { "v2 with a limit", GiB,
    { SELF, "0::/user.slice/foldray.scope\n",
      V2 "user.slice/foldray.scope/memory.max", "1073741824\n", NULL } },
  { "v2 with max everywhere", 0,
    { SELF, "0::/user.slice/foldray.scope\n",
      V2 "user.slice/foldray.scope/memory.max", "max\n",
      V2 "user.slice/memory.max", "max\n", NULL } },
  { "v2 nested: a parent's smaller limit wins", 2 * GiB,
    { SELF, "0::/a/b/c\n",
      V2 "a/b/c/memory.max", "max\n",
      V2 "a/b/memory.max", "4294967296\n",
      V2 "a/memory.max", "2147483648\n", NULL } },
  { "v2 nested: the leaf's smaller limit wins", 512 * MiB,
    { SELF, "0::/a/b/c\n",
      V2 "a/b/c/memory.max", "536870912\n",
      V2 "a/memory.max", "3221225472\n", NULL } },
  { "v2 in a container: its cgroup at the root", 768 * MiB,
    { SELF, "0::/\n", V2 "memory.max", "805306368\n", NULL } },
  /* Without a cgroup namespace the path is the host's, but the container
   * sees its own cgroup mounted at the top: the walk up finds it. */
  { "v2 path absent, limit at the mount's top", 768 * MiB,
    { SELF, "0::/docker/0123abcd\n", V2 "memory.max", "805306368\n", NULL } },
  { "v1 with a limit", 256 * MiB,
    { SELF, "12:pids:/docker/abc\n4:memory:/docker/abc\n1:name=systemd:/docker/abc\n0::/\n",
      V1 "docker/abc/memory.limit_in_bytes", "268435456\n",
      V1 "docker/memory.limit_in_bytes", V1_UNLIMITED,
      V1 "memory.limit_in_bytes", V1_UNLIMITED, NULL } },
  { "v1 unlimited (the huge value)", 0,
    { SELF, "4:memory:/docker/abc\n",
      V1 "docker/abc/memory.limit_in_bytes", V1_UNLIMITED,
      V1 "memory.limit_in_bytes", V1_UNLIMITED, NULL } },
  { "v1 nested: the parent's limit", GiB,
    { SELF, "4:memory:/slice/job\n",
      V1 "slice/job/memory.limit_in_bytes", V1_UNLIMITED,
      V1 "slice/memory.limit_in_bytes", "1073741824\n", NULL } },
  { "v1 memory among other controllers", 256 * MiB,
    { SELF, "3:cpuacct,memory,cpu:/s\n", V1 "s/memory.limit_in_bytes", "268435456\n", NULL } },
  { "hybrid: v1's smaller limit wins over v2's", GiB,
    { SELF, "4:memory:/job\n0::/job\n",
      V2 "job/memory.max", "2147483648\n",
      V1 "job/memory.limit_in_bytes", "1073741824\n", NULL } },
  { "hybrid: v2's smaller limit wins over v1's", GiB,
    { SELF, "4:memory:/job\n0::/job\n",
      V2 "job/memory.max", "1073741824\n",
      V1 "job/memory.limit_in_bytes", "2147483648\n", NULL } },
  { "no /proc/self/cgroup", 0,
    { V2 "memory.max", "1073741824\n", V1 "memory.limit_in_bytes", "1073741824\n", NULL } },
  { "empty /proc/self/cgroup", 0,
    { SELF, "", V2 "memory.max", "1073741824\n", NULL } },
  { "no limit files", 0,
    { SELF, "0::/a/b\n4:memory:/a/b\n", NULL } },
  { "malformed limits are no limits", 0,
    { SELF, "0::/a/b/c/d/e\n",
      V2 "a/b/c/d/e/memory.max", "12abc\n",
      V2 "a/b/c/d/memory.max", "-5\n",
      V2 "a/b/c/memory.max", "\n",
      V2 "a/b/memory.max", "0\n",
      V2 "a/memory.max", "99999999999999999999999\n", NULL } },
  { "a malformed limit does not hide a parent's", 64 * MiB,
    { SELF, "0::/a/b\n", V2 "a/b/memory.max", "lots\n", V2 "a/memory.max", "67108864\n", NULL } },
  { "not the memory controller", 0,
    { SELF, "4:memoryx:/a\n5:cpu:/a\n", V1 "a/memory.limit_in_bytes", "268435456\n", NULL } },
  { "malformed lines", 0,
    { SELF, "garbage\n0:/a\n0::a/relative\n::\n", V2 "a/memory.max", "268435456\n", NULL } },
  { "a malformed line does not hide a good one", 256 * MiB,
    { SELF, "garbage\n0::/a\n", V2 "a/memory.max", "268435456\n", NULL } },
  { "no newline at the end, trailing slash", 256 * MiB,
    { SELF, "0::/a/", V2 "a/memory.max", "268435456", NULL } },
};

static void
test_cgroup_cases (void)
{
  for (size_t c = 0; c < G_N_ELEMENTS (cgroup_cases); c++)
    {
      const cgroup_case *cc = &cgroup_cases[c];
      g_autofree char *name = g_strdup_printf ("cgroup-%zu", c);
      g_autofree char *root = make_tree (name, cc->files);

      g_test_message ("case: %s", cc->what);
      g_assert_cmpfloat (fr_memory_cgroup_limit_at (root), ==, cc->limit);
      test_tmpdir_remove (root);
    }
}

/* A root that does not exist at all reads as no limit, never as an error. */
static void
test_cgroup_missing_root (void)
{
  g_autofree char *root = g_build_filename (scratch_dir, "no", "such", "root", NULL);

  g_assert_cmpfloat (fr_memory_cgroup_limit_at (root), ==, 0.0);
  g_assert_cmpfloat (fr_memory_available_at (root), ==, fr_memory_physical ());
  g_assert_cmpint (fr_memory_check_at (1e6, root, "x", NULL), ==, FR_OK);
}

/* ---- the check --------------------------------------------------------- */

/* A cgroup limit below the physical memory is the one the check holds a
 * solve to, and the message gives both figures. */
static void
test_check_cgroup_limit (void)
{
  const char *files[] = { SELF, "0::/job\n", V2 "job/memory.max", "1073741824\n", NULL };
  g_autofree char *root = make_tree ("check-limit", files);
  const double phys = fr_memory_physical ();
  fr_error err = { 0 };
  char want[256];

  if (phys <= 2 * GiB)
    {
      g_test_skip ("this machine has no more than 2 GB: the fake 1 GB limit would not be the lower");
      test_tmpdir_remove (root);
      return;
    }
  g_assert_cmpfloat (fr_memory_available_at (root), ==, GiB);
  g_assert_cmpint (fr_memory_check_at (2 * GiB, root, "a big solve", &err), ==, FR_E_NOMEM);
  g_assert_cmpint (err.code, ==, FR_E_NOMEM);
  g_test_message ("%s", err.message);
  g_snprintf (want, sizeof want, "a big solve needs about 2.0 GB of memory, this machine has %.1f GB, "
              "of which this process may use 1.0 GB (its cgroup's memory limit)", phys / GiB);
  g_assert_cmpstr (err.message, ==, want);
  g_assert_cmpint (fr_memory_check_at (GiB + 4096, root, "x", NULL), ==, FR_E_NOMEM);
  g_assert_cmpint (fr_memory_check_at (GiB, root, "all of it", &err), ==, FR_OK);
  g_assert_cmpint (fr_memory_check_at (1e6, root, "a small solve", &err), ==, FR_OK);
  test_tmpdir_remove (root);
}

/* A cgroup limit above the physical memory changes nothing: the machine's
 * memory is the bound, and the message is the one without a cgroup. */
static void
test_check_limit_above_physical (void)
{
  const double phys = fr_memory_physical ();
  g_autofree char *limit = g_strdup_printf ("%.0f\n", 4 * phys);
  const char *files[] = { SELF, "0::/job\n", V2 "job/memory.max", limit, NULL };
  g_autofree char *root = make_tree ("check-above", files);
  fr_error err = { 0 };
  char want[256];

  g_assert_cmpfloat (phys, >, 0.0);
  g_assert_cmpfloat (fr_memory_cgroup_limit_at (root), ==, 4 * phys);
  g_assert_cmpfloat (fr_memory_available_at (root), ==, phys);
  g_assert_cmpint (fr_memory_check_at (2 * phys, root, "a big solve", &err), ==, FR_E_NOMEM);
  g_snprintf (want, sizeof want, "a big solve needs about %.1f GB of memory, this machine has %.1f GB",
              2 * phys / GiB, phys / GiB);
  g_assert_cmpstr (err.message, ==, want);
  g_assert_cmpint (fr_memory_check_at (phys, root, "all of it", NULL), ==, FR_OK);
  test_tmpdir_remove (root);
}

/* In a child: the soft limit `resource` set 512 MiB above what the process
 * maps against it (field) is what the check holds a solve to, and the
 * message names it.  malloc past it returns NULL, the reason to ask. */
static void
rlimit_child (int resource, const char *field, const char *why)
{
  const double phys = fr_memory_physical ();
  fr_error err = { 0 };
  g_autofree char *want = NULL;
  double have;

  if (!test_limit_memory (resource, field, 512 * MiB))
    {
      g_test_skip ("no memory limit here: a sanitizer runs, or a lower hard limit");
      return;
    }

  have = fr_memory_available ();
  g_test_message ("%s: %.0f MiB left of the limit", field, have / MiB);
  g_assert_cmpfloat (have, >, 448 * MiB);
  g_assert_cmpfloat (have, <=, 512 * MiB);
  g_assert_null (g_try_malloc ((gsize) GiB));
  g_assert_cmpint (fr_memory_check (2 * GiB, "a big solve", &err), ==, FR_E_NOMEM);
  g_assert_cmpint (err.code, ==, FR_E_NOMEM);
  g_test_message ("%s", err.message);
  want = g_strdup_printf ("a big solve needs about 2.0 GB of memory, this machine has %.1f GB, "
                          "of which this process may use 0.5 GB (%s)", phys / GiB, why);
  g_assert_cmpstr (err.message, ==, want);
  g_assert_cmpint (fr_memory_check (GiB, "x", NULL), ==, FR_E_NOMEM);
  g_assert_cmpint (fr_memory_check (64 * MiB, "a small solve", NULL), ==, FR_OK);
}

static void
test_check_address_space_limit (void)
{
  if (g_test_subprocess ())
    {
      rlimit_child (RLIMIT_AS, "VmSize:", "the rest of its address-space limit, ulimit -v");
      return;
    }
  if (TEST_UNDER_SANITIZER)
    {
      g_test_skip ("an address space limit and a sanitizer do not mix");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_check_data_limit (void)
{
  if (g_test_subprocess ())
    {
      rlimit_child (RLIMIT_DATA, "VmData:", "the rest of its data-size limit, ulimit -d");
      return;
    }
  if (TEST_UNDER_SANITIZER)
    {
      g_test_skip ("an address space limit and a sanitizer do not mix");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The real system: whatever its cgroups say, the public calls agree with
 * the parser and never exceed the physical memory. */
static void
test_real_system (void)
{
  const double phys = fr_memory_physical (), limit = fr_memory_cgroup_limit_at ("");
  const double have = fr_memory_available ();
  fr_error err = { 0 };

  g_test_message ("physical %.1f GB, cgroup limit %.1f GB (0: none), available %.1f GB",
                  phys / GiB, limit / GiB, have / GiB);
  g_assert_cmpfloat (phys, >, 0.0);
  g_assert_cmpfloat (limit, >=, 0.0);
  g_assert_cmpfloat (have, >, 0.0);
  g_assert_cmpfloat (have, <=, phys);
  /* Equal where no ulimit -v or -d holds this test to less. */
  g_assert_cmpfloat (have, <=, limit > 0.0 && limit < phys ? limit : phys);
  g_assert_cmpint (fr_memory_check (2.0 * have, "too much", &err), ==, FR_E_NOMEM);
  g_assert_nonnull (strstr (err.message, "too much needs about"));
  g_assert_cmpint (fr_memory_check (have, "all of it", NULL), ==, FR_OK);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  scratch_dir = g_dir_make_tmp ("foldray-memory-XXXXXX", NULL);
  g_assert_nonnull (scratch_dir);

  g_test_add_func ("/memory/cgroup/cases", test_cgroup_cases);
  g_test_add_func ("/memory/cgroup/missing-root", test_cgroup_missing_root);
  g_test_add_func ("/memory/check/cgroup-limit", test_check_cgroup_limit);
  g_test_add_func ("/memory/check/limit-above-physical", test_check_limit_above_physical);
  g_test_add_func ("/memory/check/address-space-limit", test_check_address_space_limit);
  g_test_add_func ("/memory/check/data-limit", test_check_data_limit);
  g_test_add_func ("/memory/real-system", test_real_system);

  status = g_test_run ();
  test_tmpdir_remove (scratch_dir);
  g_free (scratch_dir);
  return status;
}
