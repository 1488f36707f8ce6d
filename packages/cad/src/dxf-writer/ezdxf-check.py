"""Loads DXF files with ezdxf, one path per stdin line; prints one JSON object per file.

Used by writer.test.ts: one Python process checks a whole batch of written files.
"""
import json
import sys

import ezdxf

LAYOUT_BLOCKS = ('*model_space', '*paper_space', '$model_space', '$paper_space')


def texts(layout):
    out = []
    for e in layout:
        t = e.dxftype()
        if t in ('TEXT', 'ATTRIB', 'ATTDEF'):
            out.append(e.dxf.text)
        elif t == 'MTEXT':
            out.append(e.text)
        if t == 'INSERT':
            out.extend(a.dxf.text for a in e.attribs)
    return out


for line in sys.stdin:
    path = line.strip()
    if not path:
        continue
    result = {'path': path}
    try:
        doc = ezdxf.readfile(path)
        result['version'] = doc.dxfversion
        result['msp'] = len(doc.modelspace())
        result['layouts'] = {name: len(doc.layouts.get(name)) for name in doc.layouts.names()}
        blocks = [b for b in doc.blocks if not b.name.lower().startswith(LAYOUT_BLOCKS)]
        result['blocks'] = len(blocks)
        all_texts = texts(doc.modelspace())
        for b in blocks:
            all_texts.extend(texts(b))
        result['texts'] = all_texts
    except Exception as exc:  # noqa: BLE001 - every failure is reported, not raised
        result['error'] = f'{type(exc).__name__}: {exc}'
    print(json.dumps(result, ensure_ascii=False), flush=True)
