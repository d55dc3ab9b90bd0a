/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-common.h"

#include <errno.h>
#include <float.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fr-utf8-private.h"

/* The name that starts every message; foldray-picture shares this file. */
static const char *program_name = "foldray-cli";

void
cli_set_program (const char *name)
{
  program_name = name;
}

void
cli_write_utf8 (FILE *fp, const char *s, size_t n)
{
  const unsigned char *p = (const unsigned char *) s, *end = p + n;

  while (p < end)
    {
      const unsigned char *run = p;
      size_t len;

      while (p < end && (len = fr_utf8_char (p, end)) > 0)
        p += len;
      fwrite (run, 1, (size_t) (p - run), fp);
      if (p < end)
        {
          fputs ("\xEF\xBF\xBD", fp);
          p++;
        }
    }
}

/* Prints one line: a message is never allowed to break the contract's
 * "exactly one line" with an embedded newline or control character, nor
 * to hand the terminal bytes that are not UTF-8. */
static void vprint_line (const char *prefix, const char *fmt, va_list ap)
  __attribute__ ((format (printf, 2, 0)));

static void
vprint_line (const char *prefix, const char *fmt, va_list ap)
{
  char msg[1024];
  int full = vsnprintf (msg, sizeof msg, fmt, ap);
  size_t len = strlen (msg);

  for (char *p = msg; *p; p++)
    if ((unsigned char) *p < 0x20 || *p == 0x7f)
      *p = ' ';
  /* A message cut to the buffer ends before a character it cut into. */
  if (full >= (int) sizeof msg)
    {
      size_t start = len;

      while (start > 0 && len - start < 3 && ((unsigned char) msg[start - 1] & 0xC0) == 0x80)
        start--;
      if (start > 0 && (unsigned char) msg[start - 1] >= 0xC0 &&
          fr_utf8_char ((const unsigned char *) msg + start - 1, (const unsigned char *) msg + len) == 0)
        len = start - 1;
    }
  fprintf (stderr, "%s: %s", program_name, prefix);
  cli_write_utf8 (stderr, msg, len);
  fputc ('\n', stderr);
  fflush (stderr);
}

int
cli_fail (int status, const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vprint_line ("", fmt, ap);
  va_end (ap);
  return status;
}

void
cli_note (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vprint_line ("note: ", fmt, ap);
  va_end (ap);
}

void
cli_warn (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vprint_line ("warning: ", fmt, ap);
  va_end (ap);
}

int
cli_exit_code (fr_status status)
{
  if (status == FR_OK)
    return CLI_EXIT_OK;
  /* What a back end does not do (spr --backend cuda --precision double)
   * is the request's fault, as a bad value is: the user changes it. */
  return status == FR_E_INPUT || status == FR_E_UNSUPPORTED ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

int
cli_fail_error (const fr_error *err, const char *context)
{
  const char *msg = err->message[0] ? err->message : fr_status_name (err->code);
  int status = cli_exit_code (err->code);

  /* Never report success as a failure, whatever the caller passed. */
  if (status == CLI_EXIT_OK)
    status = CLI_EXIT_FAILURE;
  if (context == NULL || strstr (msg, context) != NULL)
    return cli_fail (status, "%s", msg);
  return cli_fail (status, "%s: %s", context, msg);
}

const char *
cli_grid_context (const fr_error *err, const char *fallback)
{
  /* A spacing too fine for coordinates that large: an origin far out
   * makes them so (from 0, no grid's own extent can). */
  if (strstr (err->message, "too fine for coordinates") != NULL)
    return "--spacing and --origin";
  if (strstr (err->message, "spacing") != NULL)
    return "--spacing";
  if (strstr (err->message, "origin") != NULL)
    return "--origin";
  return fallback;
}

int
cli_fail_time_range (const fr_error *err, const char *spacing, const char *speeds,
                     bool double_precision)
{
  bool small = strstr (err->message, "fall below") != NULL;

  return cli_fail (CLI_EXIT_USAGE, "--spacing %s and %s: %s: %srescale the units (a %s "
                   "--spacing or %s speeds give %s times)", spacing, speeds, err->message,
                   double_precision ? "" : "use --precision double, or ",
                   small ? "larger" : "smaller", small ? "smaller" : "larger",
                   small ? "larger" : "smaller");
}

static cli_option *
find_option (cli_option *opts, size_t nopts, const char *name, size_t len)
{
  for (size_t i = 0; i < nopts; i++)
    if (strlen (opts[i].name) == len && strncmp (opts[i].name, name, len) == 0)
      return &opts[i];
  return NULL;
}

int
cli_parse_options (int argc, char **argv, int first, cli_option *opts, size_t nopts, bool *help)
{
  *help = false;
  for (size_t i = 0; i < nopts; i++)
    {
      opts[i].count = 0;
      opts[i].values = NULL;
    }

  for (int i = first; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *eq, *value = NULL;
      cli_option *opt;

      if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          *help = true;
          continue;
        }
      if (strncmp (arg, "--", 2) != 0 || arg[2] == '\0')
        return cli_fail (CLI_EXIT_USAGE, "unexpected argument '%s'", arg);
      eq = strchr (arg, '=');
      opt = find_option (opts, nopts, arg, eq != NULL ? (size_t) (eq - arg) : strlen (arg));
      if (opt == NULL)
        return cli_fail (CLI_EXIT_USAGE, "unknown option '%.*s' (try --help)",
                         eq != NULL ? (int) (eq - arg) : (int) strlen (arg), arg);
      if (opt->has_value)
        {
          if (eq != NULL)
            value = eq + 1;
          else if (i + 1 < argc)
            value = argv[++i];   /* taken as is: "--origin -5,0" is a value */
          else
            return cli_fail (CLI_EXIT_USAGE, "%s needs a value", opt->name);
        }
      else if (eq != NULL)
        return cli_fail (CLI_EXIT_USAGE, "%s takes no value", opt->name);
      if (opt->count > 0 && !opt->repeatable)
        return cli_fail (CLI_EXIT_USAGE, "%s given more than once", opt->name);
      if (opt->has_value)
        {
          if (opt->values == NULL)
            {
              /* No option can occur more often than there are arguments. */
              opt->values = calloc ((size_t) argc, sizeof *opt->values);
              if (opt->values == NULL)
                return cli_fail (CLI_EXIT_FAILURE, "out of memory");
            }
          opt->values[opt->count] = value;
        }
      opt->count++;
    }
  return CLI_EXIT_OK;
}

void
cli_options_clear (cli_option *opts, size_t nopts)
{
  for (size_t i = 0; i < nopts; i++)
    {
      free (opts[i].values);
      opts[i].values = NULL;
      opts[i].count = 0;
    }
}

const char *
cli_value (const cli_option *opt)
{
  return opt->count > 0 && opt->values != NULL ? opt->values[opt->count - 1] : NULL;
}

static bool
parse_one (const char *b, size_t len, double *out, bool *too_large)
{
  char buf[64];
  char *end;

  if (len == 0 || len >= sizeof buf || strspn (b, "0123456789+-.eE") < len)
    return false;
  memcpy (buf, b, len);
  buf[len] = '\0';
  *out = strtod (buf, &end);
  /* Digits only, so a number that is not finite overflowed. */
  *too_large = end == buf + len && !isfinite (*out);
  return end == buf + len && isfinite (*out);
}

bool
cli_parse_numbers (const char *flag, const char *text, double *out, int min, int max, int *n)
{
  const char *p = text;
  bool too_large = false;
  int k = 0;

  for (;;)
    {
      size_t len = strcspn (p, ",");
      if (k == max || !parse_one (p, len, &out[k], &too_large))
        {
          if (too_large)
            {
              cli_fail (CLI_EXIT_USAGE, "%s '%s': %.*s is out of range (at most about %.2g)", flag,
                        text, (int) len, p, DBL_MAX);
              return false;
            }
          break;
        }
      k++;
      p += len;
      if (*p == '\0')
        {
          if (k < min)
            break;
          *n = k;
          return true;
        }
      p++;
    }
  if (min == max && min == 1)
    cli_fail (CLI_EXIT_USAGE, "%s '%s': expected a number", flag, text);
  else if (min == max)
    cli_fail (CLI_EXIT_USAGE, "%s '%s': expected %d comma-separated numbers", flag, text, min);
  else
    cli_fail (CLI_EXIT_USAGE, "%s '%s': expected %d %s %d comma-separated numbers", flag, text,
              min, max == min + 1 ? "or" : "to", max);
  return false;
}

bool
cli_parse_counts (const char *flag, const char *text, long *out, int min, int max, int *n,
                  long max_value)
{
  double v[3];

  if (max > 3 || !cli_parse_numbers (flag, text, v, min, max, n))
    return false;
  for (int k = 0; k < *n; k++)
    {
      if (v[k] != floor (v[k]) || v[k] < 1 || v[k] > (double) max_value)
        {
          cli_fail (CLI_EXIT_USAGE, "%s '%s': expected whole numbers from 1 to %ld", flag, text,
                    max_value);
          return false;
        }
      out[k] = (long) v[k];
    }
  return true;
}

int
cli_check_input (const char *flag, const char *path)
{
  struct stat st;

  if (path[0] == '\0')
    return cli_fail (CLI_EXIT_USAGE, "%s: empty file name", flag);
  if (stat (path, &st) != 0)
    return cli_fail (CLI_EXIT_USAGE, "%s %s: %s", flag, path, strerror (errno));
  if (S_ISDIR (st.st_mode))
    return cli_fail (CLI_EXIT_USAGE, "%s %s: is a folder, not a file", flag, path);
  if (access (path, R_OK) != 0)
    return cli_fail (CLI_EXIT_USAGE, "%s %s: %s", flag, path, strerror (errno));
  return CLI_EXIT_OK;
}

int
cli_check_output (const char *flag, const char *path)
{
  const char *slash = strrchr (path, '/');
  char *dir;
  struct stat st;
  int status = CLI_EXIT_OK;

  if (path[0] == '\0')
    return cli_fail (CLI_EXIT_USAGE, "%s: empty file name", flag);
  /* Unix tools read "-" as standard output; the outputs are files,
   * committed whole or not at all, so say so rather than write "./-". */
  if (strcmp (path, "-") == 0)
    return cli_fail (CLI_EXIT_USAGE, "%s -: standard output is not supported; name a file "
                     "(./- for one called -)", flag);
  if (slash != NULL && slash[1] == '\0')
    return cli_fail (CLI_EXIT_FAILURE, "%s %s: names a folder, not a file", flag, path);
  if (slash == NULL)
    dir = strdup (".");
  else if (slash == path)
    dir = strdup ("/");
  else
    dir = strndup (path, (size_t) (slash - path));
  if (dir == NULL)
    return cli_fail (CLI_EXIT_FAILURE, "out of memory");

  /* The output's place is the system's answer, not the user's input:
   * a folder that is missing or read-only is a write failure (exit 1). */
  if (stat (dir, &st) != 0)
    status = cli_fail (CLI_EXIT_FAILURE, "%s %s: cannot write into '%s': %s", flag, path, dir,
                       strerror (errno));
  else if (!S_ISDIR (st.st_mode))
    status = cli_fail (CLI_EXIT_FAILURE, "%s %s: '%s' is not a folder", flag, path, dir);
  else if (access (dir, W_OK | X_OK) != 0)
    status = cli_fail (CLI_EXIT_FAILURE, "%s %s: cannot write into '%s': %s", flag, path, dir,
                       strerror (errno));
  else if (lstat (path, &st) == 0 && S_ISLNK (st.st_mode) && stat (path, &st) != 0)
    /* Written through the link (fr_atomic_open), which reaches nothing:
     * said before the solve rather than after it. */
    status = cli_fail (CLI_EXIT_FAILURE,
                       "%s %s: a symbolic link whose target cannot be reached: %s", flag, path,
                       strerror (errno));
  else if (stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      if (S_ISDIR (st.st_mode))
        status = cli_fail (CLI_EXIT_FAILURE, "%s %s: is a folder", flag, path);
      else
        /* A device, pipe or socket: written by rename, it would be
         * destroyed (fr_atomic_open refuses it too; this says so before
         * the solve). */
        status = cli_fail (CLI_EXIT_USAGE, "%s %s: not a plain file (a device, pipe or socket)",
                           flag, path);
    }
  free (dir);
  return status;
}

void
cli_guard_process (void)
{
  /* In order: open takes the lowest free descriptor, which is fd then. */
  for (int fd = 0; fd <= 2; fd++)
    if (fcntl (fd, F_GETFD) < 0 && errno == EBADF)
      (void) open (fd == 1 ? "/dev/full" : "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
  signal (SIGPIPE, SIG_IGN);
  signal (SIGXFSZ, SIG_IGN);
}

/* path with its folder resolved (symbolic links, "." and ".."), or NULL
 * when the folder cannot be resolved. */
static char *
resolve_folder (const char *path)
{
  const char *slash = strrchr (path, '/');
  char *dir = slash == NULL ? strdup (".") : slash == path ? strdup ("/")
              : strndup (path, (size_t) (slash - path));
  char *real = dir != NULL ? realpath (dir, NULL) : NULL;
  char *out = NULL;

  if (real != NULL)
    {
      const char *base = slash != NULL ? slash + 1 : path;
      size_t n = strlen (real) + 1 + strlen (base) + 1;
      if ((out = malloc (n)) != NULL)
        snprintf (out, n, "%s/%s", real, base);
    }
  free (dir);
  free (real);
  return out;
}

bool
cli_same_file (const char *a, const char *b)
{
  struct stat sa, sb;
  char *ra, *rb;
  bool same;

  if (strcmp (a, b) == 0)
    return true;
  if (stat (a, &sa) == 0 && stat (b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  ra = resolve_folder (a);
  rb = resolve_folder (b);
  same = ra != NULL && rb != NULL && strcmp (ra, rb) == 0;
  free (ra);
  free (rb);
  return same;
}

int
cli_check_not_input (const char *out_flag, const char *out_path, const char *in_what,
                     const char *in_path)
{
  if (out_path == NULL || in_path == NULL || !cli_same_file (out_path, in_path))
    return CLI_EXIT_OK;
  return cli_fail (CLI_EXIT_USAGE, "%s %s is the input given by %s: writing it would destroy it; "
                   "name another file", out_flag, out_path, in_what);
}

void
cli_json_string (FILE *fp, const char *s)
{
  fputc ('"', fp);
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        fprintf (fp, "\\%c", *p);
      else if (*p < 0x20)
        fprintf (fp, "\\u%04x", *p);
      else
        fputc (*p, fp);
    }
  fputc ('"', fp);
}
