#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent reader for test-vtk: parses a VTK XML file (.vti or .vtp)
with the standard library alone and compares it with what the test meant to
write, bit for bit.

usage: vtk-read.py FILE EXPECT.json

EXPECT.json for ImageData:
  {"type": "ImageData", "extent": [6 ints], "origin": [3], "spacing": [3],
   "arrays": [{"name": N, "type": "Float32"|"Float64", "raw": PATH}, ...]}
  where PATH holds the array's exact bytes in the host's byte order.
EXPECT.json for PolyData:
  {"type": "PolyData", "id_name": N, "lines": [{"id": I, "points": [[x, y, z], ...]}, ...],
   "fields": [{"name": F, "values": [one per line listed]}, ...]}   ("fields" optional)

Exit status 0 when everything matches; otherwise one line on stderr says what
differs."""
import base64
import json
import struct
import sys
import xml.etree.ElementTree as ET

TYPES = {'Float32': ('f', 4), 'Float64': ('d', 8), 'Int32': ('i', 4), 'Int64': ('q', 8)}


class Mismatch(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Mismatch(what)


def child(parent, tag):
    found = parent.findall(tag)
    check(len(found) == 1, f'<{parent.tag}> has {len(found)} <{tag}> elements, not 1')
    return found[0]


def decode(el, endian, want_type, want_ncomp=1):
    """The bytes of a binary DataArray: base64 of a UInt64 byte count, then the data."""
    name = el.get('Name')
    check(el.get('type') == want_type, f'array {name!r}: type {el.get("type")!r}, not {want_type}')
    check(el.get('format') == 'binary', f'array {name!r}: format {el.get("format")!r}')
    ncomp = int(el.get('NumberOfComponents', '1'))
    check(ncomp == want_ncomp, f'array {name!r}: {ncomp} components, not {want_ncomp}')
    raw = base64.b64decode(''.join((el.text or '').split()), validate=True)
    check(len(raw) >= 8, f'array {name!r}: no UInt64 header')
    (n,) = struct.unpack(endian + 'Q', raw[:8])
    body = raw[8:]
    check(n == len(body), f'array {name!r}: header says {n} bytes, {len(body)} follow')
    return body


def values(body, endian, vtk_type):
    code, size = TYPES[vtk_type]
    check(len(body) % size == 0, f'{len(body)} bytes is not a whole number of {vtk_type}')
    return struct.unpack(f'{endian}{len(body) // size}{code}', body)


def numbers(text, kind=float):
    return [kind(t) for t in text.split()]


def check_image(root, endian, want):
    image = child(root, 'ImageData')
    piece = child(image, 'Piece')
    check(numbers(image.get('WholeExtent'), int) == want['extent'],
          f'WholeExtent {image.get("WholeExtent")!r}, expected {want["extent"]}')
    check(numbers(piece.get('Extent'), int) == want['extent'],
          f'Piece Extent {piece.get("Extent")!r}, expected {want["extent"]}')
    check(numbers(image.get('Origin')) == want['origin'],
          f'Origin {image.get("Origin")!r}, expected {want["origin"]}')
    check(numbers(image.get('Spacing')) == want['spacing'],
          f'Spacing {image.get("Spacing")!r}, expected {want["spacing"]}')
    e = want['extent']
    count = (e[1] - e[0] + 1) * (e[3] - e[2] + 1) * (e[5] - e[4] + 1)

    point_data = child(piece, 'PointData')
    arrays = point_data.findall('DataArray')
    check(len(arrays) == len(want['arrays']),
          f'{len(arrays)} point-data arrays, expected {len(want["arrays"])}')
    check(point_data.get('Scalars') == want['arrays'][0]['name'],
          f'active scalars {point_data.get("Scalars")!r}')
    for el, w in zip(arrays, want['arrays']):
        check(el.get('Name') == w['name'], f'array named {el.get("Name")!r}, expected {w["name"]!r}')
        body = decode(el, endian, w['type'])
        with open(w['raw'], 'rb') as f:
            expected = f.read()
        got = values(body, endian, w['type'])
        check(len(got) == count, f'array {w["name"]!r}: {len(got)} values for {count} points')
        if body != expected:
            ref = values(expected, '=', w['type'])
            i = next(i for i in range(len(got))
                     if struct.pack('<' + TYPES[w['type']][0], got[i])
                     != struct.pack('<' + TYPES[w['type']][0], ref[i]))
            raise Mismatch(f'array {w["name"]!r}: value {i} is {got[i]!r}, expected {ref[i]!r}')
    check(piece.find('CellData') is None or len(piece.find('CellData')) == 0,
          'unexpected cell data')


def check_poly(root, endian, want):
    poly = child(root, 'PolyData')
    piece = child(poly, 'Piece')
    lines = want['lines']
    npoints = sum(len(line['points']) for line in lines)
    for attr, n in (('NumberOfPoints', npoints), ('NumberOfLines', len(lines)),
                    ('NumberOfVerts', 0), ('NumberOfStrips', 0), ('NumberOfPolys', 0)):
        check(int(piece.get(attr, '0')) == n, f'{attr} {piece.get(attr)!r}, expected {n}')

    pts = values(decode(child(child(piece, 'Points'), 'DataArray'), endian, 'Float64', 3),
                 endian, 'Float64')
    check(len(pts) == 3 * npoints, f'{len(pts) // 3} points, expected {npoints}')
    by_name = {el.get('Name'): el for el in child(piece, 'Lines').findall('DataArray')}
    check(set(by_name) == {'connectivity', 'offsets'}, f'Lines arrays {sorted(by_name)}')
    conn = values(decode(by_name['connectivity'], endian, 'Int64'), endian, 'Int64')
    offsets = values(decode(by_name['offsets'], endian, 'Int64'), endian, 'Int64')
    check(len(offsets) == len(lines), f'{len(offsets)} offsets for {len(lines)} lines')
    check(len(conn) == (offsets[-1] if offsets else 0), 'connectivity length != last offset')

    start = 0
    for i, (end, line) in enumerate(zip(offsets, lines)):
        check(start <= end <= len(conn), f'line {i}: offsets {start}..{end} out of range')
        got = []
        for c in conn[start:end]:
            check(0 <= c < npoints, f'line {i}: point index {c} out of range')
            got.append(list(pts[3 * c:3 * c + 3]))
        check(got == line['points'], f'line {i}: points {got}, expected {line["points"]}')
        start = end

    cell_data = child(piece, 'CellData')
    check(cell_data.get('Scalars') == want['id_name'], f'active scalars {cell_data.get("Scalars")!r}')
    arrays = cell_data.findall('DataArray')
    fields = want.get('fields', [])
    check(len(arrays) == 1 + len(fields), f'{len(arrays)} cell arrays, expected {1 + len(fields)}')
    el = arrays[0]
    check(el.get('Name') == want['id_name'], f'id array named {el.get("Name")!r}')
    ids = list(values(decode(el, endian, 'Int32'), endian, 'Int32'))
    check(ids == [line['id'] for line in lines], f'ids {ids}, expected {[l["id"] for l in lines]}')
    for el, field in zip(arrays[1:], fields):
        check(el.get('Name') == field['name'], f'cell array named {el.get("Name")!r}')
        got = list(values(decode(el, endian, 'Float64'), endian, 'Float64'))
        check(got == field['values'], f'{field["name"]}: {got}, expected {field["values"]}')


def main():
    path, expect_path = sys.argv[1], sys.argv[2]
    with open(expect_path, encoding='utf-8') as f:
        want = json.load(f)
    root = ET.parse(path).getroot()
    check(root.tag == 'VTKFile', f'root element <{root.tag}>')
    check(root.get('type') == want['type'], f'VTKFile type {root.get("type")!r}')
    check(root.get('version') == '1.0', f'VTKFile version {root.get("version")!r}')
    check(root.get('header_type') == 'UInt64', f'header_type {root.get("header_type")!r}')
    host = 'LittleEndian' if sys.byteorder == 'little' else 'BigEndian'
    check(root.get('byte_order') == host, f'byte_order {root.get("byte_order")!r} on a {host} host')
    endian = '<' if host == 'LittleEndian' else '>'
    if want['type'] == 'ImageData':
        check_image(root, endian, want)
    else:
        check_poly(root, endian, want)


if __name__ == '__main__':
    try:
        main()
    except (Mismatch, ET.ParseError, ValueError, KeyError, struct.error) as e:
        sys.stderr.write(f'{sys.argv[1]}: {type(e).__name__}: {e}\n')
        sys.exit(1)
