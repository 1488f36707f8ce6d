#!/usr/bin/env python3
"""Writes the hand-made R2000 DXF fixtures of decision 0044 (no library: the groups are written
here), into packages/cad/test-fixtures/:

- gen_tolerance.dxf: feature control frames (TOLERANCE) by an ISO-25-like dimension style (text
  2.5, gap 0.625, frame lines red, text blue): position with a diameter zone, MMC and two datums;
  a two-row frame (perpendicularity to A, straightness); a rotated flatness frame; a datum
  identifier.
- gen_linetype_shapes.dxf: lines drawn in AutoCAD's complex linetypes of acad.lin (FENCELINE1,
  FENCELINE2, TRACKS, ZIGZAG, BATTING with ltypeshp.shx shapes, GAS_LINE with its text) and a
  SHAPE entity (BOX of ltypeshp.shx).
- gen_table.dxf: a 明细表-like ACAD_TABLE without its table block (4 rows, 4 columns, Chinese and
  Latin cell texts): drawn from its cells.

Usage: python3 packages/cad/scripts/gen-gdt-fixtures.py
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'test-fixtures')


class Dxf:
    def __init__(self):
        self.lines = []
        self.handle = 0x100

    def g(self, code, value):
        if isinstance(value, float):
            value = repr(round(value, 10))
        self.lines.append(f'{code:>3}')
        self.lines.append(str(value))

    def h(self):
        self.handle += 1
        return format(self.handle, 'X')

    def text(self):
        return '\n'.join(self.lines) + '\n'


def header(d, extmin, extmax):
    d.g(0, 'SECTION'); d.g(2, 'HEADER')
    d.g(9, '$ACADVER'); d.g(1, 'AC1015')
    d.g(9, '$INSUNITS'); d.g(70, 4)
    d.g(9, '$MEASUREMENT'); d.g(70, 1)
    d.g(9, '$LTSCALE'); d.g(40, 1.0)
    d.g(9, '$DIMSTYLE'); d.g(2, 'ISO-25')
    d.g(9, '$EXTMIN'); d.g(10, extmin[0]); d.g(20, extmin[1]); d.g(30, 0.0)
    d.g(9, '$EXTMAX'); d.g(10, extmax[0]); d.g(20, extmax[1]); d.g(30, 0.0)
    d.g(0, 'ENDSEC')


def table_start(d, name, count):
    d.g(0, 'TABLE'); d.g(2, name); d.g(5, d.h()); d.g(100, 'AcDbSymbolTable'); d.g(70, count)


def ltype(d, name, desc, elements):
    """elements: (length, None) or (length, dict(shape=n | text=s, style=handle, s, r, x, y))."""
    d.g(0, 'LTYPE'); d.g(5, d.h()); d.g(100, 'AcDbSymbolTableRecord'); d.g(100, 'AcDbLinetypeTableRecord')
    d.g(2, name); d.g(70, 0); d.g(3, desc); d.g(72, 65); d.g(73, len(elements))
    d.g(40, float(sum(abs(l) for l, _ in elements)))
    for length, c in elements:
        d.g(49, float(length))
        if not c:
            d.g(74, 0)
            continue
        d.g(74, 2 if 'text' in c else 4)
        d.g(75, c.get('shape', 0))
        d.g(340, c['style'])
        d.g(46, float(c.get('s', 1.0)))
        d.g(50, float(c.get('r', 0.0)))
        d.g(44, float(c.get('x', 0.0)))
        d.g(45, float(c.get('y', 0.0)))
        if 'text' in c:
            d.g(9, c['text'])


def style(d, handle, name, font, flags=0):
    d.g(0, 'STYLE'); d.g(5, handle); d.g(100, 'AcDbSymbolTableRecord'); d.g(100, 'AcDbTextStyleTableRecord')
    d.g(2, name); d.g(70, flags); d.g(40, 0.0); d.g(41, 1.0); d.g(50, 0.0); d.g(71, 0); d.g(42, 2.5); d.g(3, font); d.g(4, '')


def tables(d, linetypes, styles):
    d.g(0, 'SECTION'); d.g(2, 'TABLES')
    table_start(d, 'LTYPE', len(linetypes) + 1)
    ltype(d, 'CONTINUOUS', 'Solid line', [])
    for lt in linetypes:
        ltype(d, *lt)
    d.g(0, 'ENDTAB')
    table_start(d, 'LAYER', 1)
    d.g(0, 'LAYER'); d.g(5, d.h()); d.g(100, 'AcDbSymbolTableRecord'); d.g(100, 'AcDbLayerTableRecord')
    d.g(2, '0'); d.g(70, 0); d.g(62, 7); d.g(6, 'CONTINUOUS')
    d.g(0, 'ENDTAB')
    table_start(d, 'STYLE', len(styles))
    for s in styles:
        style(d, *s)
    d.g(0, 'ENDTAB')
    table_start(d, 'DIMSTYLE', 1)
    d.g(100, 'AcDbDimStyleTable'); d.g(71, 1)
    d.g(0, 'DIMSTYLE'); d.g(105, d.h()); d.g(100, 'AcDbSymbolTableRecord'); d.g(100, 'AcDbDimStyleTableRecord')
    d.g(2, 'ISO-25'); d.g(70, 0)
    d.g(140, 2.5); d.g(147, 0.625); d.g(41, 2.5); d.g(176, 1); d.g(178, 5)
    d.g(0, 'ENDTAB')
    d.g(0, 'ENDSEC')


def entity(d, kind, sub, layer='0', linetype=None):
    d.g(0, kind); d.g(5, d.h()); d.g(100, 'AcDbEntity'); d.g(8, layer)
    if linetype:
        d.g(6, linetype)
    d.g(100, sub)


def tolerance(d, text, at, angle=0.0):
    entity(d, 'TOLERANCE', 'AcDbFcf')
    d.g(3, 'ISO-25')
    d.g(10, at[0]); d.g(20, at[1]); d.g(30, 0.0)
    d.g(1, text)
    if angle:
        d.g(11, math.cos(math.radians(angle))); d.g(21, math.sin(math.radians(angle))); d.g(31, 0.0)


def line(d, a, b, linetype):
    entity(d, 'LINE', 'AcDbLine', linetype=linetype)
    d.g(10, a[0]); d.g(20, a[1]); d.g(30, 0.0); d.g(11, b[0]); d.g(21, b[1]); d.g(31, 0.0)


def finish(d, name):
    d.g(0, 'ENDSEC'); d.g(0, 'EOF')
    with open(os.path.join(OUT, name), 'w', newline='\r\n') as f:
        f.write(d.text())


def gen_tolerance():
    d = Dxf()
    header(d, (0.0, -30.0), (70.0, 10.0))
    tables(d, [], [('11', 'Standard', 'txt.shx')])
    d.g(0, 'SECTION'); d.g(2, 'ENTITIES')
    # Position, diameter zone 0.05 at maximum material condition, datums A and B.
    tolerance(d, '{\\Fgdt;j}%%v{\\Fgdt;n}0.05{\\Fgdt;m}%%vA%%vB', (0.0, 0.0))
    # Two rows: perpendicularity 0.02 to A; straightness 0.01.
    tolerance(d, '{\\Fgdt;b}%%v0.02%%vA^J{\\Fgdt;u}%%v0.01', (0.0, -12.0))
    # Flatness, turned 30 degrees.
    tolerance(d, '{\\Fgdt;c}%%v0.1', (40.0, -25.0), 30.0)
    # A datum identifier.
    tolerance(d, 'A', (45.0, 0.0))
    finish(d, 'gen_tolerance.dxf')


def gen_linetypes():
    d = Dxf()
    header(d, (0.0, -1.0), (6.0, 7.0))
    shp = 'A1'
    std = '11'
    lts = [
        ('FENCELINE1', 'Fenceline circle ----0-----0----', [(0.25, None), (-0.1, {'shape': 133, 'style': shp, 's': 0.1, 'x': -0.1}), (-0.1, None), (1.0, None)]),
        ('FENCELINE2', 'Fenceline square ----[]-----[]----', [(0.25, None), (-0.1, {'shape': 132, 'style': shp, 's': 0.1, 'x': -0.1}), (-0.1, None), (1.0, None)]),
        ('TRACKS', 'Tracks -|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-', [(0.15, {'shape': 130, 'style': shp, 's': 0.25}), (0.15, None)]),
        ('ZIGZAG', 'Zig zag /\\/\\/\\/\\/\\/\\/\\/\\/\\/\\/\\/\\/\\', [(0.0001, None), (-0.2, {'shape': 131, 'style': shp, 's': 0.2, 'x': -0.2}), (-0.4, {'shape': 131, 'style': shp, 's': 0.2, 'r': 180.0, 'x': 0.2}), (-0.2, None)]),
        ('BATTING', 'Batting SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS', [(0.0001, None), (-0.1, {'shape': 134, 'style': shp, 's': 0.1, 'x': -0.1}), (-0.2, {'shape': 134, 'style': shp, 's': 0.1, 'r': 180.0, 'x': 0.1}), (-0.1, None)]),
        ('GAS_LINE', 'Gas line ----GAS----GAS----GAS----GAS----GAS---', [(0.5, None), (-0.2, {'text': 'GAS', 'style': std, 's': 0.1, 'x': -0.1, 'y': -0.05}), (-0.25, None)]),
    ]
    tables(d, lts, [(std, 'Standard', 'txt.shx'), (shp, '', 'ltypeshp.shx', 1)])
    d.g(0, 'SECTION'); d.g(2, 'ENTITIES')
    for i, (name, _, _) in enumerate(lts):
        y = 6.0 - i
        line(d, (0.0, y), (5.0, y), name)
    # A diagonal fence: the shapes turn with the line.
    line(d, (5.5, 0.0), (5.5, 6.0), 'FENCELINE2')
    entity(d, 'SHAPE', 'AcDbShape')
    d.g(10, 1.0); d.g(20, -0.5); d.g(30, 0.0); d.g(40, 0.3); d.g(2, 'BOX'); d.g(50, 15.0)
    finish(d, 'gen_linetype_shapes.dxf')


def gen_table():
    d = Dxf()
    header(d, (0.0, -40.0), (120.0, 0.0))
    tables(d, [], [('11', 'Standard', 'txt.shx')])
    d.g(0, 'SECTION'); d.g(2, 'ENTITIES')
    rows = [['序号', '名称', '数量', '材料'], ['1', '底座', '1', 'HT200'], ['2', '轴', '2', '45'], ['3', '端盖', '2', 'Q235']]
    entity(d, 'ACAD_TABLE', 'AcDbBlockReference')
    d.g(10, 0.0); d.g(20, 0.0); d.g(30, 0.0)
    d.g(100, 'AcDbTable')
    d.g(91, len(rows)); d.g(92, len(rows[0]))
    for _ in rows:
        d.g(141, 8.0)
    for w in (15.0, 40.0, 20.0, 35.0):
        d.g(142, w)
    for row in rows:
        for cell in row:
            d.g(171, 1); d.g(1, cell)
    d.g(0, 'ENDSEC'); d.g(0, 'EOF')
    with open(os.path.join(OUT, 'gen_table.dxf'), 'w', newline='\r\n', encoding='utf-8') as f:
        f.write(d.text().replace('AC1015', 'AC1021'))


if __name__ == '__main__':
    gen_tolerance()
    gen_linetypes()
    gen_table()
