/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The .npy layout: 6 bytes of magic, a major and minor version byte, the
 * header length (u16 in 1.0, u32 in 2.0/3.0, little endian), the header (a
 * Python dict literal: latin-1 up to 2.0, utf-8 in 3.0), then the raw data.
 * The header is parsed by hand, never evaluated.  Bytes past the declared
 * data are ignored, as numpy itself does.  The declared size is trusted
 * only after it is checked against the bytes present and, for a file,
 * against the memory this process may use. */
#include "fr-npy.h"
#include "fr-i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fr-atomic-file.h"
#include "fr-memory-private.h"
#include "fr-npy-private.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_PREAMBLE_MAX 12
/* A float header with at most 3 axes takes ~128 bytes; a header past this
 * size is corrupt, and refusing it bounds what a reader allocates. */
#define NPY_HEADER_MAX ((uint32_t) 1 << 20)
/* numpy aligns the data to 64 bytes (ARRAY_ALIGN) so it can be mapped. */
#define NPY_ALIGN 64

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BIG_ENDIAN 1
#else
#define HOST_BIG_ENDIAN 0
#endif

typedef struct npy_header {
  size_t data_offset;     /* from the start of the file */
  uint64_t data_bytes;
  int ndim;
  uint64_t shape[3];
  fr_dtype dtype;
} npy_header;

/* ---- preamble ---------------------------------------------------------- */

/* Magic, version and header length, from the first len (<= 12) bytes. */
static fr_status
parse_preamble (const uint8_t *b, size_t len, size_t *hstart, uint32_t *hlen, fr_error *err)
{
  size_t cmp = len < NPY_MAGIC_LEN ? len : NPY_MAGIC_LEN;
  unsigned major, minor;

  if (len == 0)
    return fr_error_set (err, FR_E_INPUT, "the file is empty, not a .npy file");
  if (memcmp (b, NPY_MAGIC, cmp) != 0)
    return fr_error_set (err, FR_E_INPUT, "not a .npy file (bad magic)");
  if (len < 8)
    return fr_error_set (err, FR_E_INPUT, "truncated .npy file: %zu bytes, no room for a header",
                         len);
  major = b[6];
  minor = b[7];
  if (major == 1 && minor == 0)
    {
      if (len < 10)
        return fr_error_set (err, FR_E_INPUT, "truncated .npy file: %zu bytes, no room for a header",
                             len);
      *hlen = (uint32_t) b[8] | (uint32_t) b[9] << 8;
      *hstart = 10;
    }
  else if ((major == 2 || major == 3) && minor == 0)
    {
      if (len < 12)
        return fr_error_set (err, FR_E_INPUT, "truncated .npy file: %zu bytes, no room for a header",
                             len);
      *hlen = (uint32_t) b[8] | (uint32_t) b[9] << 8 | (uint32_t) b[10] << 16
              | (uint32_t) b[11] << 24;
      *hstart = 12;
    }
  else
    return fr_error_set (err, FR_E_INPUT,
                         "unsupported .npy format version %u.%u (1.0, 2.0 and 3.0 are read)",
                         major, minor);
  if (*hlen > NPY_HEADER_MAX)
    return fr_error_set (err, FR_E_INPUT, "implausible .npy header length %" PRIu32 " bytes",
                         *hlen);
  return FR_OK;
}

/* ---- header dict ------------------------------------------------------- */

typedef struct cursor {
  const char *start, *p, *end;
} cursor;

static void
skip_space (cursor *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static bool
eat (cursor *c, char ch)
{
  skip_space (c);
  if (c->p < c->end && *c->p == ch)
    {
      c->p++;
      return true;
    }
  return false;
}

static bool
is_word_char (char ch)
{
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
         || ch == '_';
}

/* A Python string literal in ' or ", without escapes (no key or dtype we
 * accept needs one). */
static bool
read_string (cursor *c, const char **s, size_t *n)
{
  char quote;
  const char *q;

  skip_space (c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return false;
  quote = *c->p;
  for (q = c->p + 1; q < c->end && *q != quote; q++)
    if (*q == '\\' || *q == '\n')
      return false;
  if (q >= c->end)
    return false;
  *s = c->p + 1;
  *n = (size_t) (q - *s);
  c->p = q + 1;
  return true;
}

static bool
read_word (cursor *c, const char **s, size_t *n)
{
  skip_space (c);
  *s = c->p;
  while (c->p < c->end && is_word_char (*c->p))
    c->p++;
  *n = (size_t) (c->p - *s);
  return *n > 0;
}

static bool
same (const char *s, size_t n, const char *lit)
{
  return strlen (lit) == n && memcmp (s, lit, n) == 0;
}

/* A copy of an untrusted string fit for an error message. */
static void
printable (char *dst, size_t dst_size, const char *s, size_t n)
{
  size_t i, max = dst_size - 4;

  for (i = 0; i < n && i < max; i++)
    dst[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
  if (i < n)
    dst[i++] = '.', dst[i++] = '.', dst[i++] = '.';
  dst[i] = '\0';
}

static fr_status
malformed (cursor *c, fr_error *err, const char *expected)
{
  return fr_error_set (err, FR_E_INPUT, "malformed .npy header: expected %s at byte %zu of the header",
                       expected, (size_t) (c->p - c->start));
}

static void
format_shape (char *buf, size_t size, int ndim, const uint64_t *shape)
{
  size_t used = 0;

  buf[0] = '\0';
  used += (size_t) snprintf (buf + used, size - used, "(");
  for (int i = 0; i < ndim && used < size; i++)
    used += (size_t) snprintf (buf + used, size - used, i == 0 ? "%" PRIu64 : ", %" PRIu64,
                               shape[i]);
  if (used < size)
    snprintf (buf + used, size - used, ndim == 1 ? ",)" : ")");
}

static fr_status
parse_descr (cursor *c, npy_header *h, fr_error *err)
{
  const char *s;
  size_t n;
  char shown[40];

  skip_space (c);
  if (c->p < c->end && *c->p == '[')
    return fr_error_set (err, FR_E_INPUT,
                         "structured dtypes are not supported; only little-endian float32 "
                         "('<f4') and float64 ('<f8')");
  if (!read_string (c, &s, &n))
    return malformed (c, err, "a dtype string after 'descr'");
  if (same (s, n, "<f4"))
    h->dtype = FR_F32;
  else if (same (s, n, "<f8"))
    h->dtype = FR_F64;
  else if (same (s, n, ">f4") || same (s, n, ">f8"))
    return fr_error_set (err, FR_E_INPUT,
                         "big-endian data ('%c%c%c') is not supported; save as little-endian "
                         "('<%c%c')", s[0], s[1], s[2], s[1], s[2]);
  else
    {
      printable (shown, sizeof shown, s, n);
      return fr_error_set (err, FR_E_INPUT,
                           "unsupported dtype '%s'; only little-endian float32 ('<f4') and "
                           "float64 ('<f8') are read", shown);
    }
  return FR_OK;
}

static fr_status
parse_fortran_order (cursor *c, bool *fortran, fr_error *err)
{
  const char *s;
  size_t n;

  if (!read_word (c, &s, &n))
    return malformed (c, err, "True or False after 'fortran_order'");
  if (same (s, n, "False"))
    *fortran = false;
  else if (same (s, n, "True"))
    *fortran = true;
  else
    return malformed (c, err, "True or False after 'fortran_order'");
  return FR_OK;
}

/* One dimension: a decimal integer, with the 'L' suffix that Python 2 era
 * writers left on long integers. */
static fr_status
parse_dim (cursor *c, uint64_t *v, fr_error *err)
{
  uint64_t x = 0;
  const char *first;

  skip_space (c);
  if (c->p < c->end && *c->p == '-')
    return fr_error_set (err, FR_E_INPUT, "malformed .npy header: negative dimension in shape");
  first = c->p;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
    {
      unsigned d = (unsigned) (*c->p - '0');
      if (x > (UINT64_MAX - d) / 10)
        return fr_error_set (err, FR_E_INPUT, "malformed .npy header: a dimension in shape overflows");
      x = x * 10 + d;
      c->p++;
    }
  if (c->p == first)
    return malformed (c, err, "a dimension in shape");
  if (c->p < c->end && (*c->p == 'L' || *c->p == 'l'))
    c->p++;
  if (c->p < c->end && is_word_char (*c->p))
    return malformed (c, err, "a dimension in shape");
  *v = x;
  return FR_OK;
}

static fr_status
parse_shape (cursor *c, npy_header *h, fr_error *err)
{
  fr_status st;

  h->ndim = 0;
  if (!eat (c, '('))
    return malformed (c, err, "a tuple '(' after 'shape'");
  if (eat (c, ')'))
    return FR_OK;
  for (;;)
    {
      uint64_t v = 0;
      if ((st = parse_dim (c, &v, err)) != FR_OK)
        return st;
      if (h->ndim == 3)
        return fr_error_set (err, FR_E_INPUT,
                             "arrays of more than 3 dimensions are not supported");
      h->shape[h->ndim++] = v;
      if (eat (c, ','))
        {
          if (eat (c, ')'))
            return FR_OK;
        }
      else if (eat (c, ')'))
        return FR_OK;
      else
        return malformed (c, err, "',' or ')' in shape");
    }
}

/* The dict {'descr': ..., 'fortran_order': ..., 'shape': ...}, keys in any
 * order, each exactly once, nothing else. */
static fr_status
parse_dict (const char *text, size_t len, npy_header *h, fr_error *err)
{
  cursor c = { text, text, text + len };
  bool have_descr = false, have_order = false, have_shape = false, fortran = false;
  fr_status st;

  if (!eat (&c, '{'))
    return malformed (&c, err, "'{'");
  while (!eat (&c, '}'))
    {
      const char *key;
      size_t n;
      bool *seen;

      if (!read_string (&c, &key, &n))
        return malformed (&c, err, "a quoted key or '}'");
      if (same (key, n, "descr"))
        seen = &have_descr;
      else if (same (key, n, "fortran_order"))
        seen = &have_order;
      else if (same (key, n, "shape"))
        seen = &have_shape;
      else
        {
          char shown[40];
          printable (shown, sizeof shown, key, n);
          return fr_error_set (err, FR_E_INPUT, "malformed .npy header: unexpected key '%s'", shown);
        }
      if (*seen)
        return fr_error_set (err, FR_E_INPUT, "malformed .npy header: key '%.*s' appears twice",
                             (int) n, key);
      *seen = true;
      if (!eat (&c, ':'))
        return malformed (&c, err, "':' after a key");
      if (seen == &have_descr)
        st = parse_descr (&c, h, err);
      else if (seen == &have_order)
        st = parse_fortran_order (&c, &fortran, err);
      else
        st = parse_shape (&c, h, err);
      if (st != FR_OK)
        return st;
      /* A comma, or the closing brace straight away. */
      if (!eat (&c, ','))
        {
          skip_space (&c);
          if (c.p >= c.end || *c.p != '}')
            return malformed (&c, err, "',' or '}' after a value");
        }
    }
  skip_space (&c);
  if (c.p != c.end)
    return malformed (&c, err, "the end of the header after '}'");
  if (!have_descr || !have_order || !have_shape)
    return fr_error_set (err, FR_E_INPUT, "malformed .npy header: the '%s' key is missing",
                         !have_descr ? "descr" : !have_order ? "fortran_order" : "shape");
  if (fortran)
    return fr_error_set (err, FR_E_INPUT, "Fortran order is not supported; save with C order");
  return FR_OK;
}

/* Element count and data size, refusing absurd shapes before anything is
 * allocated for them. */
static fr_status
check_shape (npy_header *h, fr_error *err)
{
  uint64_t count = 1;
  bool empty = false;
  char shown[96];

  if (h->ndim == 0)
    return fr_error_set (err, FR_E_INPUT, "0-dimensional (scalar) arrays are not supported");
  for (int i = 0; i < h->ndim; i++)
    empty = empty || h->shape[i] == 0;
  for (int i = 0; i < h->ndim && !empty; i++)
    {
      if (count > FR_NPY_MAX_ELEMENTS / h->shape[i])
        {
          format_shape (shown, sizeof shown, h->ndim, h->shape);
          return fr_error_set (err, FR_E_INPUT,
                               "shape %s declares more than %" PRIu64 " elements, too many to read",
                               shown, FR_NPY_MAX_ELEMENTS);
        }
      count *= h->shape[i];
    }
  if (empty)
    count = 0;
  h->data_bytes = count * (h->dtype == FR_F32 ? 4u : 8u);
  return FR_OK;
}

static fr_status
check_data_present (const npy_header *h, uint64_t available, fr_error *err)
{
  char shown[96];

  if (h->data_bytes <= available)
    return FR_OK;
  format_shape (shown, sizeof shown, h->ndim, h->shape);
  return fr_error_set (err, FR_E_INPUT,
                       "truncated data: shape %s of %s needs %" PRIu64 " bytes but only %" PRIu64
                       " are present", shown, h->dtype == FR_F32 ? "float32" : "float64",
                       h->data_bytes, available);
}

/* The data's size against the memory this process may use.  A file that
 * really holds its data (or a sparse one that claims to) can still exceed
 * what the machine or its cgroup allows: malloc would succeed and the OOM
 * killer end the process while the pages fill. */
static fr_status
check_memory (const npy_header *h, const char *sysroot, fr_error *err)
{
  char shown[96], what[128];

  format_shape (shown, sizeof shown, h->ndim, h->shape);
  /* Translators: the subject of "… needs about N GB of memory"; shape, then
   * float32 or float64. */
  snprintf (what, sizeof what, fr__ ("reading shape %s of %s"), shown,
            h->dtype == FR_F32 ? "float32" : "float64");
  return fr_memory_check_at ((double) h->data_bytes, sysroot, what, err);
}

/* ---- data -------------------------------------------------------------- */

static void
swap_bytes (void *data, size_t count, size_t width)
{
  uint8_t *b = data;

  for (size_t i = 0; i < count; i++, b += width)
    for (size_t j = 0; j < width / 2; j++)
      {
        uint8_t t = b[j];
        b[j] = b[width - 1 - j];
        b[width - 1 - j] = t;
      }
}

/* Allocates out's data for h (at least one byte, so success always has a
 * pointer) and sets its shape. */
static fr_status
alloc_array (const npy_header *h, fr_array *out, fr_error *err)
{
  /* data_bytes <= 2^31 · 8 by check_shape, which fits a 64-bit size_t. */
  if (h->data_bytes > SIZE_MAX)
    return fr_error_set (err, FR_E_NOMEM, "%" PRIu64 " bytes of data do not fit in memory",
                         h->data_bytes);
  out->data = malloc (h->data_bytes > 0 ? (size_t) h->data_bytes : 1);
  if (out->data == NULL)
    return fr_error_set (err, FR_E_NOMEM, "cannot allocate %" PRIu64 " bytes for the array",
                         h->data_bytes);
  out->ndim = h->ndim;
  out->dtype = h->dtype;
  for (int i = 0; i < h->ndim; i++)
    out->shape[i] = (size_t) h->shape[i];
  return FR_OK;
}

static void
to_host_order (fr_array *a)
{
  if (HOST_BIG_ENDIAN)
    swap_bytes (a->data, fr_array_count (a), a->dtype == FR_F32 ? 4 : 8);
}

fr_status
fr_npy_parse (const uint8_t *bytes, size_t len, fr_array *out, fr_error *err)
{
  npy_header h = { 0 };
  size_t hstart = 0;
  uint32_t hlen = 0;
  fr_status st;

  if (out == NULL)
    return fr_error_set (err, FR_E_INPUT, "no array to read into");
  memset (out, 0, sizeof *out);
  if (bytes == NULL && len > 0)
    return fr_error_set (err, FR_E_INPUT, "no bytes to parse");

  st = parse_preamble (bytes, len < NPY_PREAMBLE_MAX ? len : NPY_PREAMBLE_MAX, &hstart, &hlen, err);
  if (st != FR_OK)
    return st;
  if (hlen > len - hstart)
    return fr_error_set (err, FR_E_INPUT,
                         "truncated .npy header: it claims %" PRIu32 " bytes but only %zu follow",
                         hlen, len - hstart);
  if ((st = parse_dict ((const char *) bytes + hstart, hlen, &h, err)) != FR_OK
      || (st = check_shape (&h, err)) != FR_OK)
    return st;
  h.data_offset = hstart + hlen;
  if ((st = check_data_present (&h, len - h.data_offset, err)) != FR_OK
      || (st = alloc_array (&h, out, err)) != FR_OK)
    return st;
  if (h.data_bytes > 0)
    memcpy (out->data, bytes + h.data_offset, (size_t) h.data_bytes);
  to_host_order (out);
  return FR_OK;
}

/* ---- file reading ------------------------------------------------------ */

/* Reads exactly n bytes at offset; a short file or a read error fails. */
static fr_status
pread_full (int fd, void *buf, size_t n, uint64_t offset, fr_error *err)
{
  uint8_t *p = buf;

  while (n > 0)
    {
      /* Chunks keep each call under the 2 GiB that Linux transfers at once. */
      size_t chunk = n < ((size_t) 1 << 30) ? n : ((size_t) 1 << 30);
      ssize_t got = pread (fd, p, chunk, (off_t) offset);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return fr_error_set (err, FR_E_IO, "cannot read: %s", strerror (errno));
      if (got == 0)
        return fr_error_set (err, FR_E_IO, "the file shrank while being read");
      p += got;
      n -= (size_t) got;
      offset += (uint64_t) got;
    }
  return FR_OK;
}

static fr_status
read_fd (int fd, const char *sysroot, fr_array *out, fr_error *err)
{
  uint8_t pre[NPY_PREAMBLE_MAX];
  npy_header h = { 0 };
  struct stat sb;
  uint64_t size;
  size_t hstart = 0, npre;
  uint32_t hlen = 0;
  char *header;
  fr_status st;

  if (fstat (fd, &sb) != 0)
    return fr_error_set (err, FR_E_IO, "cannot inspect: %s", strerror (errno));
  if (!S_ISREG (sb.st_mode))
    return fr_error_set (err, FR_E_INPUT, "not a regular file");
  size = sb.st_size > 0 ? (uint64_t) sb.st_size : 0;

  npre = size < NPY_PREAMBLE_MAX ? (size_t) size : NPY_PREAMBLE_MAX;
  if ((st = pread_full (fd, pre, npre, 0, err)) != FR_OK
      || (st = parse_preamble (pre, npre, &hstart, &hlen, err)) != FR_OK)
    return st;
  /* Judge every claimed size against the file's size before allocating. */
  if (hlen > size - hstart)
    return fr_error_set (err, FR_E_INPUT,
                         "truncated .npy header: it claims %" PRIu32 " bytes but only %" PRIu64
                         " follow", hlen, size - hstart);
  header = malloc (hlen > 0 ? hlen : 1);
  if (header == NULL)
    return fr_error_set (err, FR_E_NOMEM, "cannot allocate the header");
  st = pread_full (fd, header, hlen, hstart, err);
  if (st == FR_OK)
    st = parse_dict (header, hlen, &h, err);
  free (header);
  if (st != FR_OK || (st = check_shape (&h, err)) != FR_OK)
    return st;
  h.data_offset = hstart + hlen;
  if ((st = check_data_present (&h, size - h.data_offset, err)) != FR_OK
      || (st = check_memory (&h, sysroot, err)) != FR_OK
      || (st = alloc_array (&h, out, err)) != FR_OK)
    return st;
  if ((st = pread_full (fd, out->data, (size_t) h.data_bytes, h.data_offset, err)) != FR_OK)
    {
      fr_array_clear (out);
      return st;
    }
  to_host_order (out);
  return FR_OK;
}

fr_status
fr_npy_read_at (const char *path, const char *sysroot, fr_array *out, fr_error *err)
{
  fr_status st;
  int fd;

  if (out != NULL)
    memset (out, 0, sizeof *out);
  if (path == NULL || out == NULL)
    return fr_error_set (err, FR_E_INPUT, "no file name or no array to read into");
  /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is then
   * refused as not a regular file. */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    {
      int e = errno;
      return fr_error_set (err, FR_E_IO, "%s: cannot open: %s", path, strerror (e));
    }
  st = read_fd (fd, sysroot, out, err);
  close (fd);
  if (st != FR_OK)
    {
      fr_array_clear (out);
      fr_error_prefix (err, "%s: ", path);
    }
  return st;
}

fr_status
fr_npy_read (const char *path, fr_array *out, fr_error *err)
{
  return fr_npy_read_at (path, "", out, err);
}

/* ---- writing ----------------------------------------------------------- */

static bool
write_data (FILE *fp, const fr_array *a, size_t count)
{
  size_t width = a->dtype == FR_F32 ? 4 : 8;

  if (!HOST_BIG_ENDIAN)
    return fwrite (a->data, width, count, fp) == count;
  /* Swap through a small buffer: the caller's array stays untouched. */
  {
    uint8_t buf[4096];
    const uint8_t *src = a->data;
    size_t per = sizeof buf / width;
    while (count > 0)
      {
        size_t k = count < per ? count : per;
        memcpy (buf, src, k * width);
        swap_bytes (buf, k, width);
        if (fwrite (buf, width, k, fp) != k)
          return false;
        src += k * width;
        count -= k;
      }
    return true;
  }
}

fr_status
fr_npy_write_to (FILE *fp, const char *path, const fr_array *a, fr_error *err)
{
  char dict[256];
  uint8_t pre[NPY_PREAMBLE_MAX];
  size_t count, npre, pad, hlen;
  int n;

  if (fp == NULL || path == NULL || a == NULL || a->ndim < 1 || a->ndim > 3
      || (a->dtype != FR_F32 && a->dtype != FR_F64))
    return fr_error_set (err, FR_E_INPUT, "%s: no valid array to write", path ? path : "(null)");
  count = fr_array_count (a);
  if (count > SIZE_MAX / 8 || (count > 0 && a->data == NULL))
    return fr_error_set (err, FR_E_INPUT, "%s: the array's data is missing or too large", path);

  /* The same dict numpy writes, keys sorted. */
  if (a->ndim == 1)
    n = snprintf (dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }",
                  a->dtype == FR_F32 ? "<f4" : "<f8", a->shape[0]);
  else if (a->ndim == 2)
    n = snprintf (dict, sizeof dict,
                  "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }",
                  a->dtype == FR_F32 ? "<f4" : "<f8", a->shape[0], a->shape[1]);
  else
    n = snprintf (dict, sizeof dict,
                  "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu, %zu), }",
                  a->dtype == FR_F32 ? "<f4" : "<f8", a->shape[0], a->shape[1], a->shape[2]);
  if (n < 0 || (size_t) n >= sizeof dict)
    return fr_error_set (err, FR_E_INPUT, "%s: cannot format the header", path);

  /* Version 1.0 unless the header outgrows its u16 length; the header is
   * padded with spaces and ends in '\n' so the data starts 64-aligned. */
  npre = 10;
  pad = (NPY_ALIGN - (npre + (size_t) n + 1) % NPY_ALIGN) % NPY_ALIGN;
  hlen = (size_t) n + pad + 1;
  if (hlen > 65535)
    {
      npre = 12;
      pad = (NPY_ALIGN - (npre + (size_t) n + 1) % NPY_ALIGN) % NPY_ALIGN;
      hlen = (size_t) n + pad + 1;
    }
  memcpy (pre, NPY_MAGIC, NPY_MAGIC_LEN);
  pre[6] = npre == 10 ? 1 : 2;
  pre[7] = 0;
  pre[8] = (uint8_t) (hlen & 0xff);
  pre[9] = (uint8_t) (hlen >> 8 & 0xff);
  pre[10] = (uint8_t) (hlen >> 16 & 0xff);
  pre[11] = (uint8_t) (hlen >> 24 & 0xff);

  if (fwrite (pre, 1, npre, fp) != npre
      || fwrite (dict, 1, (size_t) n, fp) != (size_t) n
      || fprintf (fp, "%*s\n", (int) pad, "") < 0
      || !write_data (fp, a, count))
    return fr_error_set (err, FR_E_IO, fr__ ("%s: cannot write: %s"), path, strerror (errno));
  return FR_OK;
}

fr_status
fr_npy_write (const char *path, const fr_array *a, fr_error *err)
{
  fr_atomic_file af;
  fr_status st;

  if ((st = fr_atomic_open (&af, path, err)) != FR_OK)
    return st;
  if ((st = fr_npy_write_to (af.fp, path, a, err)) != FR_OK)
    {
      fr_atomic_abort (&af);
      return st;
    }
  return fr_atomic_commit (&af, err);
}
