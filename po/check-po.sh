#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks one translation against the current sources: msgfmt must accept it
# (format strings included), and once merged with a catalogue freshly taken
# from POTFILES.in no message may be untranslated or fuzzy.  So a new string
# in the application fails this test until it is translated.
# usage: check-po.sh SOURCE_ROOT LANG
set -eu
root=$1
lang=$2
po="$root/po/$lang.po"
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

msgfmt --check --statistics -o /dev/null "$po"

# A file with strings that POTFILES.in forgets would stay English unnoticed.
missing=$(cd "$root" && grep -lE '\b(N|C|NC)?_\("|translatable="yes"|\bfr__ \("' app/*.c app/*.ui ui/*.ui solver/*.c 2>/dev/null \
  | while read -r f; do grep -qx "$f" po/POTFILES.in || echo "$f"; done)
if [ -n "$missing" ]; then
  echo "po/POTFILES.in lacks these files with translatable strings:" $missing >&2
  exit 1
fi

# The keywords and flags of meson's 'glib' preset, which builds foldray.pot.
(cd "$root" && xgettext --files-from=po/POTFILES.in --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --keyword=fr__ --flag=fr__:1:c-format \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
  --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
  --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
  --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format \
  --package-name=foldray -o "$tmp/foldray.pot")
msgmerge --quiet --no-fuzzy-matching -o "$tmp/merged.po" "$po" "$tmp/foldray.pot"
msgfmt --check --statistics -o /dev/null "$tmp/merged.po" 2> "$tmp/stats"
cat "$tmp/stats" >&2
if grep -Eq 'fuzzy|untranslated' "$tmp/stats"; then
  echo "$lang.po: these messages need a translation (meson compile foldray-pot foldray-update-po, then translate):" >&2
  msgattrib --untranslated --no-obsolete "$tmp/merged.po" >&2
  msgattrib --only-fuzzy --no-obsolete "$tmp/merged.po" >&2
  exit 1
fi
