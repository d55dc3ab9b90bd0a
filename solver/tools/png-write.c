/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Layout: signature, IHDR, then one IDAT chunk per deflate stored block
 * (each at most 65535 bytes of scanlines), the zlib header riding in the
 * first and the Adler-32 in the last, then IEND.  Chunks are streamed, so
 * memory stays at one block whatever the image size. */
#include "png-write.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fr-atomic-file.h"

#define STORED_MAX 65535u

typedef struct png_writer {
  FILE *fp;
  uint32_t crc_table[256];
  uint32_t adler_a, adler_b;
  bool zlib_started;
  size_t fill;
  uint8_t block[STORED_MAX];
} png_writer;

static void
crc_table_init (uint32_t table[256])
{
  for (uint32_t n = 0; n < 256; n++)
    {
      uint32_t c = n;
      for (int k = 0; k < 8; k++)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[n] = c;
    }
}

static uint32_t
crc_update (const png_writer *w, uint32_t crc, const uint8_t *p, size_t len)
{
  for (size_t i = 0; i < len; i++)
    crc = w->crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return crc;
}

static void
put_be32 (uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t) (v >> 24);
  p[1] = (uint8_t) (v >> 16);
  p[2] = (uint8_t) (v >> 8);
  p[3] = (uint8_t) v;
}

/* Writes a chunk whose data is the concatenation of up to three pieces. */
static void
write_chunk (png_writer *w, const char type[4], const uint8_t *a, size_t alen,
             const uint8_t *b, size_t blen, const uint8_t *c, size_t clen)
{
  uint8_t head[8], tail[4];
  uint32_t crc = 0xffffffffu;

  put_be32 (head, (uint32_t) (alen + blen + clen));
  memcpy (head + 4, type, 4);
  crc = crc_update (w, crc, (const uint8_t *) type, 4);
  crc = crc_update (w, crc, a, alen);
  crc = crc_update (w, crc, b, blen);
  crc = crc_update (w, crc, c, clen);
  put_be32 (tail, crc ^ 0xffffffffu);
  fwrite (head, 1, 8, w->fp);
  if (alen)
    fwrite (a, 1, alen, w->fp);
  if (blen)
    fwrite (b, 1, blen, w->fp);
  if (clen)
    fwrite (c, 1, clen, w->fp);
  fwrite (tail, 1, 4, w->fp);
}

/* Emits the buffered block as one IDAT chunk. */
static void
flush_block (png_writer *w, bool final)
{
  uint8_t pre[2 + 5], post[4];
  size_t npre = 0, npost = 0;

  if (!w->zlib_started)
    {
      /* CMF 0x78: deflate, 32 KiB window; FLG 0x01 makes the pair a multiple of 31. */
      pre[npre++] = 0x78;
      pre[npre++] = 0x01;
      w->zlib_started = true;
    }
  pre[npre++] = final ? 1 : 0;   /* BFINAL, BTYPE 00 (stored) */
  pre[npre++] = (uint8_t) (w->fill & 0xff);
  pre[npre++] = (uint8_t) (w->fill >> 8);
  pre[npre++] = (uint8_t) (~w->fill & 0xff);
  pre[npre++] = (uint8_t) ((~w->fill >> 8) & 0xff);
  if (final)
    {
      put_be32 (post, (w->adler_b << 16) | w->adler_a);
      npost = 4;
    }
  write_chunk (w, "IDAT", pre, npre, w->block, w->fill, post, npost);
  w->fill = 0;
}

static void
put_bytes (png_writer *w, const uint8_t *p, size_t len)
{
  while (len > 0)
    {
      size_t n = STORED_MAX - w->fill;
      if (n > len)
        n = len;
      memcpy (w->block + w->fill, p, n);
      for (size_t i = 0; i < n; i++)
        {
          w->adler_a = (w->adler_a + p[i]) % 65521u;
          w->adler_b = (w->adler_b + w->adler_a) % 65521u;
        }
      w->fill += n;
      p += n;
      len -= n;
      if (w->fill == STORED_MAX)
        flush_block (w, false);
    }
}

fr_status
png_write_rgb (const char *path, const uint8_t *rgb, size_t width, size_t height,
               const fr_cancel *cancel, fr_error *err)
{
  static const uint8_t signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  uint8_t ihdr[13];
  fr_atomic_file af;
  png_writer *w;
  fr_status st;

  if (width == 0 || height == 0 || width > PNG_MAX_SIDE || height > PNG_MAX_SIDE)
    return fr_error_set (err, FR_E_INPUT, "%s: image size %zu x %zu is out of range", path,
                         width, height);
  w = calloc (1, sizeof *w);
  if (w == NULL)
    return fr_error_set (err, FR_E_NOMEM, "%s: out of memory", path);
  st = fr_atomic_open (&af, path, err);
  if (st != FR_OK)
    {
      free (w);
      return st;
    }
  w->fp = af.fp;
  crc_table_init (w->crc_table);
  w->adler_a = 1;

  fwrite (signature, 1, sizeof signature, w->fp);
  put_be32 (ihdr, (uint32_t) width);
  put_be32 (ihdr + 4, (uint32_t) height);
  ihdr[8] = 8;    /* bits per channel */
  ihdr[9] = 2;    /* colour type: RGB */
  ihdr[10] = 0;   /* deflate */
  ihdr[11] = 0;   /* adaptive filtering (we use filter 0 everywhere) */
  ihdr[12] = 0;   /* no interlace */
  write_chunk (w, "IHDR", ihdr, sizeof ihdr, NULL, 0, NULL, 0);

  for (size_t y = 0; y < height && !(cancel != NULL && fr_cancel_raised (cancel)); y++)
    {
      static const uint8_t filter_none = 0;
      put_bytes (w, &filter_none, 1);
      put_bytes (w, rgb + y * width * 3, width * 3);
    }
  flush_block (w, true);
  write_chunk (w, "IEND", NULL, 0, NULL, 0, NULL, 0);
  free (w);
  if (cancel != NULL && fr_cancel_raised (cancel))
    {
      fr_atomic_abort (&af);
      return fr_error_set (err, FR_E_CANCELLED, "%s: interrupted", path);
    }
  /* The commit sees any failed fwrite through the stream's error flag. */
  return fr_atomic_commit (&af, err);
}
