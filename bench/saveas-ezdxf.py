#!/usr/bin/python3
"""ezdxf's reading of the DXF files the save-as sweep writes (bench/saveas.bench.ts runs this).

Usage: /usr/bin/python3 bench/saveas-ezdxf.py    (one DXF path per stdin line; one JSON line per file)

Per file: whether ezdxf 0.18 reads it (`ezdxf.readfile`, strict: no recover mode), its DXF version,
the entities by type in the model, the paper layouts and every block that is not a layout's (an
INSERT's ATTRIBs counted as ATTRIB, a POLYLINE once without its VERTEXes: as our reader counts
them), then its audit: the errors it could not fix and the fixes it made, with the first messages.
The counts are taken before the audit (the audit changes the document).
"""
import json
import sys

import ezdxf

LAYOUT_BLOCKS = ('*model_space', '*paper_space', '$model_space', '$paper_space')


def count(counts, entities):
    for e in entities:
        t = e.dxftype()
        counts[t] = counts.get(t, 0) + 1
        if t == 'INSERT':
            n = len(e.attribs)
            if n:
                counts['ATTRIB'] = counts.get('ATTRIB', 0) + n


def check(path):
    result = {'ok': False}
    try:
        doc = ezdxf.readfile(path)
    except Exception as exc:  # noqa: BLE001 - every failure is reported, not raised
        result['error'] = f'{type(exc).__name__}: {exc}'[:300]
        return result
    result['ok'] = True
    result['version'] = doc.dxfversion
    counts = {}
    try:
        for name in doc.layouts.names():
            count(counts, doc.layouts.get(name))
        for block in doc.blocks:
            if not block.name.lower().startswith(LAYOUT_BLOCKS):
                count(counts, block)
    except Exception as exc:  # noqa: BLE001
        result['error'] = f'counting: {type(exc).__name__}: {exc}'[:300]
    result['counts'] = counts
    try:
        auditor = doc.audit()
        result['auditErrors'] = len(auditor.errors)
        result['auditFixes'] = len(auditor.fixes)
        result['auditMessages'] = [e.message[:160] for e in list(auditor.errors)[:3]] + [f.message[:160] for f in list(auditor.fixes)[:3]]
    except Exception as exc:  # noqa: BLE001
        result['auditErrors'] = 1
        result['auditFixes'] = 0
        result['auditMessages'] = [f'the audit failed: {type(exc).__name__}: {exc}'[:300]]
    return result


for line in sys.stdin:
    path = line.strip()
    if path:
        print(json.dumps(check(path), ensure_ascii=False), flush=True)
