/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Well-formed UTF-8, for text that messages quote: the CSV reader's
 * fields (fr-csv.c) and foldray-cli's one-line reports, which name files
 * as their bytes.  Header only, so the tools share it without new API. */
#pragma once

#include <stddef.h>

/* The length of the well-formed UTF-8 character at [p, e) (RFC 3629: no
 * overlong forms, surrogates or values above U+10FFFF), 0 when none. */
static inline size_t
fr_utf8_char (const unsigned char *p, const unsigned char *e)
{
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;

  if (p[0] < 0x80)
    return 1;
  if (p[0] >= 0xC2 && p[0] <= 0xDF)
    n = 2;
  else if (p[0] >= 0xE0 && p[0] <= 0xEF)
    {
      n = 3;
      lo = p[0] == 0xE0 ? 0xA0 : 0x80;
      hi = p[0] == 0xED ? 0x9F : 0xBF;
    }
  else if (p[0] >= 0xF0 && p[0] <= 0xF4)
    {
      n = 4;
      lo = p[0] == 0xF0 ? 0x90 : 0x80;
      hi = p[0] == 0xF4 ? 0x8F : 0xBF;
    }
  else
    return 0;
  if ((size_t) (e - p) < n || p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xBF)
      return 0;
  return n;
}
