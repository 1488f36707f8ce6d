#!/usr/bin/python3
"""`python3 -m ezdxf draw` with the font substitutes of our engine (bench/cad.bench.ts runs this).

Usage: /usr/bin/python3 bench/ezdxf-draw.py -o OUT.png FILE   (any `ezdxf draw` arguments)

Why: ezdxf 0.18 sets text in the TrueType font a text style names, looked up by family in
matplotlib; Arial, Times New Roman and Courier New are not installed here, so matplotlib falls back
to DejaVu Sans, which is much wider: its lines wrap and end elsewhere than AutoCAD's, and the ink
comparison measures fonts instead of rendering. Our engine (packages/cad/src/text/fonts.ts,
`substituteFor`) sets those fonts in their metric twins instead: Liberation Sans for Arial (and the
other Arial-like names), Liberation Serif for Times, at the em size of the font they stand for (its
cap height: Liberation has Arial's advance widths per em, not its cap height), Liberation Mono for
Courier, DejaVu Sans Mono for other monospaced fonts, Noto Sans CJK for Chinese, Japanese and Korean
fonts, and DejaVu Sans for SHX fonts (none are installed) and anything else.

This wrapper gives ezdxf the same substitutes and changes nothing else: the twins are registered in
matplotlib's font lists under the original family and file names (a copy of Liberation Sans named
arial.ttf, ...), so ezdxf finds "Arial" as if it were installed and uses its own cached Arial measurements;
every other font name goes through the same classification as ours. Then ezdxf's own `draw`
command runs with the arguments given (same output, same dpi).
"""
import dataclasses
import os
import re
import shutil
import sys
import tempfile

LIB = '/usr/share/fonts/truetype/liberation'

# Twins registered under the original names: (file name, twin file, family, style, weight).
TWINS = []
for fam, stem, files in (
    ('Arial', 'LiberationSans', ('arial', 'arialbd', 'ariali', 'arialbi')),
    ('Times New Roman', 'LiberationSerif', ('times', 'timesbd', 'timesi', 'timesbi')),
):
    for name, (suffix, style, weight) in zip(files, (('Regular', 'normal', 400), ('Bold', 'normal', 700), ('Italic', 'italic', 400), ('BoldItalic', 'italic', 700))):
        TWINS.append((f'{name}.ttf', f'{LIB}/{stem}-{suffix}.ttf', fam, style, weight))

# fonts.ts: the same name classes, in the same order (substituteFor).
CJK_TTF = re.compile(
    r'^n?sim(sun|hei|kai|fang|li|you|sun-extb)|song|hei(ti)?\b|^hei|kaiti|fangsong|mingliu|pmingliu|yahei|msyh|msjh|ms p?gothic|ms p?mincho|meiryo|batang'
    r'|gulim|dotum|malgun|gungsuh|stxihei|stsong|stkaiti|stfangsong|dengxian|noto (sans|serif) cjk|source han|hiragino|pingfang|yu (gothic|mincho)|uming|ukai'
    r'|wenquanyi|wqy|droid sans fallback|[\u3400-\u9fff\uac00-\ud7af]',
    re.I,
)
SERIF_TTF = re.compile(r'times|roman|serif|georgia|garamond|cambria|bookman|palatino|century(?! gothic)|book antiqua|constantia', re.I)
COURIER_TTF = re.compile(r'courier|^cour(bd|bi|i)?(\.|$)', re.I)
MONO_TTF = re.compile(r'mono|consola|lucida console|lucida sans typewriter|fixedsys|terminal', re.I)
ARIAL_TTF = re.compile(
    r'arial|helvetica|tahoma|verdana|calibri|segoe|microsoft sans|ms sans|trebuchet|candara|corbel|franklin|gill|futura|swis|isocp|isoct|romans', re.I
)


def substitute_family(name):
    if CJK_TTF.search(name):
        return 'Noto Sans CJK JP'
    if COURIER_TTF.search(name):
        return 'Liberation Mono'
    if MONO_TTF.search(name):
        return 'DejaVu Sans Mono'
    if SERIF_TTF.search(name):
        return 'Times New Roman'
    if ARIAL_TTF.search(name):
        return 'Arial'
    return 'DejaVu Sans'


def install_font_substitutes():
    """Gives ezdxf (and matplotlib) our engine's font substitutes: see the module's text."""
    import matplotlib.font_manager as fm
    from matplotlib import ft2font

    from ezdxf.tools import fonts
    from ezdxf.tools import _matplotlib_font_support as mfs
    from ezdxf.addons.drawing import mpl_text_renderer as mtr

    # Copies, not links: matplotlib resolves a font's real path, and ezdxf keys its measurements by
    # the file name (arial.ttf must stay arial.ttf). Kept between runs.
    folder = os.path.join(tempfile.gettempdir(), f'ezdxf-draw-fonts-{os.getuid()}')
    os.makedirs(folder, exist_ok=True)
    entries = []
    for file, target, family, style, weight in TWINS:
        if not os.path.exists(target):
            continue
        copy = os.path.join(folder, file)
        if not os.path.exists(copy) or os.path.getsize(copy) != os.path.getsize(target):
            shutil.copyfile(target, f'{copy}.{os.getpid()}.tmp')
            os.replace(f'{copy}.{os.getpid()}.tmp', copy)
        entry = fm.ttfFontProperty(ft2font.FT2Font(copy))
        entries.append(dataclasses.replace(entry, fname=copy, name=family, style=style, weight=weight))

    def register(manager):
        manager.ttflist.extend(entries)
        manager._findfont_cached.cache_clear()
        return manager

    register(fm.fontManager)
    # ezdxf keeps a FontManager of its own for MTEXT layout: add the twins when it makes it.
    reset = mfs.reset_font_manager

    def reset_font_manager():
        reset()
        register(mfs._font_manager)

    mfs.reset_font_manager = reset_font_manager
    if mfs._font_manager is not None:
        register(mfs._font_manager)

    installed = {e.name.lower() for e in fm.fontManager.ttflist}

    def substitute(face):
        """The FontFace ezdxf should use for `face`: the twin, the class substitute or itself."""
        if face is None:
            return face
        ttf = (face.ttf or '').lower()
        if ttf.endswith('.shx') or fonts.map_ttf_to_shx(ttf):
            family = 'DejaVu Sans'  # an SHX font (ezdxf's TrueType stand-ins are not installed either)
        elif face.family.lower() in installed or face.family.lower() in ('sans-serif', 'serif', 'monospace'):
            return face
        else:
            # Ours classifies a font file by its file name, a family by its name.
            family = substitute_family(face.ttf or face.family)
        return face._replace(family=family)

    # Every place where ezdxf turns a FontFace into matplotlib font properties or a font file.
    get_props = mtr._get_font_properties
    mtr._get_font_properties = lambda font: get_props(substitute(font))
    get_props2 = mfs.get_font_properties
    mfs.get_font_properties = lambda face: get_props2(substitute(face))
    find_ttf = fonts.find_ttf_path
    fonts.find_ttf_path = lambda face, *a, **k: find_ttf(substitute(face), *a, **k)

    # The drawn glyphs are scaled by the font's measured cap height: for a twin, the original's
    # (ezdxf's cached Arial / Times New Roman measurements), as the MTEXT layout already does.
    twin_measure = {family: fonts.font_measurement_cache.get(file) for file, _, family, style, weight in TWINS if style == 'normal' and weight == 400}
    measure = mtr.MplTextRenderer.get_font_measurements

    def get_font_measurements(self, font):
        m = measure(self, font)
        family = font.get_family()[0] if font is not None and font.get_family() else None
        return twin_measure.get(family) or m

    mtr.MplTextRenderer.get_font_measurements = get_font_measurements


def main():
    install_font_substitutes()
    sys.argv = ['ezdxf', 'draw', *sys.argv[1:]]
    from ezdxf.__main__ import main as ezdxf_main

    ezdxf_main()


if __name__ == '__main__':
    main()
