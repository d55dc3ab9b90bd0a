/* SPDX-License-Identifier: GPL-3.0-or-later */
/* foldray-cli and foldray-picture end to end, against CONTRACT.md: the
 * binaries run as a user would run them, on files made here, and what
 * they write is read back by an independent reader (python3's standard
 * library: struct, zlib, json), never by libfoldray itself. */
#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fr-csv.h"
#include "fr-spr.h"   /* fr_cuda_built */
#include "test-comma-locale.h"
#include "test-times-csv.h"
#include "test-tmpdir.h"

/* Runs stay small: the suite also runs under ASan and UBSan. */
#define NX 41
#define NZ 31
#define DX 0.5
#define V0 2.0

typedef struct run_result {
  int status;           /* exit status, or 128 + signal */
  char *out, *err;
} run_result;

static void
run_result_clear (run_result *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

static const char *
cli_path (void)
{
  const char *p = g_getenv ("FOLDRAY_CLI");
  g_assert_nonnull (p);
  return p;
}

static char *
picture_path (void)
{
  g_autofree char *dir = g_path_get_dirname (cli_path ());
  return g_build_filename (dir, "foldray-picture", NULL);
}

/* Spawns argv (argv[0] a path, or a name looked up in PATH). */
static run_result
run_argv (const char *const *argv)
{
  run_result r = { 0 };
  g_autoptr (GError) error = NULL;
  int wait_status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &r.out, &r.err, &wait_status, &error));
  g_assert_no_error (error);
  if (WIFEXITED (wait_status))
    r.status = WEXITSTATUS (wait_status);
  else
    r.status = 128 + WTERMSIG (wait_status);
  return r;
}

/* Runs foldray-cli with a NULL-terminated argument list. */
static run_result
run_cli (const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  va_list ap;

  g_ptr_array_add (argv, (char *) cli_path ());
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  return run_argv ((const char *const *) argv->pdata);
}

static void
assert_success (const run_result *r)
{
  if (r->status != 0)
    g_test_message ("stderr: %s", r->err);
  g_assert_cmpint (r->status, ==, 0);
}

/* The contract's failure: this exit status and exactly one stderr line that
 * starts with the program's name and names the flag or file at fault. */
static void
assert_failure (const run_result *r, const char *program, int status, const char *names)
{
  g_autofree char *prefix = g_strconcat (program, ": ", NULL);
  const char *nl = strchr (r->err, '\n');

  if (r->status != status || nl == NULL || nl[1] != '\0' || !g_str_has_prefix (r->err, prefix)
      || (names != NULL && strstr (r->err, names) == NULL))
    g_test_message ("exit %d, stderr: [%s], expected exit %d naming '%s'", r->status, r->err,
                    status, names);
  g_assert_cmpint (r->status, ==, status);
  g_assert_true (g_str_has_prefix (r->err, prefix));
  g_assert_nonnull (nl);
  g_assert_cmpint (nl[1], ==, '\0');
  if (names != NULL)
    g_assert_nonnull (strstr (r->err, names));
}

/* Waits for a child spawned with G_SPAWN_DO_NOT_REAP_CHILD and takes its
 * stderr from err_fd (closed): its exit status, or 128 + the signal. */
static run_result
wait_spawned (GPid pid, int err_fd)
{
  GString *err = g_string_new (NULL);
  int wait_status = 0;
  char buf[512];
  ssize_t n;

  g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
  g_spawn_close_pid (pid);
  while ((n = read (err_fd, buf, sizeof buf)) > 0)
    g_string_append_len (err, buf, n);
  close (err_fd);
  return (run_result) { WIFEXITED (wait_status) ? WEXITSTATUS (wait_status)
                                                : 128 + WTERMSIG (wait_status),
                        g_strdup (""), g_string_free (err, FALSE) };
}

/* ---- files ------------------------------------------------------------- */

/* A fresh folder for one test; remove with test_tmpdir_remove. */
static char *
make_tmp (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("foldray-cli-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

/* The number of entries (dotfiles included: a stray temporary file counts). */
static guint
count_entries (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;
  g_dir_close (d);
  return n;
}

/* Writes a .npy (format 1.0, little endian) of shape (n0[, n1[, n2]]) from
 * doubles, as float32 ('<f4') or float64 ('<f8'). */
static void
write_npy (const char *path, const char *descr, int ndim, const size_t *shape, const double *v)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GString) hdr = g_string_new (NULL);
  size_t n = 1;
  guint16 hlen;
  g_autoptr (GError) error = NULL;

  g_string_append_printf (hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < ndim; i++)
    {
      g_string_append_printf (hdr, "%zu,%s", shape[i], i + 1 < ndim ? " " : "");
      n *= shape[i];
    }
  g_string_append (hdr, "), }");
  while ((10 + hdr->len + 1) % 64 != 0)
    g_string_append_c (hdr, ' ');
  g_string_append_c (hdr, '\n');
  hlen = (guint16) hdr->len;

  g_string_append_len (s, "\x93NUMPY\x01\x00", 8);
  g_string_append_c (s, (char) (hlen & 0xff));
  g_string_append_c (s, (char) (hlen >> 8));
  g_string_append_len (s, hdr->str, (gssize) hdr->len);
  for (size_t i = 0; i < n; i++)
    {
      if (strcmp (descr, "<f4") == 0)
        {
          float f = (float) v[i];
          guint32 bits;
          memcpy (&bits, &f, 4);
          bits = GUINT32_TO_LE (bits);
          g_string_append_len (s, (const char *) &bits, 4);
        }
      else
        {
          guint64 bits;
          memcpy (&bits, &v[i], 8);
          bits = GUINT64_TO_LE (bits);
          g_string_append_len (s, (const char *) &bits, 8);
        }
    }
  g_file_set_contents (path, s->str, (gssize) s->len, &error);
  g_assert_no_error (error);
}

/* The test grid, constant V0, with an optional value at one node. */
static char *
write_velocity (const char *dir, const char *name, const char *descr, double special,
                size_t special_node)
{
  char *path = g_build_filename (dir, name, NULL);
  size_t shape[2] = { NZ, NX };
  double *v = g_new (double, NX * NZ);

  for (size_t i = 0; i < NX * NZ; i++)
    v[i] = V0;
  if (special_node < NX * NZ)
    v[special_node] = special;
  write_npy (path, descr, 2, shape, v);
  g_free (v);
  return path;
}

static char *
write_text (const char *dir, const char *name, const char *text)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* ---- the independent readers (python3, standard library only) ---------- */

static const char npy_reader_py[] =
  "import ast, struct, sys\n"
  "b = open(sys.argv[1], 'rb').read()\n"
  "assert b[:6] == b'\\x93NUMPY', 'bad magic'\n"
  "if b[6] == 1:\n"
  "    hl, off = struct.unpack('<H', b[8:10])[0], 10\n"
  "else:\n"
  "    hl, off = struct.unpack('<I', b[8:12])[0], 12\n"
  "assert (off + hl) % 16 == 0, 'data not aligned'\n"
  "h = ast.literal_eval(b[off:off + hl].decode('latin1'))\n"
  "assert h['fortran_order'] is False\n"
  "n = 1\n"
  "for s in h['shape']:\n"
  "    n *= s\n"
  "code = {'<f4': 'f', '<f8': 'd'}[h['descr']]\n"
  "size = struct.calcsize(code)\n"
  "assert len(b) == off + hl + n * size, 'file size'\n"
  "vals = struct.unpack('<%d%s' % (n, code), b[off + hl:])\n"
  "print(h['descr'], *h['shape'])\n"
  "print('\\n'.join(repr(v) for v in vals))\n";

/* Decodes a PNG: signature, every chunk's CRC, IHDR, the zlib stream (whose
 * Adler-32 zlib checks) and all five filters; writes raw RGB to argv[2]. */
static const char png_reader_py[] =
  "import struct, sys, zlib\n"
  "b = open(sys.argv[1], 'rb').read()\n"
  "assert b[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'signature'\n"
  "pos, idat, ihdr, names = 8, b'', None, []\n"
  "while pos < len(b):\n"
  "    n, t = struct.unpack('>I4s', b[pos:pos + 8])\n"
  "    data = b[pos + 8:pos + 8 + n]\n"
  "    crc, = struct.unpack('>I', b[pos + 8 + n:pos + 12 + n])\n"
  "    assert zlib.crc32(t + data) == crc, 'CRC of ' + t.decode()\n"
  "    names.append(t)\n"
  "    if t == b'IHDR':\n"
  "        ihdr = struct.unpack('>IIBBBBB', data)\n"
  "    elif t == b'IDAT':\n"
  "        idat += data\n"
  "    pos += 12 + n\n"
  "assert names[0] == b'IHDR' and names[-1] == b'IEND', names\n"
  "w, h, depth, ctype, comp, filt, inter = ihdr\n"
  "assert (depth, ctype, comp, filt, inter) == (8, 2, 0, 0, 0), ihdr\n"
  "raw = zlib.decompress(idat)\n"
  "stride = 3 * w\n"
  "assert len(raw) == h * (stride + 1), 'data size'\n"
  "out, prev = bytearray(), bytearray(stride)\n"
  "for y in range(h):\n"
  "    f = raw[y * (stride + 1)]\n"
  "    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])\n"
  "    for i in range(stride):\n"
  "        a = line[i - 3] if i >= 3 else 0\n"
  "        c = prev[i - 3] if i >= 3 else 0\n"
  "        up = prev[i]\n"
  "        if f == 1: line[i] = (line[i] + a) & 255\n"
  "        elif f == 2: line[i] = (line[i] + up) & 255\n"
  "        elif f == 3: line[i] = (line[i] + (a + up) // 2) & 255\n"
  "        elif f == 4:\n"
  "            p = a + up - c\n"
  "            pa, pb, pc = abs(p - a), abs(p - up), abs(p - c)\n"
  "            line[i] = (line[i] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255\n"
  "        else: assert f == 0, 'filter %d' % f\n"
  "    out += line\n"
  "    prev = line\n"
  "open(sys.argv[2], 'wb').write(out)\n"
  "print(w, h)\n";

static const char stats_reader_py[] =
  "import json, sys\n"
  "d = json.loads(sys.argv[1])\n"
  "assert isinstance(d, dict)\n"
  "assert d['backend'] in ('dijkstra', 'cpu', 'cuda'), d['backend']\n"
  "assert isinstance(d['solve_ms'], (int, float)) and d['solve_ms'] >= 0\n"
  "assert isinstance(d['iterations'], int) and d['iterations'] > 0\n"
  "assert d['grid'] == [int(sys.argv[2]), int(sys.argv[3])], d['grid']\n"
  "assert d['precision'] in ('single', 'double')\n"
  "assert len(sys.argv) < 5 or d['radius'] == [int(sys.argv[4]), int(sys.argv[5])], d['radius']\n"
  "print('ok')\n";

/* python3, or NULL (the test is then skipped, with a message). */
static char *
find_python (void)
{
  char *py = g_find_program_in_path ("python3");
  if (py == NULL)
    g_test_skip ("python3 is not in PATH; it reads the outputs independently");
  return py;
}

/* Reads a .npy through python; returns the values and fills descr/shape. */
static GArray *
read_npy_py (const char *py, const char *path, char **descr, size_t *n0, size_t *n1)
{
  const char *argv[] = { py, "-c", npy_reader_py, path, NULL };
  run_result r = run_argv (argv);
  GArray *vals = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto (GStrv) lines = NULL;
  g_auto (GStrv) head = NULL;

  if (r.status != 0)
    g_test_message ("npy reader: %s", r.err);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  head = g_strsplit (lines[0], " ", -1);
  g_assert_cmpuint (g_strv_length (head), ==, 3);
  *descr = g_strdup (head[0]);
  *n0 = (size_t) g_ascii_strtoull (head[1], NULL, 10);
  *n1 = (size_t) g_ascii_strtoull (head[2], NULL, 10);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      double v = g_ascii_strtod (lines[i], NULL);
      g_array_append_val (vals, v);
    }
  g_assert_cmpuint (vals->len, ==, *n0 * *n1);
  run_result_clear (&r);
  return vals;
}

/* ---- the angular bound of SPR ------------------------------------------ */

/* With edge reduction the directions available from a node are the offsets
 * (a, b) with gcd 1 inside the radius; a straight line between two of them
 * is followed by a zigzag of the two, at most 1/cos(gap/2) longer. */
static guint
gcd (guint a, guint b)
{
  while (b)
    {
      guint t = a % b;
      a = b;
      b = t;
    }
  return a;
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
stencil_bound (int r, double dx, double dz)
{
  g_autoptr (GArray) angles = g_array_new (FALSE, FALSE, sizeof (double));
  double gap = 0;

  for (int a = -r; a <= r; a++)
    for (int b = -r; b <= r; b++)
      if ((a || b) && gcd ((guint) ABS (a), (guint) ABS (b)) == 1)
        {
          double t = atan2 (b * dz, a * dx);
          g_array_append_val (angles, t);
        }
  g_array_sort (angles, cmp_double);
  for (guint i = 0; i < angles->len; i++)
    {
      double next = i + 1 < angles->len ? g_array_index (angles, double, i + 1)
                                         : g_array_index (angles, double, 0) + 2 * G_PI;
      gap = MAX (gap, next - g_array_index (angles, double, i));
    }
  return 1.0 / cos (gap / 2);
}

/* Checks T against the straight-line time from the nearest source. */
static void
check_constant_t (const GArray *t, size_t nx, size_t nz, double dx, double dz, double x0,
                  double z0, const double *src, int nsrc, int radius)
{
  double bound = stencil_bound (radius, dx, dz);

  for (size_t iz = 0; iz < nz; iz++)
    for (size_t ix = 0; ix < nx; ix++)
      {
        double x = x0 + (double) ix * dx, z = z0 + (double) iz * dz, exact = INFINITY;
        double got = g_array_index (t, double, iz * nx + ix);
        for (int s = 0; s < nsrc; s++)
          exact = MIN (exact, hypot (x - src[2 * s], z - src[2 * s + 1]) / V0);
        if (!(got >= exact * (1 - 1e-6) - 1e-6 && got <= exact * bound * (1 + 1e-6) + 1e-6))
          g_test_message ("node (%zu, %zu): T %.9g, straight line %.9g, bound %.6f", ix, iz, got,
                          exact, bound);
        g_assert_cmpfloat (got, >=, exact * (1 - 1e-6) - 1e-6);
        g_assert_cmpfloat (got, <=, exact * bound * (1 + 1e-6) + 1e-6);
      }
}

/* ---- info and usage ----------------------------------------------------- */

static void
test_info (void)
{
  run_result r = run_cli ("info", NULL);

  assert_success (&r);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_nonnull (strstr (r.out, "back ends: "));
  g_assert_nonnull (strstr (r.out, "dijkstra"));
  g_assert_nonnull (strstr (r.out, "cpu ("));
  g_assert_nonnull (strstr (r.out, "cuda ("));
  /* Without a device it must say so (and still succeed); with one, list it. */
  if (strstr (r.out, "not built") != NULL || strstr (r.out, "no device") != NULL)
    g_assert_nonnull (strstr (r.out, "devices: none"));
  else
    {
      g_assert_nonnull (strstr (r.out, "device 0: "));
      g_assert_nonnull (strstr (r.out, "compute capability"));
    }
  run_result_clear (&r);
}

static void
test_usage (void)
{
  run_result r = run_cli (NULL, NULL);
  assert_failure (&r, "foldray-cli", 2, "missing subcommand");
  g_assert_cmpstr (r.out, ==, "");
  run_result_clear (&r);

  r = run_cli ("--help", NULL);
  assert_success (&r);
  g_assert_nonnull (strstr (r.out, "spr"));
  g_assert_cmpstr (r.err, ==, "");
  run_result_clear (&r);

  r = run_cli ("spr", "--help", NULL);
  assert_success (&r);
  g_assert_nonnull (strstr (r.out, "--velocity"));
  run_result_clear (&r);

  r = run_cli ("transmogrify", NULL);
  assert_failure (&r, "foldray-cli", 2, "transmogrify");
  run_result_clear (&r);

  /* Each tool names itself and its version, as help2man wants. */
  r = run_cli ("--version", NULL);
  assert_success (&r);
  g_assert_true (g_str_has_prefix (r.out, "foldray-cli "));
  run_result_clear (&r);
  {
    g_autofree char *pic = picture_path ();
    const char *argv[] = { pic, "--version", NULL };

    r = run_argv (argv);
    assert_success (&r);
    g_assert_true (g_str_has_prefix (r.out, "foldray-picture "));
    g_assert_cmpstr (r.err, ==, "");
    run_result_clear (&r);
  }
  /* Anything after --version is a mistake, said as one; the version is
   * not printed as if all were well. */
  r = run_cli ("--help", "spr", NULL);
  assert_failure (&r, "foldray-cli", 2, "--help takes nothing after it (got 'spr'");
  g_assert_cmpstr (r.out, ==, "");
  run_result_clear (&r);
  r = run_cli ("--version", "extra", NULL);
  assert_failure (&r, "foldray-cli", 2, "--version takes nothing after it (got 'extra')");
  g_assert_cmpstr (r.out, ==, "");
  run_result_clear (&r);
  {
    g_autofree char *pic = picture_path ();
    const char *argv[] = { pic, "--version", "--out", "x.png", NULL };
    const char *later[] = { pic, "--out", "x.png", "--version", NULL };

    r = run_argv (argv);
    assert_failure (&r, "foldray-picture", 2, "--version goes alone (got '--out' with it)");
    g_assert_cmpstr (r.out, ==, "");
    run_result_clear (&r);
    /* Not "unknown option" where it comes later. */
    r = run_argv (later);
    assert_failure (&r, "foldray-picture", 2, "--version goes alone (got '--out' with it)");
    run_result_clear (&r);
  }
}

/* ---- spr: results -------------------------------------------------------- */

static void
test_spr_constant (void)
{
  g_autofree char *py = find_python ();
  if (py == NULL)
    return;
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = write_velocity (dir, "v.npy", "<f4", 0, G_MAXSIZE);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *t64 = g_build_filename (dir, "T64.npy", NULL);
  g_autofree char *descr = NULL;
  const double src[] = { 10, 5 };
  size_t n0, n1;
  run_result r;

  r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "5",
               "--out", t, NULL);
  assert_success (&r);
  g_assert_cmpstr (r.out, ==, "");
  run_result_clear (&r);

  g_autoptr (GArray) vals = read_npy_py (py, t, &descr, &n0, &n1);
  g_assert_cmpstr (descr, ==, "<f4");
  g_assert_cmpuint (n0, ==, NZ);
  g_assert_cmpuint (n1, ==, NX);
  g_assert_cmpfloat (g_array_index (vals, double, 10 * NX + 20), ==, 0.0);
  /* Along an axis the path is straight: exact. */
  g_assert_cmpfloat_with_epsilon (g_array_index (vals, double, 10 * NX + 40), 5.0, 1e-6);
  check_constant_t (vals, NX, NZ, DX, DX, 0, 0, src, 1, 5);

  /* --precision double: float64 on disk, same values. */
  r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "5",
               "--precision", "double", "--backend", "dijkstra", "--out", t64, NULL);
  assert_success (&r);
  run_result_clear (&r);
  g_clear_pointer (&descr, g_free);
  g_autoptr (GArray) vals64 = read_npy_py (py, t64, &descr, &n0, &n1);
  g_assert_cmpstr (descr, ==, "<f8");
  check_constant_t (vals64, NX, NZ, DX, DX, 0, 0, src, 1, 5);
  for (guint i = 0; i < vals->len; i++)
    g_assert_cmpfloat_with_epsilon (g_array_index (vals64, double, i),
                                    g_array_index (vals, double, i),
                                    1e-6 * (1 + g_array_index (vals, double, i)));
  test_tmpdir_remove (dir);
}

static void
test_spr_sources_origin_spacing (void)
{
  g_autofree char *py = find_python ();
  if (py == NULL)
    return;
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = write_velocity (dir, "v.npy", "<f8", 0, G_MAXSIZE);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *descr = NULL;
  size_t n0, n1;
  run_result r;

  /* Two sources: T is the nearer one's time. */
  {
    const double src[] = { 0, 0, 20, 15 };
    r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "0,0",
                 "--source", "20,15", "--radius", "4", "--out", t, NULL);
    assert_success (&r);
    run_result_clear (&r);
    g_autoptr (GArray) vals = read_npy_py (py, t, &descr, &n0, &n1);
    check_constant_t (vals, NX, NZ, DX, DX, 0, 0, src, 2, 4);
    g_assert_cmpfloat (g_array_index (vals, double, NX * NZ - 1), ==, 0.0);
    g_clear_pointer (&descr, g_free);
  }

  /* --origin shifts every coordinate; "=" and a negative value parse. */
  {
    const double src[] = { -90, 55 };
    r = run_cli ("spr", "--velocity", v, "--spacing=0.5", "--origin", "-100,50",
                 "--source", "-90,55", "--radius", "3", "--out", t, NULL);
    assert_success (&r);
    run_result_clear (&r);
    g_autoptr (GArray) vals = read_npy_py (py, t, &descr, &n0, &n1);
    check_constant_t (vals, NX, NZ, DX, DX, -100, 50, src, 1, 3);
    g_assert_cmpfloat (g_array_index (vals, double, 10 * NX + 20), ==, 0.0);
    g_clear_pointer (&descr, g_free);
  }

  /* --spacing DX,DZ: z nodes 1.0 apart, x nodes 0.5. */
  {
    r = run_cli ("spr", "--velocity", v, "--spacing", "0.5,1", "--source", "10,10",
                 "--radius", "5,3", "--out", t, NULL);
    assert_success (&r);
    run_result_clear (&r);
    g_autoptr (GArray) vals = read_npy_py (py, t, &descr, &n0, &n1);
    /* x = 10, z = 20: node (20, 20), straight down 10 units. */
    g_assert_cmpfloat_with_epsilon (g_array_index (vals, double, 20 * NX + 20), 10 / V0, 1e-6);
    g_assert_cmpfloat_with_epsilon (g_array_index (vals, double, 10 * NX + 40), 10 / V0, 1e-6);
    for (size_t iz = 0; iz < NZ; iz++)
      for (size_t ix = 0; ix < NX; ix++)
        {
          double exact = hypot (ix * 0.5 - 10, iz * 1.0 - 10) / V0;
          double got = g_array_index (vals, double, iz * NX + ix);
          g_assert_cmpfloat (got, >=, exact * (1 - 1e-6) - 1e-6);
          /* Radius 5,3 reaches fewer directions than a square stencil. */
          g_assert_cmpfloat (got, <=, exact * 1.05 + 1e-6);
        }
    g_clear_pointer (&descr, g_free);
  }

  /* --radius R,RZ bounds the offsets along z by RZ, along x by R (the
   * bounds above hold for any larger radius too).  Radius 5,1 at spacing
   * 0.5: the node one right and two down of the source is two steps away,
   * and its least path is (0, 1) then (1, 1), 0.5 (1 + √2) / V0, where
   * a radius of 5 along z would reach it straight, 0.5 √5 / V0, 8%
   * less.  Radius 1,5 mirrors it: two right and one down. */
  for (int along_z = 0; along_z <= 1; along_z++)
    {
      const double want = 0.5 * (1.0 + G_SQRT2) / V0;
      const size_t node = along_z ? 22 * NX + 21 : 21 * NX + 22;   /* source at node (20, 20) */

      r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,10",
                   "--radius", along_z ? "5,1" : "1,5", "--out", t, NULL);
      assert_success (&r);
      run_result_clear (&r);
      g_autoptr (GArray) vals = read_npy_py (py, t, &descr, &n0, &n1);
      g_assert_cmpfloat_with_epsilon (g_array_index (vals, double, node), want, 1e-6);
      g_clear_pointer (&descr, g_free);
    }
  test_tmpdir_remove (dir);
}

static void
test_spr_stats (void)
{
  g_autofree char *py = find_python ();
  if (py == NULL)
    return;
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = write_velocity (dir, "v.npy", "<f4", 0, G_MAXSIZE);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *json = NULL;
  run_result r;

  /* The radius as used: as asked, then cut to the grid's 41 × 31 nodes
   * (the stats said 100 where the solve took 40). */
  static const struct {
    const char *asked, *rx, *rz;
  } radii[] = { { "2", "2", "2" }, { "100,3", "40", "3" } };
  for (guint k = 0; k < G_N_ELEMENTS (radii); k++)
    {
      r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius",
                   radii[k].asked, "--backend", "cpu", "--stats", "--out", t, NULL);
      assert_success (&r);
      /* One line, one object. */
      g_assert_true (g_str_has_suffix (r.out, "}\n"));
      g_assert_true (strchr (r.out, '\n') == r.out + strlen (r.out) - 1);
      g_assert_nonnull (strstr (r.out, "\"backend\": \"cpu\""));
      g_free (json);
      json = g_strdup (r.out);
      run_result_clear (&r);
      {
        g_autofree char *nx = g_strdup_printf ("%d", NX);
        g_autofree char *nz = g_strdup_printf ("%d", NZ);
        const char *argv[] = { py, "-c", stats_reader_py, json, nx, nz, radii[k].rx, radii[k].rz,
                               NULL };
        r = run_argv (argv);
        if (r.status != 0)
          g_test_message ("stats reader: %s", r.err);
        g_assert_cmpint (r.status, ==, 0);
        g_assert_cmpstr (r.out, ==, "ok\n");
        run_result_clear (&r);
      }
    }
  test_tmpdir_remove (dir);
}

/* One parsed rays file: per receiver, its points. */
static GHashTable *
read_rays (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTable *rays = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                            (GDestroyNotify) g_array_unref);
  long last = -1;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "receiver,x,z");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
      char *end;
      g_assert_cmpuint (g_strv_length (f), ==, 3);
      long k = strtol (f[0], &end, 10);
      g_assert_true (*end == '\0' && k >= 0);
      /* Rays come in receiver order, each in one block. */
      g_assert_cmpint (k, >=, last);
      GArray *pts = g_hash_table_lookup (rays, GINT_TO_POINTER (k));
      if (pts == NULL)
        {
          g_assert_cmpint (k, !=, last);
          pts = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (rays, GINT_TO_POINTER (k), pts);
        }
      double xz[2] = { g_ascii_strtod (f[1], NULL), g_ascii_strtod (f[2], NULL) };
      g_array_append_vals (pts, xz, 2);
      last = k;
    }
  return rays;
}

static void
assert_ray (GHashTable *rays, int receiver, double sx, double sz, double rx, double rz, int radius)
{
  GArray *pts = g_hash_table_lookup (rays, GINT_TO_POINTER (receiver));
  guint n;

  g_assert_nonnull (pts);
  n = pts->len / 2;
  g_assert_cmpfloat_with_epsilon (g_array_index (pts, double, 0), sx, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (pts, double, 1), sz, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (pts, double, 2 * n - 2), rx, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (pts, double, 2 * n - 1), rz, 1e-9);
  /* Each step is one edge of the graph: within the radius, and a node. */
  for (guint i = 1; i < n; i++)
    {
      double ddx = g_array_index (pts, double, 2 * i) - g_array_index (pts, double, 2 * i - 2);
      double ddz = g_array_index (pts, double, 2 * i + 1) - g_array_index (pts, double, 2 * i - 1);
      g_assert_cmpfloat (fabs (ddx), <=, radius * DX + 1e-9);
      g_assert_cmpfloat (fabs (ddz), <=, radius * DX + 1e-9);
      g_assert_cmpfloat (fabs (ddx) + fabs (ddz), >, 0);
    }
}

static void
test_spr_rays (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = write_velocity (dir, "v.npy", "<f4", 0, G_MAXSIZE);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *rays_path = g_build_filename (dir, "rays.csv", NULL);
  /* CRLF, spaces, a receiver on the source, snapping, blank lines at the end. */
  g_autofree char *rc = write_text (dir, "r.csv",
                                    "x,z\r\n18,5\r\n 10.1 , 12.4\r\n0.2,0.1\r\n10,5\r\n\r\n\r\n");
  GHashTable *rays;
  run_result r;

  r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "5",
               "--receivers", rc, "--rays-out", rays_path, "--out", t, NULL);
  assert_success (&r);
  run_result_clear (&r);

  rays = read_rays (rays_path);
  g_assert_cmpuint (g_hash_table_size (rays), ==, 4);
  assert_ray (rays, 0, 10, 5, 18, 5, 5);
  assert_ray (rays, 1, 10, 5, 10, 12.5, 5);
  assert_ray (rays, 2, 10, 5, 0, 0, 5);
  assert_ray (rays, 3, 10, 5, 10, 5, 5);
  g_assert_cmpuint (((GArray *) g_hash_table_lookup (rays, GINT_TO_POINTER (3)))->len, ==, 2);
  /* Along an axis only the unit offset survives edge reduction (gcd 1),
   * so the ray visits all 17 nodes from x = 10 to 18. */
  g_assert_cmpuint (((GArray *) g_hash_table_lookup (rays, GINT_TO_POINTER (0)))->len / 2, ==, 17);
  g_hash_table_unref (rays);
  test_tmpdir_remove (dir);
}

/* --times-out: each receiver in its order, as given (CRLF, spaces, off a
 * node), with T at the node it snaps to, read from T.npy by the
 * independent reader, in single and double precision: 0 on the source, the
 * exact 8 / V0 along the source's row (unit edges), and elsewhere between
 * the straight line's time and the stencil's bound.  Without --rays-out no
 * rays file is written; with it, both come. */
static void
test_spr_times (void)
{
  g_autofree char *py = find_python ();
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = write_velocity (dir, "v.npy", "<f4", 0, G_MAXSIZE);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *times = g_build_filename (dir, "times.csv", NULL);
  g_autofree char *rays = g_build_filename (dir, "rays.csv", NULL);
  g_autofree char *rc = write_text (dir, "r.csv",
                                    "x,z\r\n18,5\r\n 10.1 , 12.4\r\n0.2,0.1\r\n10,5\r\n\r\n");
  const double given[4][2] = { { 18, 5 }, { 10.1, 12.4 }, { 0.2, 0.1 }, { 10, 5 } };
  const size_t node[4][2] = { { 36, 10 }, { 20, 25 }, { 0, 0 }, { 20, 10 } };
  const double bound = stencil_bound (5, DX, DX);

  if (py == NULL)
    {
      test_tmpdir_remove (dir);
      return;
    }
  for (int dbl = 0; dbl <= 1; dbl++)
    {
      g_autoptr (GArray) rows = NULL;
      g_autoptr (GArray) tv = NULL;
      g_autofree char *descr = NULL;
      size_t n0, n1;
      run_result r;

      r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "5",
                   "--precision", dbl ? "double" : "single", "--receivers", rc, "--times-out",
                   times, "--out", t, NULL);
      assert_success (&r);
      /* Notes only: on a GPU machine auto takes CUDA, which computes in
       * single precision only, and says that double ran on the CPU. */
      {
        g_auto (GStrv) lines = g_strsplit (r.err, "\n", -1);

        for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
          g_assert_true (g_str_has_prefix (lines[i], "foldray-cli: note: "));
      }
      run_result_clear (&r);
      g_assert_false (g_file_test (rays, G_FILE_TEST_EXISTS));
      g_assert_cmpuint (count_entries (dir), ==, 4);    /* v, r, T, times */

      tv = read_npy_py (py, t, &descr, &n0, &n1);
      g_assert_cmpstr (descr, ==, dbl ? "<f8" : "<f4");
      rows = test_read_times (times, 2);
      g_assert_cmpuint (rows->len, ==, 4);
      for (guint k = 0; k < 4; k++)
        {
          const test_time_row *row = &g_array_index (rows, test_time_row, k);
          const double at_node = g_array_index (tv, double, node[k][1] * NX + node[k][0]);
          const double straight = hypot ((double) node[k][0] * DX - 10, (double) node[k][1] * DX - 5) / V0;

          g_assert_cmpfloat (row->xyz[0], ==, given[k][0]);
          g_assert_cmpfloat (row->xyz[1], ==, given[k][1]);
          /* In its precision, the very value of T.npy at the node. */
          if (dbl)
            g_assert_cmpfloat (row->t, ==, at_node);
          else
            g_assert_cmpfloat ((float) row->t, ==, (float) at_node);
          g_assert_cmpfloat (row->t, >=, straight * (1 - 1e-6));
          g_assert_cmpfloat (row->t, <=, straight * bound * (1 + 1e-6));
        }
      g_assert_cmpfloat (g_array_index (rows, test_time_row, 0).t, ==, 8 / V0);
      g_assert_cmpfloat (g_array_index (rows, test_time_row, 3).t, ==, 0);
      g_assert_cmpint (g_unlink (times), ==, 0);
      g_assert_cmpint (g_unlink (t), ==, 0);
    }

  /* Both outputs at the receivers. */
  {
    run_result r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5",
                            "--radius", "5", "--receivers", rc, "--rays-out", rays, "--times-out",
                            times, "--out", t, NULL);
    g_autoptr (GArray) rows = NULL;
    GHashTable *traced;

    assert_success (&r);
    run_result_clear (&r);
    rows = test_read_times (times, 2);
    g_assert_cmpuint (rows->len, ==, 4);
    traced = read_rays (rays);
    g_assert_cmpuint (g_hash_table_size (traced), ==, 4);
    assert_ray (traced, 1, 10, 5, 10, 12.5, 5);
    g_hash_table_unref (traced);
  }
  test_tmpdir_remove (dir);
}

/* Reciprocity: in a velocity that varies with depth, the time from A to B
 * that --times-out writes with the source at A equals the one with the
 * source at B and the receiver at A (the graph's edges weigh the same
 * both ways), for the sequential reference and the CPU back end, in
 * double precision. */
static void
test_spr_times_reciprocal (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = g_build_filename (dir, "v.npy", NULL);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *times = g_build_filename (dir, "times.csv", NULL);
  static const char *const points[] = { "2,3", "15,10", "8,14.5", "19.5,0" };
  static const char *const backends[] = { "dijkstra", "cpu" };
  size_t shape[2] = { NZ, NX };
  double *vel = g_new (double, NX * NZ);

  for (size_t i = 0; i < NX * NZ; i++)
    vel[i] = 1.0 + 0.15 * (double) (i / NX) + (i % NX > 25 ? 0.5 : 0.0);
  write_npy (v, "<f4", 2, shape, vel);
  g_free (vel);
  for (size_t b = 0; b < G_N_ELEMENTS (backends); b++)
    {
      double tt[4][4];

      for (size_t s = 0; s < 4; s++)
        {
          g_autoptr (GString) rc = g_string_new ("x,z\n");
          g_autofree char *rc_path = NULL;
          g_autoptr (GArray) rows = NULL;
          run_result r;

          for (size_t k = 0; k < 4; k++)
            g_string_append_printf (rc, "%s\n", points[k]);
          rc_path = write_text (dir, "r.csv", rc->str);
          r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", points[s],
                       "--radius", "4", "--backend", backends[b], "--precision", "double",
                       "--receivers", rc_path, "--times-out", times, "--out", t, NULL);
          assert_success (&r);
          run_result_clear (&r);
          rows = test_read_times (times, 2);
          g_assert_cmpuint (rows->len, ==, 4);
          for (size_t k = 0; k < 4; k++)
            tt[s][k] = g_array_index (rows, test_time_row, k).t;
        }
      for (size_t s = 0; s < 4; s++)
        {
          g_assert_cmpfloat (tt[s][s], ==, 0);
          for (size_t k = 0; k < s; k++)
            {
              if (fabs (tt[s][k] - tt[k][s]) > 1e-12 * tt[s][k])
                g_test_message ("%s: %s -> %s %.17g, back %.17g", backends[b], points[s],
                                points[k], tt[s][k], tt[k][s]);
              g_assert_cmpfloat (tt[s][k], >, 0);
              g_assert_cmpfloat (fabs (tt[s][k] - tt[k][s]), <=, 1e-12 * tt[s][k]);
            }
        }
    }
  test_tmpdir_remove (dir);
}

/* --gather-out: each source fired alone.  In a velocity that varies
 * with depth and across, with three sources and four receivers (three of
 * them on the sources): every line is the source's own shot, the time
 * --times-out writes for that source alone; a shot's time at another
 * source is that source's shot's time back (reciprocity); and the sources
 * fired together (T.npy and --times-out of the same run) give at each
 * receiver the earliest of the shots. */
static void
test_spr_gather (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = g_build_filename (dir, "v.npy", NULL);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *times = g_build_filename (dir, "times.csv", NULL);
  g_autofree char *gather = g_build_filename (dir, "gather.csv", NULL);
  g_autofree char *rc = write_text (dir, "r.csv", "x,z\n2,3\n15,10\n19.5,0\n8,14.5\n");
  static const double src[3][2] = { { 2, 3 }, { 15, 10 }, { 19.5, 0 } };
  static const double rcv[4][2] = { { 2, 3 }, { 15, 10 }, { 19.5, 0 }, { 8, 14.5 } };
  size_t shape[2] = { NZ, NX };
  double *vel = g_new (double, NX * NZ);
  double alone[3][4];
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) together = NULL;
  run_result r;

  for (size_t i = 0; i < NX * NZ; i++)
    vel[i] = 1.0 + 0.15 * (double) (i / NX) + (i % NX > 25 ? 0.5 : 0.0);
  write_npy (v, "<f4", 2, shape, vel);
  g_free (vel);

  for (size_t s = 0; s < 3; s++)
    {
      g_autofree char *at = g_strdup_printf ("%g,%g", src[s][0], src[s][1]);
      g_autoptr (GArray) rows = NULL;

      r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", at, "--radius", "4",
                   "--backend", "cpu", "--precision", "double", "--receivers", rc, "--times-out",
                   times, "--out", t, NULL);
      assert_success (&r);
      run_result_clear (&r);
      rows = test_read_times (times, 2);
      g_assert_cmpuint (rows->len, ==, 4);
      for (size_t k = 0; k < 4; k++)
        alone[s][k] = g_array_index (rows, test_time_row, k).t;
    }

  r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "2,3", "--source", "15,10",
               "--source", "19.5,0", "--radius", "4", "--backend", "cpu", "--precision", "double",
               "--receivers", rc, "--times-out", times, "--gather-out", gather, "--out", t,
               "--stats", NULL);
  assert_success (&r);
  g_assert_nonnull (strstr (r.out, "\"gather_shots\": 3"));
  run_result_clear (&r);
  g_assert_true (g_file_get_contents (gather, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "source,source_x,source_z,receiver,x,z,t");
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 12 + 1);   /* the last line ends */
  g_assert_cmpstr (lines[13], ==, "");
  for (size_t s = 0; s < 3; s++)
    for (size_t k = 0; k < 4; k++)
      {
        g_auto (GStrv) f = g_strsplit (lines[1 + 4 * s + k], ",", -1);
        double got;

        g_assert_cmpuint (g_strv_length (f), ==, 7);
        g_assert_cmpint (atoi (f[0]), ==, (int) s);
        g_assert_cmpfloat (g_ascii_strtod (f[1], NULL), ==, src[s][0]);
        g_assert_cmpfloat (g_ascii_strtod (f[2], NULL), ==, src[s][1]);
        g_assert_cmpint (atoi (f[3]), ==, (int) k);
        g_assert_cmpfloat (g_ascii_strtod (f[4], NULL), ==, rcv[k][0]);
        g_assert_cmpfloat (g_ascii_strtod (f[5], NULL), ==, rcv[k][1]);
        got = g_ascii_strtod (f[6], NULL);
        g_assert_cmpfloat (fabs (got - alone[s][k]), <=, 1e-12 * alone[s][k]);
      }
  for (size_t s = 0; s < 3; s++)
    {
      g_assert_cmpfloat (alone[s][s], ==, 0);
      for (size_t k = 0; k < s; k++)
        {
          g_assert_cmpfloat (alone[s][k], >, 1);
          g_assert_cmpfloat (fabs (alone[s][k] - alone[k][s]), <=, 1e-12 * alone[s][k]);
        }
    }
  together = test_read_times (times, 2);
  g_assert_cmpuint (together->len, ==, 4);
  for (size_t k = 0; k < 4; k++)
    {
      const double least = MIN (alone[0][k], MIN (alone[1][k], alone[2][k]));

      g_assert_cmpfloat (fabs (g_array_index (together, test_time_row, k).t - least), <=, 1e-12 * least);
    }
  test_tmpdir_remove (dir);
}

/* A receiver walled in by obstacles is not a failure: T is +inf there, no
 * ray is written for it, and a note on stderr says so. */
static void
test_spr_unreached_receiver (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = g_build_filename (dir, "v.npy", NULL);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *rays_path = g_build_filename (dir, "rays.csv", NULL);
  g_autofree char *times_path = g_build_filename (dir, "times.csv", NULL);
  g_autofree char *rc = write_text (dir, "r.csv", "x,z\n2.5,12.5\n18,5\n");
  size_t shape[2] = { NZ, NX };
  double *vel = g_new (double, NX * NZ);
  g_autoptr (GArray) times = NULL;
  GHashTable *rays;
  run_result r;

  /* A ring of obstacles around node (5, 25). */
  for (size_t i = 0; i < NX * NZ; i++)
    vel[i] = V0;
  for (int dz = -1; dz <= 1; dz++)
    for (int dx = -1; dx <= 1; dx++)
      if (dx || dz)
        vel[(25 + dz) * NX + 5 + dx] = 0;
  write_npy (v, "<f4", 2, shape, vel);
  g_free (vel);

  r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "1",
               "--receivers", rc, "--rays-out", rays_path, "--out", t, NULL);
  assert_success (&r);
  g_assert_nonnull (strstr (r.err, "foldray-cli: note: 1 receiver is not reached"));
  g_assert_nonnull (strstr (r.err, "no ray written for it\n"));
  run_result_clear (&r);
  rays = read_rays (rays_path);
  g_assert_cmpuint (g_hash_table_size (rays), ==, 1);
  assert_ray (rays, 1, 10, 5, 18, 5, 1);
  g_hash_table_unref (rays);

  /* Its time is inf, the other's 8 / V0; the note says what was written. */
  r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "1",
               "--receivers", rc, "--rays-out", rays_path, "--times-out", times_path, "--out", t,
               NULL);
  assert_success (&r);
  g_assert_nonnull (strstr (r.err, "1 receiver is not reached by any source: no ray written for "
                                   "it, its time written as inf\n"));
  run_result_clear (&r);
  times = test_read_times (times_path, 2);
  g_assert_cmpuint (times->len, ==, 2);
  g_assert_cmpfloat (g_array_index (times, test_time_row, 0).t, ==, INFINITY);
  g_assert_cmpfloat (g_array_index (times, test_time_row, 1).t, ==, 8 / V0);
  r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "1",
               "--receivers", rc, "--times-out", times_path, "--out", t, NULL);
  assert_success (&r);
  g_assert_nonnull (strstr (r.err, "1 receiver is not reached by any source: its time written "
                                   "as inf\n"));
  run_result_clear (&r);
  test_tmpdir_remove (dir);
}

/* ---- spr: failures --------------------------------------------------------- */

typedef struct fail_case {
  const char *what;
  int status;
  const char *names;        /* what the message must contain; "@X" as in args */
  const char *args[24];     /* after "spr"; "@X" names a file made below */
} fail_case;

#define GOOD "--velocity", "@V", "--spacing", "0.5", "--source", "10,5", "--radius", "5"

static const fail_case fail_cases[] = {
  { "missing --out", 2, "--out", { GOOD } },
  { "missing --velocity", 2, "--velocity",
    { "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "missing --source", 2, "--source",
    { "--velocity", "@V", "--spacing", "0.5", "--radius", "5", "--out", "@OUT" } },
  { "unknown flag", 2, "--frobnicate", { GOOD, "--frobnicate", "--out", "@OUT" } },
  { "positional", 2, "stray", { GOOD, "stray", "--out", "@OUT" } },
  { "flag without value", 2, "--out", { GOOD, "--out" } },
  { "repeated flag", 2, "--out", { GOOD, "--out", "@OUT", "--out", "@OUT" } },
  { "unknown backend", 2, "--backend", { GOOD, "--backend", "gpu", "--out", "@OUT" } },
  { "bad precision", 2, "--precision", { GOOD, "--precision", "quad", "--out", "@OUT" } },
  { "bad number", 2, "--source",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "1,abc", "--radius", "5", "--out", "@OUT" } },
  { "trailing comma", 2, "--source",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "1,", "--radius", "5", "--out", "@OUT" } },
  { "source with a third, empty field", 2, "--source '10,5,': expected 2 comma-separated numbers",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "10,5,", "--radius", "5", "--out", "@OUT" } },
  /* A number beyond double's range is out of range, not "not a number". */
  { "source out of range", 2, "--source '1e400,5': 1e400 is out of range",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "1e400,5", "--radius", "5", "--out", "@OUT" } },
  { "spacing out of range", 2, "--spacing '1e400': 1e400 is out of range",
    { "--velocity", "@V", "--spacing", "1e400", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "radius out of range", 2, "--radius '1e400': 1e400 is out of range",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "10,5", "--radius", "1e400", "--out", "@OUT" } },
  /* Times below float32's range: the spacing's fault and the velocities'. */
  { "velocities too fast for float32", 2, "--spacing 0.5 and ",
    { "--velocity", "@VHUGE", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "nan source", 2, "--source",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "nan,1", "--radius", "5", "--out", "@OUT" } },
  { "3D source", 2, "--source '1,2,3': spr is 2D, give X,Z",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "1,2,3", "--radius", "5", "--out", "@OUT" } },
  { "bad spacing", 2, "--spacing",
    { "--velocity", "@V", "--spacing", "0.5,abc", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "zero spacing", 2, "--spacing",
    { "--velocity", "@V", "--spacing", "0", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "bad origin", 2, "--origin", { GOOD, "--origin", "1", "--out", "@OUT" } },
  /* Only an origin far out makes the spacing too fine to tell the nodes
   * apart: it was blamed on --spacing alone. */
  { "origin far out", 2, "--spacing and --origin",
    { GOOD, "--origin", "1e16,0", "--out", "@OUT" } },
  { "source outside", 2, "--source",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "100,5", "--radius", "5", "--out", "@OUT" } },
  /* Just beyond the edge: named with its digits (%g said 20.0001). */
  { "source just outside", 2, "--source 20.00009,5 lies outside the grid (x from 0 to 20",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "20.00009,5", "--radius", "5", "--out", "@OUT" } },
  { "source not on a node", 2, "--source",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "10.2,5", "--radius", "5", "--out", "@OUT" } },
  /* Named with all their digits (%g gave "10.0001,5 ... nearest: 10,5"). */
  { "source just off a node", 2, "--source 10.00002,5 is not on a grid node (nearest: 10,5)",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "10.00002,5", "--radius", "5", "--out", "@OUT" } },
  { "second source bad", 2, "--source", { GOOD, "--source", "-1,0", "--out", "@OUT" } },
  { "source in an obstacle", 2, "--source",
    { "--velocity", "@VOBST", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "radius 0", 2, "--radius",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "10,5", "--radius", "0", "--out", "@OUT" } },
  { "radius not whole", 2, "--radius",
    { "--velocity", "@V", "--spacing", "0.5", "--source", "10,5", "--radius", "2.5", "--out", "@OUT" } },
  { "missing file", 2, "nope.npy",
    { "--velocity", "@NOPE", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "velocity is a folder", 2, "--velocity",
    { "--velocity", "@OUTDIR", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "malformed npy", 2, "bad.npy",
    { "--velocity", "@BAD", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "NaN velocity", 2, "nan.npy",
    { "--velocity", "@NAN", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "negative velocity", 2, "neg.npy",
    { "--velocity", "@NEG", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  /* The header claims 2^31 float32 values (8 GiB), the file holds 16 bytes:
   * refused from the header and the file's size, before any allocation. */
  { "npy header lies about its size", 2,
    "lie.npy: truncated data: shape (65536, 32768) of float32 needs 8589934592 bytes but only 16 "
    "are present",
    { "--velocity", "@LIE", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "3D velocity", 2, "v3.npy",
    { "--velocity", "@V3", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  /* "-" is no file name the tools write to: it wrote a file named "-". */
  { "--out to standard output", 2, "--out -: standard output", { GOOD, "--out", "-" } },
  { "--rays-out to standard output", 2, "--rays-out -: standard output",
    { GOOD, "--receivers", "@R", "--rays-out", "-", "--out", "@OUT" } },
  { "receivers without rays", 2, "--receivers needs --rays-out, --times-out or --gather-out",
    { GOOD, "--receivers", "@R", "--out", "@OUT" } },
  { "gather without receivers", 2, "--gather-out needs --receivers",
    { GOOD, "--gather-out", "@TIMES", "--out", "@OUT" } },
  { "gather and T one file", 2, "--out and --gather-out name the same file",
    { GOOD, "--receivers", "@R", "--gather-out", "@OUT", "--out", "@OUT" } },
  { "gather and times one file", 2, "--times-out and --gather-out name the same file",
    { GOOD, "--receivers", "@R", "--times-out", "@TIMES", "--gather-out", "@TIMES", "--out", "@OUT" } },
  { "--gather-out to standard output", 2, "--gather-out -: standard output",
    { GOOD, "--receivers", "@R", "--gather-out", "-", "--out", "@OUT" } },
  { "no gather folder", 1, "--gather-out",
    { GOOD, "--receivers", "@R", "--gather-out", "@NODIR", "--out", "@OUT" } },
  { "rays without receivers", 2, "--receivers", { GOOD, "--rays-out", "@RAYS", "--out", "@OUT" } },
  { "times without receivers", 2, "--times-out needs --receivers",
    { GOOD, "--times-out", "@TIMES", "--out", "@OUT" } },
  { "--times-out to standard output", 2, "--times-out -: standard output",
    { GOOD, "--receivers", "@R", "--times-out", "-", "--out", "@OUT" } },
  { "times and T one file", 2, "--out and --times-out name the same file",
    { GOOD, "--receivers", "@R", "--times-out", "@OUT", "--out", "@OUT" } },
  { "times and rays one file", 2, "--rays-out and --times-out name the same file",
    { GOOD, "--receivers", "@R", "--rays-out", "@RAYS", "--times-out", "@RAYS", "--out", "@OUT" } },
  { "no times folder", 1, "--times-out",
    { GOOD, "--receivers", "@R", "--times-out", "@NODIR", "--out", "@OUT" } },
  { "receiver outside", 2, "r-far.csv",
    { GOOD, "--receivers", "@RFAR", "--rays-out", "@RAYS", "--out", "@OUT" } },
  { "malformed receivers", 2, "r-bad.csv: line 3",
    { GOOD, "--receivers", "@RBAD", "--rays-out", "@RAYS", "--out", "@OUT" } },
  { "3D receivers", 2, "r3.csv",
    { GOOD, "--receivers", "@R3", "--rays-out", "@RAYS", "--out", "@OUT" } },
  { "missing receivers", 2, "--receivers",
    { GOOD, "--receivers", "@NOPE", "--rays-out", "@RAYS", "--out", "@OUT" } },
  /* Names in Latin-1, as their bytes: shown with U+FFFD, so that the
   * terminal gets UTF-8 (they went out byte for byte). */
  { "receivers named in Latin-1", 2, "r-\xef\xbf\xbd.csv: line 3",
    { GOOD, "--receivers", "@RLATIN1", "--rays-out", "@RAYS", "--out", "@OUT" } },
  { "missing velocity named in Latin-1", 2, "nope-\xef\xbf\xbd.npy",
    { "--velocity", "@NOPELATIN1", "--spacing", "0.5", "--source", "10,5", "--radius", "5", "--out", "@OUT" } },
  { "same output twice", 2, "--rays-out",
    { GOOD, "--receivers", "@R", "--rays-out", "@OUT", "--out", "@OUT" } },
  /* Where the output goes is the system's answer, not the user's input:
   * a folder that is not there is a failure to write (exit 1), checked
   * before the solve.  The rays case also proves T is not left alone. */
  { "no output folder", 1, "--out", { GOOD, "--out", "@NODIR" } },
  { "no rays folder", 1, "--rays-out",
    { GOOD, "--receivers", "@R", "--rays-out", "@NODIR", "--out", "@OUT" } },
  { "output is a folder", 1, "--out", { GOOD, "--out", "@OUTDIR" } },
};

typedef struct fail_files {
  char *dir, *outdir;
  GHashTable *names;   /* "@X" -> path */
} fail_files;

static void
fail_files_init (fail_files *ff)
{
  size_t shape3[3] = { 2, 3, 4 };
  double v3[24];

  ff->dir = make_tmp ();
  ff->outdir = g_build_filename (ff->dir, "out", NULL);
  g_assert_cmpint (g_mkdir (ff->outdir, 0755), ==, 0);
  ff->names = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_hash_table_insert (ff->names, "@V", write_velocity (ff->dir, "v.npy", "<f4", 0, G_MAXSIZE));
  g_hash_table_insert (ff->names, "@VOBST", write_velocity (ff->dir, "obst.npy", "<f4", 0, 10 * NX + 20));
  g_hash_table_insert (ff->names, "@NAN", write_velocity (ff->dir, "nan.npy", "<f4", NAN, 7));
  g_hash_table_insert (ff->names, "@NEG", write_velocity (ff->dir, "neg.npy", "<f8", -1, 100));
  g_hash_table_insert (ff->names, "@VHUGE", write_velocity (ff->dir, "huge.npy", "<f4", 1e38, 7));
  for (int i = 0; i < 24; i++)
    v3[i] = 1;
  {
    char *p = g_build_filename (ff->dir, "v3.npy", NULL);
    write_npy (p, "<f4", 3, shape3, v3);
    g_hash_table_insert (ff->names, "@V3", p);
  }
  g_hash_table_insert (ff->names, "@BAD", write_text (ff->dir, "bad.npy", "\x93NUMPY\x01" "Xgarbage"));
  {
    static const char hdr[] =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (65536, 32768), }\n";
    char *p = g_build_filename (ff->dir, "lie.npy", NULL);
    g_autoptr (GString) s = g_string_new_len ("\x93NUMPY\x01\x00", 8);

    g_string_append_c (s, (char) (sizeof hdr - 1));
    g_string_append_c (s, '\0');
    g_string_append_len (s, hdr, sizeof hdr - 1);
    g_string_append_len (s, "0123456789abcdef", 16);
    g_assert_true (g_file_set_contents (p, s->str, (gssize) s->len, NULL));
    g_hash_table_insert (ff->names, "@LIE", p);
  }
  g_hash_table_insert (ff->names, "@R", write_text (ff->dir, "r.csv", "x,z\n18,5\n"));
  g_hash_table_insert (ff->names, "@RFAR", write_text (ff->dir, "r-far.csv", "x,z\n18,5\n30,5\n"));
  g_hash_table_insert (ff->names, "@RBAD", write_text (ff->dir, "r-bad.csv", "x,z\n18,5\n1,2,3\n"));
  g_hash_table_insert (ff->names, "@R3", write_text (ff->dir, "r3.csv", "x,y,z\n18,0,5\n"));
  g_hash_table_insert (ff->names, "@RLATIN1", write_text (ff->dir, "r-\xff.csv", "x,z\n18,5\n1,2,3\n"));
  g_hash_table_insert (ff->names, "@NOPELATIN1", g_build_filename (ff->dir, "nope-\xff.npy", NULL));
  g_hash_table_insert (ff->names, "@NOPE", g_build_filename (ff->dir, "nope.npy", NULL));
  g_hash_table_insert (ff->names, "@OUT", g_build_filename (ff->outdir, "T.npy", NULL));
  g_hash_table_insert (ff->names, "@RAYS", g_build_filename (ff->outdir, "rays.csv", NULL));
  g_hash_table_insert (ff->names, "@TIMES", g_build_filename (ff->outdir, "times.csv", NULL));
  g_hash_table_insert (ff->names, "@NODIR", g_build_filename (ff->outdir, "no", "such", "T.npy", NULL));
  g_hash_table_insert (ff->names, "@OUTDIR", g_strdup (ff->outdir));
}

static void
fail_files_clear (fail_files *ff)
{
  test_tmpdir_remove (ff->dir);
  g_free (ff->dir);
  g_free (ff->outdir);
  g_hash_table_unref (ff->names);
}

static void
test_spr_failures (void)
{
  fail_files ff;

  fail_files_init (&ff);
  for (size_t c = 0; c < G_N_ELEMENTS (fail_cases); c++)
    {
      const fail_case *fc = &fail_cases[c];
      g_autoptr (GPtrArray) argv = g_ptr_array_new ();
      const char *names = fc->names;
      run_result r;

      g_test_message ("case: %s", fc->what);
      g_ptr_array_add (argv, (char *) cli_path ());
      g_ptr_array_add (argv, "spr");
      for (size_t i = 0; i < G_N_ELEMENTS (fc->args) && fc->args[i] != NULL; i++)
        {
          const char *a = fc->args[i];
          const char *path = a[0] == '@' ? g_hash_table_lookup (ff.names, a) : NULL;
          g_assert_true (a[0] != '@' || path != NULL);
          g_ptr_array_add (argv, (char *) (path != NULL ? path : a));
        }
      g_ptr_array_add (argv, NULL);
      r = run_argv ((const char *const *) argv->pdata);
      assert_failure (&r, "foldray-cli", fc->status, names);
      g_assert_true (g_utf8_validate (r.err, -1, NULL));
      g_assert_cmpstr (r.out, ==, "");
      /* No output, no partial output, no temporary file. */
      g_assert_cmpuint (count_entries (ff.outdir), ==, 0);
      run_result_clear (&r);
    }
  fail_files_clear (&ff);
}

/* An output named after an input (however spelled: the same name, a
 * symbolic link to it, "dir/../name") is refused before anything is
 * written, and the input is left byte for byte; spr and fold, every
 * output against every input. */
static void
test_output_names_input (void)
{
  fail_files ff;
  g_autofree char *dir = NULL;
  g_autofree char *link = NULL;
  g_autofree char *dotdot = NULL;
  g_autofree char *boundary = NULL;

  fail_files_init (&ff);
  dir = g_strdup (ff.dir);
  link = g_build_filename (dir, "v-link.npy", NULL);
  dotdot = g_build_filename (dir, "out", "..", "v.npy", NULL);
  boundary = write_velocity (dir, "b.npy", "<f4", 0.25, 0);
  g_assert_cmpint (symlink (g_hash_table_lookup (ff.names, "@V"), link), ==, 0);
  {
    const char *v = g_hash_table_lookup (ff.names, "@V");
    const char *rcv = g_hash_table_lookup (ff.names, "@R");
    const char *out = g_hash_table_lookup (ff.names, "@OUT");
    const char *rays = g_hash_table_lookup (ff.names, "@RAYS");
    const struct {
      const char *what, *names, *args[16];
    } cases[] = {
      { "spr --out the velocity", "--out",
        { "spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "3", "--out", v } },
      { "spr --out a link to the velocity", "is the input given by --velocity",
        { "spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "3", "--out", link } },
      { "spr --out=dir/../velocity", "is the input given by --velocity",
        { "spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "3",
          g_strconcat ("--out=", dotdot, NULL) } },
      { "spr --rays-out the receivers", "--rays-out",
        { "spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "3", "--out", out,
          "--receivers", rcv, "--rays-out", rcv } },
      { "spr --rays-out the velocity", "is the input given by --velocity",
        { "spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "3", "--out", out,
          "--receivers", rcv, "--rays-out", v } },
      { "fold --out the speed", "is the input given by --speed",
        { "fold", "--speed", v, "--spacing", "0.5", "--source", "10,5", "--out", v } },
      { "fold --out the boundary", "is the input given by --boundary",
        { "fold", "--speed", v, "--spacing", "0.5", "--boundary", boundary, "--out", boundary } },
      { "fold --rays-out the receivers", "is the input given by --receivers",
        { "fold", "--speed", v, "--spacing", "0.5", "--source", "10,5", "--out", out,
          "--receivers", rcv, "--rays-out", rcv } },
      { "spr --times-out the receivers", "is the input given by --receivers",
        { "spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "3", "--out", out,
          "--receivers", rcv, "--times-out", rcv } },
      { "fold --times-out the speed", "is the input given by --speed",
        { "fold", "--speed", v, "--spacing", "0.5", "--source", "10,5", "--out", out,
          "--receivers", rcv, "--times-out", v } },
    };
    g_autofree char *v_before = NULL, *r_before = NULL, *b_before = NULL;
    gsize v_len, r_len, b_len;

    g_assert_true (g_file_get_contents (v, &v_before, &v_len, NULL));
    g_assert_true (g_file_get_contents (rcv, &r_before, &r_len, NULL));
    g_assert_true (g_file_get_contents (boundary, &b_before, &b_len, NULL));
    for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        g_autoptr (GPtrArray) argv = g_ptr_array_new ();
        g_autofree char *v_after = NULL, *r_after = NULL, *b_after = NULL;
        gsize len;
        run_result r;

        g_test_message ("case: %s", cases[c].what);
        g_ptr_array_add (argv, (char *) cli_path ());
        for (size_t i = 0; i < G_N_ELEMENTS (cases[c].args) && cases[c].args[i] != NULL; i++)
          g_ptr_array_add (argv, (char *) cases[c].args[i]);
        g_ptr_array_add (argv, NULL);
        r = run_argv ((const char *const *) argv->pdata);
        assert_failure (&r, "foldray-cli", 2, cases[c].names);
        g_assert_nonnull (strstr (r.err, "would destroy it"));
        g_assert_cmpuint (count_entries (ff.outdir), ==, 0);
        g_assert_true (g_file_get_contents (v, &v_after, &len, NULL));
        g_assert_true (len == v_len && memcmp (v_after, v_before, len) == 0);
        g_assert_true (g_file_get_contents (rcv, &r_after, &len, NULL));
        g_assert_true (len == r_len && memcmp (r_after, r_before, len) == 0);
        g_assert_true (g_file_get_contents (boundary, &b_after, &len, NULL));
        g_assert_true (len == b_len && memcmp (b_after, b_before, len) == 0);
        run_result_clear (&r);
      }
    g_free ((char *) cases[2].args[9]);
    /* The same file under two names that are not inputs of each other
     * still runs: an output beside an input is fine. */
    {
      run_result r = run_cli ("spr", "--velocity", link, "--spacing", "0.5", "--source", "10,5",
                              "--radius", "3", "--out", out, "--receivers", rcv, "--rays-out", rays,
                              NULL);
      assert_success (&r);
      run_result_clear (&r);
    }
  }
  fail_files_clear (&ff);
}

/* Asking for CUDA succeeds, on the GPU or, without one (or in a build
 * without CUDA), on the CPU with a note that says so (DESIGN.md: a CUDA
 * failure falls back to the CPU with a visible notice). */
static void
test_spr_cuda_request (void)
{
  fail_files ff;
  run_result r;

  fail_files_init (&ff);
  r = run_cli ("spr", "--velocity", g_hash_table_lookup (ff.names, "@V"), "--spacing", "0.5",
               "--source", "10,5", "--radius", "3", "--backend", "cuda", "--stats",
               "--out", g_hash_table_lookup (ff.names, "@OUT"), NULL);
  assert_success (&r);
  g_assert_cmpuint (count_entries (ff.outdir), ==, 1);
  if (strstr (r.out, "\"backend\": \"cuda\"") == NULL)
    {
      g_assert_nonnull (strstr (r.out, "\"backend\": \"cpu\""));
      g_assert_true (g_str_has_prefix (r.err, "foldray-cli: "));
      g_assert_nonnull (strstr (r.err, "CPU"));
    }
  run_result_clear (&r);

  /* In double precision, which CUDA's kernels do not compute in: a build
   * with CUDA refuses the request, as bad usage (exit 2, not 1, the GPU's
   * failure), naming --backend; one without solves it on the CPU. */
  g_unlink (g_hash_table_lookup (ff.names, "@OUT"));
  r = run_cli ("spr", "--velocity", g_hash_table_lookup (ff.names, "@V"), "--spacing", "0.5",
               "--source", "10,5", "--radius", "3", "--backend", "cuda", "--precision", "double",
               "--out", g_hash_table_lookup (ff.names, "@OUT"), NULL);
  if (fr_cuda_built ())
    {
      assert_failure (&r, "foldray-cli", 2, "--backend");
      g_assert_nonnull (strstr (r.err, "single precision"));
      g_assert_cmpuint (count_entries (ff.outdir), ==, 0);
    }
  else
    {
      assert_success (&r);
      g_assert_nonnull (strstr (r.err, "CPU"));
      g_assert_cmpuint (count_entries (ff.outdir), ==, 1);
    }
  run_result_clear (&r);
  fail_files_clear (&ff);
}

static double npy_time_at (const char *path, size_t ix, size_t iz);

/* A radius beyond the grid is the same graph as the grid's own extent
 * (CONTRACT.md: edges that leave the grid are absent): along the source's
 * row, T is the distance over V0. */
static void
test_spr_radius_beyond_grid (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = write_velocity (dir, "v.npy", "<f4", 0, G_MAXSIZE);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  run_result r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5",
                          "--radius", "60,40", "--backend", "cpu", "--out", t, NULL);

  assert_success (&r);
  g_assert_cmpfloat_with_epsilon (npy_time_at (t, 40, 10), 20 * DX / V0, 1e-5);
  g_assert_cmpfloat_with_epsilon (npy_time_at (t, 0, 10), 20 * DX / V0, 1e-5);
  run_result_clear (&r);
  test_tmpdir_remove (dir);
}

static void
test_fold_help (void)
{
  run_result r = run_cli ("fold", "--help", NULL);

  /* Whether fold is built in or a stub, it follows the contract's exit
   * codes and its one-line failure. */
  if (r.status != 0)
    assert_failure (&r, "foldray-cli", r.status, NULL);
  run_result_clear (&r);
}

/* SIGINT, SIGTERM or SIGHUP while a long solve runs: it stops, exit 1, one line,
 * and neither output appears (the solving subcommands share this frame,
 * cli_run_solve).  The grid is far bigger than a CPU solves in the 0.3 s
 * before the signal, under sanitizers or not. */
static void
interrupt_fold (int sig)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *rays = g_build_filename (dir, "rays.csv", NULL);
  g_autofree char *rcv = g_build_filename (dir, "rcv.csv", NULL);
  const char *argv[] = { cli_path (), "fold", "--shape", "200,200,200", "--spacing", "0.01",
                         "--speed-const", "1", "--source", "1,1,1", "--backend", "cpu",
                         "--receivers", rcv, "--out", out, "--rays-out", rays, NULL };
  g_autoptr (GError) error = NULL;
  GPid pid;
  int err_fd = -1;

  g_assert_true (g_file_set_contents (rcv, "x,y,z\n0.5,0.5,0.5\n", -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &pid, NULL, NULL, &err_fd, &error));
  g_assert_no_error (error);
  g_usleep (300 * 1000);
  g_assert_cmpint (kill (pid, sig), ==, 0);
  run_result r = wait_spawned (pid, err_fd);
  assert_failure (&r, "foldray-cli", 1, "cancel");
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (rays, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (dir), ==, 1);      /* the receivers file alone */
  run_result_clear (&r);
  test_tmpdir_remove (dir);
}

static void
ignore_hup (gpointer data)
{
  (void) data;
  signal (SIGHUP, SIG_IGN);
}

/* Under nohup (SIGHUP ignored from the start) a hang-up changes nothing:
 * the solve runs to its end and writes T. */
static void
test_fold_nohup (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  const char *argv[] = { cli_path (), "fold", "--shape", "1200,1200", "--spacing", "1",
                         "--speed-const", "1", "--source", "0,0", "--backend", "cpu",
                         "--out", out, NULL };
  g_autoptr (GError) error = NULL;
  GPid pid;
  int wait_status = 0;

  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                ignore_hup, NULL, &pid, &error));
  g_assert_no_error (error);
  g_usleep (100 * 1000);
  g_assert_cmpint (kill (pid, SIGHUP), ==, 0);
  g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (wait_status));
  g_assert_cmpint (WEXITSTATUS (wait_status), ==, 0);
  g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
  test_tmpdir_remove (dir);
}

static void
test_fold_interrupted (void)
{
  interrupt_fold (SIGINT);
  interrupt_fold (SIGTERM);
  interrupt_fold (SIGHUP);
}

/* A temporary output beside T.npy (".T.npy.XXXXXX"), or NULL. */
static char *
staged_output (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  char *found = NULL;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (found == NULL && g_str_has_prefix (name, ".T.npy."))
      found = g_build_filename (dir, name, NULL);
  g_dir_close (d);
  return found;
}

/* SIGTERM after the solve, while --stats waits on a full stdout pipe and
 * T.npy is staged but not committed: the frame still removes the staged
 * file and exits 1 with its one line.  (It used to hand the signal back to
 * its default first, so the process died and left ".T.npy.XXXXXX".) */
static void
test_fold_interrupted_in_report (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *staged = NULL;
  const char *argv[] = { cli_path (), "fold", "--shape", "300,300", "--spacing", "1",
                         "--speed-const", "1", "--source", "5,5", "--backend", "cpu",
                         "--out", out, "--stats", NULL };
  g_autoptr (GError) error = NULL;
  char buf[4096];
  int fds[2], err_fd = -1;
  GPid pid;

  /* Fill the pipe, so that the report's write blocks. */
  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (fcntl (fds[1], F_SETFL, O_NONBLOCK), ==, 0);
  memset (buf, 'x', sizeof buf);
  while (write (fds[1], buf, sizeof buf) > 0)
    ;
  g_assert_cmpint (fcntl (fds[1], F_SETFL, 0), ==, 0);
  g_assert_true (g_spawn_async_with_pipes_and_fds (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                                   NULL, NULL, -1, fds[1], -1, NULL, NULL, 0,
                                                   &pid, NULL, NULL, &err_fd, &error));
  g_assert_no_error (error);
  close (fds[1]);

  /* The output is staged before the report: once it exists, the report
   * follows at once and blocks. */
  for (int i = 0; i < 600 && (staged = staged_output (dir)) == NULL; i++)
    g_usleep (50 * 1000);
  g_assert_nonnull (staged);
  g_usleep (500 * 1000);
  g_assert_cmpint (kill (pid, SIGTERM), ==, 0);
  while (read (fds[0], buf, sizeof buf) > 0)
    ;
  close (fds[0]);
  run_result r = wait_spawned (pid, err_fd);
  assert_failure (&r, "foldray-cli", 1, "interrupted");
  g_assert_false (g_file_test (staged, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (dir), ==, 0);
  run_result_clear (&r);
  test_tmpdir_remove (dir);
}

/* ---- where the outputs go ------------------------------------------------ */

/* An spr run on v.npy of `dir` writing T to `out` (and rays when set). */
static run_result
run_spr_to (const char *dir, const char *out, const char *rays)
{
  g_autofree char *v = g_build_filename (dir, "v.npy", NULL);
  g_autofree char *rcv = g_build_filename (dir, "r.csv", NULL);

  if (rays == NULL)
    return run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius",
                    "3", "--out", out, NULL);
  return run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius",
                  "3", "--receivers", rcv, "--out", out, "--rays-out", rays, NULL);
}

/* T read back from a .npy that spr wrote (float32, NZ × NX), at node (ix, iz). */
static double
npy_time_at (const char *path, size_t ix, size_t iz)
{
  g_autofree char *bytes = NULL;
  gsize len = 0;
  guint16 hlen;
  float f;

  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  g_assert_cmpuint (len, >, 10);
  g_assert_cmpint (memcmp (bytes, "\x93NUMPY", 6), ==, 0);
  hlen = (guint16) ((guint8) bytes[8] | ((guint8) bytes[9] << 8));
  g_assert_cmpuint (len, ==, 10 + hlen + 4 * (gsize) NX * NZ);
  memcpy (&f, bytes + 10 + hlen + 4 * (iz * NX + ix), 4);
  return f;
}

/* Outputs are plain files, written whole or not at all, whatever the name
 * names: a pipe or a device is refused before the solve and left as it is
 * (renaming over it would destroy it: as root, /dev/null); a symbolic link
 * keeps pointing at its file, which gets the new T; two spellings of one
 * file are one file; a name of NAME_MAX bytes works. */
static void
test_output_targets (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = write_velocity (dir, "v.npy", "<f4", 0, G_MAXSIZE);
  g_autofree char *rcv = write_text (dir, "r.csv", "x,z\n18,5\n");
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *target = g_build_filename (dir, "target.npy", NULL);
  g_autofree char *link = g_build_filename (dir, "link.npy", NULL);
  g_autofree char *dangling = g_build_filename (dir, "dangling.npy", NULL);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *t_again = g_build_filename (dir, ".", "T.npy", NULL);
  g_autofree char *long_name = g_strnfill (255 - 4, 'a');
  g_autofree char *long_npy = g_strconcat (long_name, ".npy", NULL);
  g_autofree char *long_path = g_build_filename (dir, long_npy, NULL);
  struct stat st;
  run_result r;
  guint before;

  g_assert_true (g_file_test (v, G_FILE_TEST_IS_REGULAR));     /* run_spr_to's inputs */
  g_assert_true (g_file_test (rcv, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink ("target.npy", link), ==, 0);
  before = count_entries (dir);

  r = run_spr_to (dir, fifo, NULL);
  assert_failure (&r, "foldray-cli", 2, "--out");
  g_assert_cmpint (lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  g_assert_cmpuint (count_entries (dir), ==, before);
  run_result_clear (&r);

  r = run_spr_to (dir, t, fifo);
  assert_failure (&r, "foldray-cli", 2, "--rays-out");
  g_assert_cmpuint (count_entries (dir), ==, before);
  run_result_clear (&r);

  /* T = distance / speed along the row of the source (V0 everywhere). */
  r = run_spr_to (dir, link, NULL);
  assert_success (&r);
  g_assert_cmpint (lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_cmpfloat_with_epsilon (npy_time_at (target, 30, 10), 10 * DX / V0, 1e-6);
  g_assert_cmpuint (count_entries (dir), ==, before);
  run_result_clear (&r);

  /* A link to nothing: refused by the output checks, before the solve,
   * and the link stays as it was. */
  g_assert_cmpint (symlink ("no-such-folder/T.npy", dangling), ==, 0);
  r = run_spr_to (dir, dangling, NULL);
  assert_failure (&r, "foldray-cli", 1, "--out");
  g_assert_nonnull (strstr (r.err, "a symbolic link whose target cannot be reached"));
  g_assert_cmpint (lstat (dangling, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_cmpuint (count_entries (dir), ==, before + 1);
  g_assert_cmpint (unlink (dangling), ==, 0);
  run_result_clear (&r);

  r = run_spr_to (dir, t, t_again);
  assert_failure (&r, "foldray-cli", 2, "--rays-out");
  g_assert_false (g_file_test (t, G_FILE_TEST_EXISTS));
  run_result_clear (&r);

  r = run_spr_to (dir, long_path, NULL);
  assert_success (&r);
  g_assert_cmpfloat_with_epsilon (npy_time_at (long_path, 20, 10), 0.0, 1e-9);
  g_assert_cmpuint (count_entries (dir), ==, before + 1);
  run_result_clear (&r);
  test_tmpdir_remove (dir);
}

static void
limit_file_size (gpointer data)
{
  struct rlimit rl = { 2048, 2048 };   /* bytes: less than T.npy (41 x 31 floats) */

  (void) data;
  setrlimit (RLIMIT_FSIZE, &rl);
}

static void
stdout_closed (gpointer data)
{
  (void) data;
  close (1);
}

static void
stdout_to_dev_full (gpointer data)
{
  int fd = open ("/dev/full", O_WRONLY);

  (void) data;
  if (fd >= 0)
    dup2 (fd, 1);
}

/* A write that the system refuses is a failure (exit 1, one line) that
 * leaves nothing behind, also where it would raise a signal: a file size
 * limit (SIGXFSZ), and stdout (--stats) on a full device or closed: the
 * stats are part of the output, so T is not kept either (and a closed
 * stdout must not hand its descriptor to T, where printf would write). */
static void
test_output_write_refused (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = write_velocity (dir, "v.npy", "<f4", 0, G_MAXSIZE);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  /* On the CPU: a build with CUDA and no device would add its note. */
  const char *argv[] = { cli_path (), "spr", "--velocity", v, "--spacing", "0.5", "--source",
                         "10,5", "--radius", "3", "--backend", "cpu", "--out", t, "--stats",
                         NULL };
  GSpawnChildSetupFunc setups[] = { limit_file_size, stdout_to_dev_full, stdout_closed };

  for (size_t k = 0; k < G_N_ELEMENTS (setups); k++)
    {
      run_result r = { 0 };
      g_autoptr (GError) error = NULL;
      int wait_status = 0;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                                   k > 0 ? G_SPAWN_STDOUT_TO_DEV_NULL : 0, setups[k], NULL,
                                   k > 0 ? NULL : &r.out, &r.err, &wait_status, &error));
      g_assert_no_error (error);
      r.status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status)
                                         : 128 + WTERMSIG (wait_status);
      assert_failure (&r, "foldray-cli", 1, k == 0 ? "T.npy" : "output");
      g_assert_cmpuint (count_entries (dir), ==, 1);     /* v.npy alone */
      run_result_clear (&r);
    }
  test_tmpdir_remove (dir);
}

static void
limit_file_size_1k (gpointer data)
{
  struct rlimit rl = { 1024, 1024 };   /* more than T.npy (11 x 11), less than the rays */

  (void) data;
  setrlimit (RLIMIT_FSIZE, &rl);
}

/* When the rays or the times cannot be written at the end (here a file
 * size limit that T fits under and they do not, so that the failure comes
 * as they are committed, after T), the run fails and the files are as they
 * were: the T of an earlier run comes back, the old rays or times stay, no
 * spare name is left; and without an earlier T, the new one is removed. */
static void
test_output_rays_refused_keeps_old (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = g_build_filename (dir, "v.npy", NULL);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *rays = g_build_filename (dir, "rays.csv", NULL);
  g_autofree char *times = g_build_filename (dir, "times.csv", NULL);
  g_autoptr (GString) receivers = g_string_new ("x,z\n");
  g_autoptr (GString) every_node = g_string_new ("x,z\n");
  g_autofree char *rc = NULL, *rc_every = NULL;
  size_t shape[2] = { 11, 11 };
  double vel[121];
  const char *argv[] = { cli_path (), "spr", "--velocity", v, "--spacing", "0.5", "--source", "0,0",
                         "--radius", "3", "--backend", "cpu", "--out", t, "--receivers", NULL,
                         "--rays-out", rays, NULL };

  for (int i = 0; i < 121; i++)
    vel[i] = V0;
  write_npy (v, "<f4", 2, shape, vel);
  /* Rays to 22 receivers are over the limit; times need every node's.
   * Both stay under stdio's buffer, so that the writes fail as the files
   * are flushed.  (A write that fails before, as the buffer fills, passes
   * too, but LeakSanitizer's tracer then crashes at the exit of the
   * sanitizer build, the build before this test's change as well.) */
  for (int i = 0; i <= 10; i++)
    g_string_append_printf (receivers, "5,%g\n%g,5\n", 0.5 * i, 0.5 * i);
  for (int i = 0; i < 121; i++)
    g_string_append_printf (every_node, "%g,%g\n", 0.5 * (i % 11), 0.5 * (i / 11));
  rc = write_text (dir, "r.csv", receivers->str);
  rc_every = write_text (dir, "every-node.csv", every_node->str);
  /* The rays, then the times; each first over the files of an earlier run. */
  for (int c = 0; c < 4; c++)
    {
      const bool is_times = c >= 2, earlier = c % 2 == 0;
      const char *out = is_times ? times : rays;
      run_result r = { 0 };
      g_autoptr (GError) error = NULL;
      g_autofree char *t_after = NULL, *rays_after = NULL;
      GStatBuf t_before = { 0 };
      int wait_status = 0;

      argv[15] = is_times ? rc_every : rc;
      argv[16] = is_times ? "--times-out" : "--rays-out";
      argv[17] = out;
      if (earlier)
        {
          g_assert_true (g_file_set_contents (t, "the T of an earlier run", -1, NULL));
          g_assert_true (g_file_set_contents (out, "the rays of an earlier run", -1, NULL));
          g_assert_cmpint (g_stat (t, &t_before), ==, 0);
        }
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, 0, limit_file_size_1k, NULL,
                                   &r.out, &r.err, &wait_status, &error));
      g_assert_no_error (error);
      r.status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status)
                                         : 128 + WTERMSIG (wait_status);
      /* Written in full only as it was committed, which failed before T
       * was put in place: T was never touched, so that no file system
       * need give the old one a second name to bring it back (vfat has
       * none: the old T was lost with the new). */
      assert_failure (&r, "foldray-cli", 1, is_times ? "times.csv: cannot write"
                                                     : "rays.csv: cannot write");
      if (earlier)
        {
          GStatBuf after;

          g_assert_cmpint (g_stat (t, &after), ==, 0);
          g_assert_cmpuint (after.st_ino, ==, t_before.st_ino);
          g_assert_cmpuint (after.st_nlink, ==, 1);
          g_assert_cmpint (after.st_ctim.tv_sec, ==, t_before.st_ctim.tv_sec);
          g_assert_cmpint (after.st_ctim.tv_nsec, ==, t_before.st_ctim.tv_nsec);
          g_assert_true (g_file_get_contents (t, &t_after, NULL, NULL));
          g_assert_cmpstr (t_after, ==, "the T of an earlier run");
          g_assert_true (g_file_get_contents (out, &rays_after, NULL, NULL));
          g_assert_cmpstr (rays_after, ==, "the rays of an earlier run");
          g_assert_cmpuint (count_entries (dir), ==, 5);   /* v, both r, T, rays or times */
          g_assert_cmpint (g_unlink (t), ==, 0);
          g_assert_cmpint (g_unlink (out), ==, 0);
        }
      else
        g_assert_cmpuint (count_entries (dir), ==, 3);     /* v, both r */
      run_result_clear (&r);
    }
  test_tmpdir_remove (dir);
}

/* Outputs named through symbolic links, refused as they are committed
 * (the file size limit that T fits under and the rays do not, and the
 * picture does not): the one line names each file as the user gave it,
 * once, and not the link's target, which had been named instead (by
 * foldray-cli) or beside it ("pic-link.png: DIR/real/pic.png: cannot
 * write", foldray-picture).  The targets keep their bytes, the links stay
 * links, and no temporary file is left in either folder. */
static void
test_output_link_named (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *real = g_build_filename (dir, "real", NULL);
  g_autofree char *v = g_build_filename (dir, "v.npy", NULL);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *rays_link = g_build_filename (dir, "rays-link.csv", NULL);
  g_autofree char *rays_real = g_build_filename (real, "rays.csv", NULL);
  g_autofree char *pic_link = g_build_filename (dir, "pic-link.png", NULL);
  g_autofree char *pic_real = g_build_filename (real, "pic.png", NULL);
  g_autoptr (GString) receivers = g_string_new ("x,z\n");
  g_autofree char *rc = NULL;
  g_autofree char *pic = picture_path ();
  size_t shape[2] = { 11, 11 };
  double vel[121];

  for (int i = 0; i < 121; i++)
    vel[i] = V0;
  write_npy (v, "<f4", 2, shape, vel);
  for (int i = 0; i <= 10; i++)
    g_string_append_printf (receivers, "5,%g\n%g,5\n", 0.5 * i, 0.5 * i);
  rc = write_text (dir, "r.csv", receivers->str);
  g_assert_cmpint (g_mkdir (real, 0755), ==, 0);
  g_assert_true (g_file_set_contents (rays_real, "old rays", -1, NULL));
  g_assert_true (g_file_set_contents (pic_real, "old picture", -1, NULL));
  g_assert_cmpint (symlink (rays_real, rays_link), ==, 0);
  g_assert_cmpint (symlink (pic_real, pic_link), ==, 0);
  {
    run_result r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "0,0",
                            "--radius", "3", "--backend", "cpu", "--out", t, NULL);
    assert_success (&r);
    run_result_clear (&r);
  }
  {
    const char *spr[] = { cli_path (), "spr", "--velocity", v, "--spacing", "0.5", "--source",
                          "0,0", "--radius", "3", "--backend", "cpu", "--out", t, "--receivers",
                          rc, "--rays-out", rays_link, NULL };
    const char *picture[] = { pic, "--velocity", v, "--time", t, "--spacing", "0.5", "--scale",
                              "8", "--out", pic_link, NULL };
    const struct { const char *const *argv; const char *program, *link, *real, *old; } cases[] = {
      { spr, "foldray-cli", rays_link, rays_real, "old rays" },
      { picture, "foldray-picture", pic_link, pic_real, "old picture" },
    };

    for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        run_result r = { 0 };
        g_autoptr (GError) error = NULL;
        g_autofree char *after = NULL;
        const char *p;
        int wait_status = 0, named = 0;

        g_assert_true (g_spawn_sync (NULL, (char **) cases[c].argv, NULL, 0, limit_file_size_1k,
                                     NULL, &r.out, &r.err, &wait_status, &error));
        g_assert_no_error (error);
        r.status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status)
                                           : 128 + WTERMSIG (wait_status);
        assert_failure (&r, cases[c].program, 1, cases[c].link);
        for (p = strstr (r.err, cases[c].link); p != NULL; p = strstr (p + 1, cases[c].link))
          named++;
        g_assert_cmpint (named, ==, 1);
        g_assert_null (strstr (r.err, cases[c].real));
        g_assert_nonnull (strstr (r.err, g_strerror (EFBIG)));
        g_assert_true (g_file_test (cases[c].link, G_FILE_TEST_IS_SYMLINK));
        g_assert_true (g_file_get_contents (cases[c].real, &after, NULL, NULL));
        g_assert_cmpstr (after, ==, cases[c].old);
        g_assert_cmpuint (count_entries (real), ==, 2);
        g_assert_cmpuint (count_entries (dir), ==, 6);   /* v, r, T, real, 2 links */
        run_result_clear (&r);
      }
  }
  test_tmpdir_remove (dir);
}

/* ---- foldray-picture ----------------------------------------------------- */

static const guint8 *
pixel (const guint8 *rgb, guint w, guint x, guint y)
{
  return rgb + 3 * ((gsize) y * w + x);
}

static void
test_picture (void)
{
  g_autofree char *py = find_python ();
  if (py == NULL)
    return;
  g_autofree char *pic = picture_path ();
  g_autofree char *dir = make_tmp ();
  /* An obstacle at node (5, 25): never reached, so grey. */
  g_autofree char *v = write_velocity (dir, "v.npy", "<f4", 0, 25 * NX + 5);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *rc = write_text (dir, "r.csv", "x,z\n18,5\n");
  g_autofree char *rays = g_build_filename (dir, "rays.csv", NULL);
  g_autofree char *png = g_build_filename (dir, "pic.png", NULL);
  g_autofree char *raw_path = g_build_filename (dir, "pic.rgb", NULL);
  g_autofree char *raw = NULL;
  gsize raw_len;
  guint w, h, dark = 0;
  run_result r;

  r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "5",
               "--receivers", rc, "--rays-out", rays, "--out", t, NULL);
  assert_success (&r);
  run_result_clear (&r);

  {
    const char *argv[] = { pic, "--velocity", v, "--time", t, "--spacing", "0.5", "--rays", rays,
                           "--isochron-interval", "1", "--scale", "4", "--out", png, NULL };
    r = run_argv (argv);
    assert_success (&r);
    g_assert_cmpstr (r.out, ==, "");
    run_result_clear (&r);
  }
  {
    const char *argv[] = { py, "-c", png_reader_py, png, raw_path, NULL };
    r = run_argv (argv);
    if (r.status != 0)
      g_test_message ("png reader: %s", r.err);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpint (sscanf (r.out, "%u %u", &w, &h), ==, 2);
    run_result_clear (&r);
  }
  g_assert_cmpuint (w, ==, NX * 4);
  g_assert_cmpuint (h, ==, NZ * 4);
  g_assert_true (g_file_get_contents (raw_path, &raw, &raw_len, NULL));
  g_assert_cmpuint (raw_len, ==, (gsize) w * h * 3);
  const guint8 *rgb = (const guint8 *) raw;

  /* Node (i, k) is centred on pixel (4i + 1.5, 4k + 1.5).  The ray runs
   * along row k = 10 from i = 20 to 36: white there. */
  for (guint x = 90; x <= 140; x += 10)
    {
      const guint8 *a = pixel (rgb, w, x, 41), *b = pixel (rgb, w, x, 42);
      g_assert_cmpuint (MAX (MIN (MIN (a[0], a[1]), a[2]), MIN (MIN (b[0], b[1]), b[2])), >=, 230);
    }
  /* The T = 1 isochron crosses the column above the source 2 units (16
   * pixels) up, the T = 2 one 32 pixels down: clearly darker pixels there
   * (the background's green is 145; a line between two pixel centres
   * darkens both by about half). */
  for (guint y = 23; y <= 28; y++)
    dark += pixel (rgb, w, 81, y)[1] < 100;
  g_assert_cmpuint (dark, >=, 2);
  dark = 0;
  for (guint y = 71; y <= 76; y++)
    dark += pixel (rgb, w, 81, y)[1] < 100;
  g_assert_cmpuint (dark, >=, 2);
  /* Between isochrons (T = 1.5): the velocity's colour, viridis' middle. */
  g_assert_cmpuint (pixel (rgb, w, 81, 65)[1], >, 120);
  g_assert_cmpuint (pixel (rgb, w, 81, 65)[0], <, 60);
  /* The obstacle node is grey. */
  g_assert_cmpuint (pixel (rgb, w, 21, 101)[0], ==, 128);
  g_assert_cmpuint (pixel (rgb, w, 21, 101)[1], ==, 128);
  g_assert_cmpuint (pixel (rgb, w, 21, 101)[2], ==, 128);

  /* A failure writes nothing. */
  {
    g_autofree char *png2 = g_build_filename (dir, "pic2.png", NULL);
    const char *argv[] = { pic, "--velocity", v, "--time", rc, "--out", png2, NULL };
    r = run_argv (argv);
    assert_failure (&r, "foldray-picture", 2, "r.csv");
    g_assert_false (g_file_test (png2, G_FILE_TEST_EXISTS));
    run_result_clear (&r);
  }
  {
    g_autofree char *png2 = g_build_filename (dir, "pic2.png", NULL);
    const char *argv[] = { pic, "--velocity", v, "--time", t, "--rays", rays, "--out", png2, NULL };
    r = run_argv (argv);
    assert_failure (&r, "foldray-picture", 2, "--spacing");
    g_assert_false (g_file_test (png2, G_FILE_TEST_EXISTS));
    run_result_clear (&r);
  }
  test_tmpdir_remove (dir);
}

/* --out naming one of the picture's inputs (itself, through a symbolic
 * link, or through "dir/..") is refused before anything is written: a
 * slip of `--out T.npy` for `--out T.png` had replaced the traveltimes
 * with a PNG and exited 0, where foldray-cli refuses the same slip. */
static void
test_picture_out_names_input (void)
{
  g_autofree char *pic = picture_path ();
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = write_velocity (dir, "v.npy", "<f4", 0, 0);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *rc = write_text (dir, "r.csv", "x,z\n18,5\n");
  g_autofree char *rays = g_build_filename (dir, "rays.csv", NULL);
  g_autofree char *link = g_build_filename (dir, "T-link.npy", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *dotdot = g_build_filename (dir, "sub", "..", "rays.csv", NULL);
  run_result r;

  r = run_cli ("spr", "--velocity", v, "--spacing", "0.5", "--source", "10,5", "--radius", "3",
               "--receivers", rc, "--rays-out", rays, "--out", t, NULL);
  assert_success (&r);
  run_result_clear (&r);
  g_assert_cmpint (symlink (t, link), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  {
    const struct { const char *out, *names, *input; } cases[] = {
      { t, "is the input given by --time", t },
      { v, "is the input given by --velocity", v },
      { link, "is the input given by --time", t },
      { dotdot, "is the input given by --rays", rays },
    };

    for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        const char *argv[] = { pic, "--velocity", v, "--time", t, "--spacing", "0.5",
                               "--rays", rays, "--out", cases[c].out, NULL };
        g_autofree char *before = NULL, *after = NULL;
        gsize before_len, after_len;

        g_test_message ("--out %s", cases[c].out);
        g_assert_true (g_file_get_contents (cases[c].input, &before, &before_len, NULL));
        r = run_argv (argv);
        assert_failure (&r, "foldray-picture", 2, cases[c].names);
        g_assert_nonnull (strstr (r.err, "would destroy it"));
        g_assert_true (g_file_get_contents (cases[c].input, &after, &after_len, NULL));
        g_assert_true (after_len == before_len && memcmp (after, before, after_len) == 0);
        g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
        run_result_clear (&r);
      }
  }
  /* A picture beside its inputs is fine. */
  {
    g_autofree char *png = g_build_filename (dir, "T.png", NULL);
    const char *argv[] = { pic, "--velocity", v, "--time", link, "--spacing", "0.5",
                           "--rays", rays, "--out", png, NULL };

    r = run_argv (argv);
    assert_success (&r);
    run_result_clear (&r);
  }
  test_tmpdir_remove (dir);
}

/* ---- the CSV formats (fr-csv) -------------------------------------------- */

static void
test_csv_parse (void)
{
  static const char ok[] = "\xEF\xBB\xBFx , z\r\n1.5,2\r\n -3e-1 ,+4\r\n\r\n  \n";
  static const struct { const char *text; const char *msg; } bad[] = {
    { "", "line 1: expected the header" },
    { "x,y\n1,2\n", "line 1: expected the header" },
    { "x,z\n1,2\n3\n", "line 3: expected 2 numbers" },
    { "x,z\n1,2\n3,4,5\n", "line 3: expected 2 numbers" },
    { "x,z\n1,abc\n", "line 2: expected 2 numbers" },
    { "x,z\n1,nan\n", "line 2: expected 2 numbers" },
    { "x,z\n1,inf\n", "line 2: expected 2 numbers" },
    { "x,z\n1,0x10\n", "line 2: expected 2 numbers" },
    { "x,z\n1,\n", "line 2: expected 2 numbers" },
    { "x,z\n1,2\n\n3,4\n", "line 3: blank line" },
    { "x,z\n1,2\r3,4\n", "line 2: " },
  };
  fr_points p = { 0 };
  fr_error err = { 0 };

  g_assert_cmpint (fr_csv_parse_points ("R.csv", ok, strlen (ok), &p, &err), ==, FR_OK);
  g_assert_cmpint (p.ndim, ==, 2);
  g_assert_cmpuint (p.count, ==, 2);
  g_assert_cmpfloat (p.xyz[0], ==, 1.5);
  g_assert_cmpfloat (p.xyz[2], ==, -0.3);
  g_assert_cmpfloat (p.xyz[3], ==, 4);
  fr_points_clear (&p);

  g_assert_cmpint (fr_csv_parse_points ("R.csv", "x,y,z\n1,2,3", 11, &p, &err), ==, FR_OK);
  g_assert_cmpint (p.ndim, ==, 3);
  g_assert_cmpuint (p.count, ==, 1);
  fr_points_clear (&p);

  /* A header alone is an empty list, not an error. */
  g_assert_cmpint (fr_csv_parse_points ("R.csv", "x,z\n", 4, &p, &err), ==, FR_OK);
  g_assert_cmpuint (p.count, ==, 0);
  fr_points_clear (&p);

  /* One field is one field ("found 1 fields" it said). */
  g_assert_cmpint (fr_csv_parse_points ("R.csv", "x,z\n1,2\n3\n", 10, &p, &err), ==, FR_E_INPUT);
  g_assert_cmpstr (err.message, ==, "R.csv: line 3: expected 2 numbers, found 1 field");

  for (size_t i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_cmpint (fr_csv_parse_points ("R.csv", bad[i].text, strlen (bad[i].text), &p, &err),
                       ==, FR_E_INPUT);
      if (strstr (err.message, bad[i].msg) == NULL)
        g_test_message ("case %zu: %s", i, err.message);
      g_assert_true (g_str_has_prefix (err.message, "R.csv: "));
      g_assert_nonnull (strstr (err.message, bad[i].msg));
      g_assert_null (p.xyz);
    }

  /* A quoted field is UTF-8 whatever the file holds, for the app's dialog:
   * cut at 40 bytes it was cut inside "é" (39 a's, then c3 a9), and a
   * Latin-1 byte went through as it was. */
  {
    static const struct { const char *text; const char *msg; } quoted[] = {
      { "x,z\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9,1\n",
        "R.csv: line 2: expected 2 numbers, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' is not a finite number" },
      { "x,z\n1,2\xb5m\n", "R.csv: line 2: expected 2 numbers, '2?m' is not a finite number" },
      { "x,z\n1,\xc3\xa9\n", "R.csv: line 2: expected 2 numbers, '\xc3\xa9' is not a finite number" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS (quoted); i++)
      {
        g_assert_cmpint (fr_csv_parse_points ("R.csv", quoted[i].text, strlen (quoted[i].text), &p,
                                              &err), ==, FR_E_INPUT);
        g_assert_true (g_utf8_validate (err.message, -1, NULL));
        g_assert_cmpstr (err.message, ==, quoted[i].msg);
      }
  }

  /* A line past the limit is refused, not truncated. */
  {
    GString *s = g_string_new ("x,z\n1,");
    for (int i = 0; i < FR_CSV_MAX_LINE; i++)
      g_string_append_c (s, '0');
    g_string_append (s, "\n");
    g_assert_cmpint (fr_csv_parse_points ("R.csv", s->str, s->len, &p, &err), ==, FR_E_INPUT);
    g_assert_nonnull (strstr (err.message, "line 2: longer than"));
    g_string_free (s, TRUE);
  }
}

/* Rays written and read back to 15 digits, whatever the process locale. */
static void
test_csv_rays_roundtrip (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *path = g_build_filename (dir, "rays.csv", NULL);
  const double a[] = { 0.1, 0.2, 1.0 / 3.0, 1e-17, -123456.789, 140 * 0.01 };
  const double b[] = { 7, 8 };
  const fr_csv_ray rays[] = { { 0, 3, a }, { 4, 1, b } };
  fr_points p = { 0 };
  size_t *rec = NULL;
  fr_error err = { 0 };
  g_autofree char *text = NULL;

  /* A decimal-comma locale, where the GUI may run us.  Without one the
   * rest is still checked, but the test says it was skipped: setting
   * de_DE.UTF-8 where it was not installed failed without a word, and the
   * test passed in the C locale. */
  const char *comma = test_comma_locale (dir);
  g_assert_cmpint (fr_csv_write_rays (path, 2, rays, 2, &err), ==, FR_OK);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "receiver,x,z\n0,0.1,0.2\n"));
  g_assert_nonnull (strstr (text, ",1.4\n"));
  g_assert_cmpint (fr_csv_read_rays (path, &p, &rec, &err), ==, FR_OK);
  setlocale (LC_NUMERIC, "C");
  if (comma == NULL)
    g_test_skip ("no locale with a decimal comma (install Debian's \"locales\")");
  g_assert_cmpuint (p.count, ==, 4);
  for (int i = 0; i < 3; i++)
    {
      g_assert_cmpuint (rec[i], ==, 0);
      g_assert_cmpfloat_with_epsilon (p.xyz[2 * i], a[2 * i], 1e-14 * fabs (a[2 * i]));
      g_assert_cmpfloat_with_epsilon (p.xyz[2 * i + 1], a[2 * i + 1], 1e-14 * fabs (a[2 * i + 1]));
    }
  g_assert_cmpuint (rec[3], ==, 4);
  g_assert_cmpfloat (p.xyz[6], ==, 7);
  fr_points_clear (&p);
  g_free (rec);
  test_tmpdir_remove (dir);
}

/* A times file: each time with the fewest digits that read back to it in
 * its precision (0.1 in double, not 0.10000000000000001; in single the
 * float32 the T.npy would hold), inf for an unreached receiver, negative
 * times (a fold's boundary values) as they are, the points as given, in a
 * decimal-comma locale too; NaN is refused and leaves no file. */
static void
test_csv_times (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *path = g_build_filename (dir, "times.csv", NULL);
  double xz[] = { 0.1, 0.2, 10, 5, 1.0 / 3.0, 1e-17, 4, 4 };
  double xyz[] = { 1, 2, 3 };
  const fr_points p2 = { 2, 4, xz }, p3 = { 3, 1, xyz };
  const double t[] = { 0.1, 1.0 / 3.0, INFINITY, -2.5 };
  const char *comma = test_comma_locale (dir);
  fr_error err = { 0 };

  for (int single = 0; single <= 1; single++)
    {
      g_autofree char *text = NULL;
      g_autoptr (GArray) rows = NULL;

      g_assert_cmpint (fr_csv_write_times (path, &p2, t, single, &err), ==, FR_OK);
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      g_assert_cmpstr (text, ==, single ? "receiver,x,z,t\n0,0.1,0.2,0.1\n1,10,5,0.33333334\n"
                                          "2,0.333333333333333,1e-17,inf\n3,4,4,-2.5\n"
                                        : "receiver,x,z,t\n0,0.1,0.2,0.1\n1,10,5,0.3333333333333333\n"
                                          "2,0.333333333333333,1e-17,inf\n3,4,4,-2.5\n");
      rows = test_read_times (path, 2);
      g_assert_cmpuint (rows->len, ==, 4);
      for (guint k = 0; k < 4; k++)
        {
          const test_time_row *r = &g_array_index (rows, test_time_row, k);

          /* Read back in its precision, the very value. */
          if (single)
            g_assert_cmpfloat ((float) r->t, ==, (float) t[k]);
          else
            g_assert_cmpfloat (r->t, ==, t[k]);
        }
    }
  g_assert_cmpint (fr_csv_write_times (path, &p3, t, false, &err), ==, FR_OK);
  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, "receiver,x,y,z,t\n0,1,2,3,0.1\n");
  }
  g_assert_cmpint (g_unlink (path), ==, 0);
  {
    const double bad[] = { 0.1, NAN, 1, 1 };

    g_assert_cmpint (fr_csv_write_times (path, &p2, bad, false, &err), ==, FR_E_INPUT);
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  }
  setlocale (LC_NUMERIC, "C");
  if (comma == NULL)
    g_test_skip ("no locale with a decimal comma (install Debian's \"locales\")");
  test_tmpdir_remove (dir);
}

/* A receivers file written is read back as the same points, in a
 * decimal-comma locale too, 2D and 3D; a point that is not finite, or a
 * dimension other than 2 or 3, is refused and leaves no file. */
static void
test_csv_points_roundtrip (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *path2 = g_build_filename (dir, "R.csv", NULL);
  g_autofree char *path3 = g_build_filename (dir, "R3.csv", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.csv", NULL);
  double xz[] = { 0.1, 0.2, 1.0 / 3.0, -1e-17, -123456.789, 140 * 0.01 };
  double xyz[] = { 1, 2, 3, 0.5, 0.25, 4e6 };
  const fr_points p2 = { 2, 3, xz }, p3 = { 3, 2, xyz };
  fr_points back = { 0 };
  fr_error err = { 0 };
  g_autofree char *text = NULL;

  /* Written in a decimal-comma locale, as in /csv/rays-roundtrip. */
  const char *comma = test_comma_locale (dir);
  g_assert_cmpint (fr_csv_write_points (path2, &p2, &err), ==, FR_OK);
  g_assert_cmpint (fr_csv_write_points (path3, &p3, &err), ==, FR_OK);
  setlocale (LC_NUMERIC, "C");
  if (comma == NULL)
    g_test_skip ("no locale with a decimal comma (install Debian's \"locales\")");
  g_assert_true (g_file_get_contents (path2, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "x,z\n0.1,0.2\n0.333333333333333,-1e-17\n-123456.789,1.4\n");

  g_assert_cmpint (fr_csv_read_points (path2, &back, &err), ==, FR_OK);
  g_assert_cmpint (back.ndim, ==, 2);
  g_assert_cmpuint (back.count, ==, 3);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat_with_epsilon (back.xyz[i], xz[i], 1e-14 * fabs (xz[i]));
  fr_points_clear (&back);
  g_assert_cmpint (fr_csv_read_points (path3, &back, &err), ==, FR_OK);
  g_assert_cmpint (back.ndim, ==, 3);
  g_assert_cmpuint (back.count, ==, 2);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat (back.xyz[i], ==, xyz[i]);
  fr_points_clear (&back);

  xz[3] = NAN;
  g_assert_cmpint (fr_csv_write_points (bad, &p2, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "point 2 is not finite"));
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  g_assert_cmpint (fr_csv_write_points (bad, &(fr_points) { 4, 1, xyz }, &err), ==, FR_E_INPUT);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  test_tmpdir_remove (dir);
}

/* A temporary file beside pic.png (".pic.png.XXXXXX"), or NULL. */
static char *
staged_picture (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  char *found = NULL;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (found == NULL && g_str_has_prefix (name, ".pic.png."))
      found = g_build_filename (dir, name, NULL);
  g_dir_close (d);
  return found;
}

/* SIGINT, SIGTERM or SIGHUP while foldray-picture writes a 4000 × 4000
 * PNG over an older one: exit 1 "interrupted", the old file as it was, and
 * no temporary file (it used to die of the signal and leave a torn
 * ".pic.png.XXXXXX" of megabytes beside it). */
static void
interrupt_picture (const char *dir, const char *v, const char *t, int sig)
{
  g_autofree char *pic = picture_path ();
  g_autofree char *png = write_text (dir, "pic.png", "the old picture");
  const char *argv[] = { pic, "--velocity", v, "--time", t, "--spacing", "1", "--scale", "2",
                         "--out", png, NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *staged = NULL;
  g_autofree char *after = NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  GPid pid;
  int err_fd = -1;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &pid, NULL, NULL, &err_fd, &error));
  g_assert_no_error (error);
  while ((staged = staged_picture (dir)) == NULL && g_get_monotonic_time () < deadline)
    g_usleep (200);
  g_assert_nonnull (staged);
  g_assert_cmpint (kill (pid, sig), ==, 0);
  run_result r = wait_spawned (pid, err_fd);
  g_assert_true (g_file_get_contents (png, &after, NULL, NULL));
  if (r.status == 0)
    /* The signal came after the commit: the new picture, whole. */
    g_test_message ("signal %d: the picture was committed before it", sig);
  else
    {
      assert_failure (&r, "foldray-picture", 1, "interrupted");
      g_assert_cmpstr (after, ==, "the old picture");
    }
  g_assert_cmpuint (count_entries (dir), ==, 3);   /* v.npy, T.npy, pic.png */
  run_result_clear (&r);
}

static void
test_picture_interrupted (void)
{
  enum { SIDE = 2000 };
  g_autofree char *dir = make_tmp ();
  g_autofree char *v = g_build_filename (dir, "v.npy", NULL);
  g_autofree char *t = g_build_filename (dir, "T.npy", NULL);
  g_autofree double *values = g_new (double, (gsize) SIDE * SIDE);
  const size_t shape[2] = { SIDE, SIDE };

  for (gsize i = 0; i < (gsize) SIDE * SIDE; i++)
    values[i] = 1.5;
  write_npy (v, "<f4", 2, shape, values);
  for (gsize i = 0; i < (gsize) SIDE * SIDE; i++)
    values[i] = hypot ((double) (i % SIDE), (double) (i / SIDE)) / 1.5;
  write_npy (t, "<f4", 2, shape, values);
  interrupt_picture (dir, v, t, SIGINT);
  interrupt_picture (dir, v, t, SIGTERM);
  interrupt_picture (dir, v, t, SIGHUP);
  test_tmpdir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/info", test_info);
  g_test_add_func ("/cli/usage", test_usage);
  g_test_add_func ("/cli/spr/constant", test_spr_constant);
  g_test_add_func ("/cli/spr/sources-origin-spacing", test_spr_sources_origin_spacing);
  g_test_add_func ("/cli/spr/stats", test_spr_stats);
  g_test_add_func ("/cli/spr/rays", test_spr_rays);
  g_test_add_func ("/cli/spr/unreached-receiver", test_spr_unreached_receiver);
  g_test_add_func ("/cli/spr/times", test_spr_times);
  g_test_add_func ("/cli/spr/times-reciprocal", test_spr_times_reciprocal);
  g_test_add_func ("/cli/spr/gather", test_spr_gather);
  g_test_add_func ("/cli/spr/failures", test_spr_failures);
  g_test_add_func ("/cli/spr/cuda-request", test_spr_cuda_request);
  g_test_add_func ("/cli/spr/radius-beyond-grid", test_spr_radius_beyond_grid);
  g_test_add_func ("/cli/fold/interrupted", test_fold_interrupted);
  g_test_add_func ("/cli/fold/nohup", test_fold_nohup);
  g_test_add_func ("/cli/fold/interrupted-in-report", test_fold_interrupted_in_report);
  g_test_add_func ("/cli/output/targets", test_output_targets);
  g_test_add_func ("/cli/output/names-input", test_output_names_input);
  g_test_add_func ("/cli/output/rays-refused-keeps-old", test_output_rays_refused_keeps_old);
  g_test_add_func ("/cli/output/write-refused", test_output_write_refused);
  g_test_add_func ("/cli/output/link-named", test_output_link_named);
  g_test_add_func ("/cli/fold-help", test_fold_help);
  g_test_add_func ("/cli/picture", test_picture);
  g_test_add_func ("/cli/picture/interrupted", test_picture_interrupted);
  g_test_add_func ("/cli/picture/out-names-input", test_picture_out_names_input);
  g_test_add_func ("/csv/parse", test_csv_parse);
  g_test_add_func ("/csv/rays-roundtrip", test_csv_rays_roundtrip);
  g_test_add_func ("/csv/points-roundtrip", test_csv_points_roundtrip);
  g_test_add_func ("/csv/times", test_csv_times);
  return g_test_run ();
}
