#!/usr/bin/env python3
"""Preview images and facts of DXF drawings, for the site's drawing library (decision 0012).

An authoring tool, run by hand when a drawing is added under content/files/: it renders the
drawing's model space (or a named layout) to a fixed-size picture, fitted tightly with a small
margin, and can print what is inside the file (version, units, layers, entity counts, blocks,
hatch patterns, dimension and text styles) so a post describes the drawing truthfully.

Needs ezdxf with matplotlib and Pillow (Debian: python3-ezdxf python3-matplotlib python3-pil;
on a machine where `python3` is another interpreter, run it with /usr/bin/python3).

Usage:
  drawing-previews.py INPUT.dxf OUTPUT.(webp|jpg|png) [--size 960x720] [--background dark|light]
                      [--layout NAME] [--window X1,Y1,X2,Y2] [--all-layers] [--margin 0.04]
                      [--quality 80]
  drawing-previews.py INPUT.dxf --info          # facts as JSON on stdout

DWG files cannot be read by ezdxf: render the DXF twin of the same drawing instead.
Exit status: 0 done, 1 the drawing rendered empty or could not be read, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import math
import sys
from collections import Counter
from pathlib import Path

try:
    import ezdxf
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from ezdxf.addons.drawing import Frontend, RenderContext
    from ezdxf.addons.drawing import mpl_text_renderer
    from ezdxf.addons.drawing.config import Configuration
    from ezdxf.addons.drawing.matplotlib import MatplotlibBackend
    from matplotlib.font_manager import FontProperties
    from PIL import Image
except ImportError as missing:  # pragma: no cover - environment problem, said plainly
    sys.exit(f"drawing-previews: {missing}. Install python3-ezdxf, python3-matplotlib and python3-pil "
             "(or run with /usr/bin/python3 where Debian's packages live).")

BACKGROUNDS = {"dark": "#141b2d", "light": "#ffffff"}
# Chinese text in drawings (gen_zh_*, mlcad_*) needs a CJK face after the drawing's own font;
# matplotlib >= 3.6 falls back glyph by glyph through a family list.
# (matplotlib registers only the first face of Noto's .ttc, named JP; it holds every Chinese glyph.)
CJK_FALLBACK = ["Noto Sans CJK SC", "Noto Sans CJK JP", "WenQuanYi Zen Hei"]
DEFAULT_FAMILIES = ["DejaVu Sans", *CJK_FALLBACK]


def _with_cjk_fallback() -> None:
    # Missing SHX/TTF faces of a drawing are expected; matplotlib's per-font warnings are noise.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    available = {entry.name for entry in matplotlib.font_manager.fontManager.ttflist}
    CJK_FALLBACK[:] = [name for name in CJK_FALLBACK if name in available]
    DEFAULT_FAMILIES[:] = ["DejaVu Sans", *CJK_FALLBACK]
    original = mpl_text_renderer._get_font_properties

    def font_properties(font):  # type: ignore[no-untyped-def]
        properties = original(font)
        if properties is None:
            return None
        families = properties.get_family()
        return FontProperties(family=[*families, *CJK_FALLBACK], style=properties.get_style(),
                              stretch=properties.get_stretch(), weight=properties.get_weight())

    mpl_text_renderer._get_font_properties = font_properties


def parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError("size is WIDTHxHEIGHT, e.g. 960x720") from None
    if not (16 <= width <= 4096 and 16 <= height <= 4096):
        raise argparse.ArgumentTypeError("width and height must be 16..4096 pixels")
    return width, height


def parse_window(text: str) -> tuple[float, float, float, float]:
    try:
        x1, y1, x2, y2 = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("window is X1,Y1,X2,Y2 in drawing units") from None
    if x2 <= x1 or y2 <= y1:
        raise argparse.ArgumentTypeError("window needs X2 > X1 and Y2 > Y1")
    return x1, y1, x2, y2


def read(path: Path):  # type: ignore[no-untyped-def]
    if path.suffix.lower() == ".dwg":
        sys.exit(f"drawing-previews: {path} is a DWG; ezdxf reads DXF only, render its DXF twin")
    try:
        return ezdxf.readfile(str(path))
    except (OSError, ezdxf.DXFStructureError) as error:
        print(f"drawing-previews: cannot read {path}: {error}", file=sys.stderr)
        sys.exit(1)


def layout_of(doc, name: str | None):  # type: ignore[no-untyped-def]
    if name is None or name.lower() == "model":
        return doc.modelspace()
    if name not in doc.layouts:
        sys.exit(f"drawing-previews: no layout {name!r}; layouts: {', '.join(doc.layouts.names())}")
    return doc.layouts.get(name)


def render(doc, layout, size: tuple[int, int], background: str, window, margin: float, all_layers: bool) -> Image.Image:  # type: ignore[no-untyped-def]
    width, height = size
    dpi = 100
    figure = plt.figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    axes = figure.add_axes([0, 0, 1, 1])
    color = BACKGROUNDS[background]
    context = RenderContext(doc)
    context.set_current_layout(layout)
    context.current_layout_properties.set_colors(color)
    if all_layers:
        # Layers switched off in the file (detail sheets often are) still belong in the preview.
        def switch_on(layers):  # type: ignore[no-untyped-def]
            for layer in layers:
                layer.is_visible = True

        context.set_layer_properties_override(switch_on)
    backend = MatplotlibBackend(axes, adjust_figure=False, font=FontProperties(family=DEFAULT_FAMILIES))
    config = Configuration.defaults().with_changes(lineweight_scaling=1.2)
    Frontend(context, backend, config=config).draw_layout(layout, finalize=True)
    axes.set_facecolor(color)
    figure.set_facecolor(color)

    if window is None:
        limits = axes.dataLim
        if not math.isfinite(limits.x0) or limits.width <= 0 and limits.height <= 0:
            plt.close(figure)
            raise ValueError("nothing was drawn")
        x1, y1, x2, y2 = limits.x0, limits.y0, limits.x1, limits.y1
    else:
        x1, y1, x2, y2 = window
    # Fit the extents into the picture's aspect ratio, centred, with `margin` on the long side.
    data_w, data_h = max(x2 - x1, 1e-9), max(y2 - y1, 1e-9)
    scale = max(data_w / width, data_h / height) * (1 + 2 * margin)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    axes.set_aspect("auto")
    axes.set_xlim(cx - scale * width / 2, cx + scale * width / 2)
    axes.set_ylim(cy - scale * height / 2, cy + scale * height / 2)

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, facecolor=color)
    plt.close(figure)
    buffer.seek(0)
    image = Image.open(buffer).convert("RGB")
    if image.size != size:
        image = image.resize(size, Image.LANCZOS)
    return image


def is_blank(image: Image.Image) -> bool:
    """True when (almost) every pixel is the background colour: a useless preview."""
    small = image.resize((160, 120))
    background = small.getpixel((0, 0))
    differing = sum(1 for pixel in small.getdata() if max(abs(a - b) for a, b in zip(pixel, background)) > 24)
    return differing < 40


def save(image: Image.Image, output: Path, quality: int) -> None:
    suffix = output.suffix.lower()
    output.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".webp":
        image.save(output, "WEBP", quality=quality, method=6)
    elif suffix in (".jpg", ".jpeg"):
        image.save(output, "JPEG", quality=quality, optimize=True, progressive=True)
    elif suffix == ".png":
        image.quantize(colors=64, method=Image.MEDIANCUT, dither=Image.NONE).save(output, "PNG", optimize=True)
    else:
        sys.exit(f"drawing-previews: output must end in .webp, .jpg or .png, not {output.name}")


def facts(doc, path: Path) -> dict:  # type: ignore[no-untyped-def]
    msp = doc.modelspace()
    entities = Counter(entity.dxftype() for entity in msp)
    used_layers = Counter(entity.dxf.layer for entity in msp if entity.dxf.hasattr("layer"))
    inserted = Counter(entity.dxf.name for entity in msp.query("INSERT"))
    hatch_patterns = Counter(entity.dxf.pattern_name for entity in doc.entitydb.values()
                             if entity.is_alive and entity.dxftype() == "HATCH")
    texts = [entity.dxf.text for entity in msp.query("TEXT")][:40]
    mtexts = [entity.plain_text()[:80] for entity in msp.query("MTEXT")][:20]
    attribs = [f"{attrib.dxf.tag}={attrib.dxf.text}" for insert in msp.query("INSERT") for attrib in insert.attribs][:30]
    try:
        extents = ezdxf.bbox.extents(msp, fast=True)
        box = [round(value, 2) for value in (*extents.extmin.vec2, *extents.extmax.vec2)] if extents.has_data else None
    except Exception:  # noqa: BLE001 - extents are a convenience, not essential
        box = None
    return {
        "file": path.name,
        "bytes": path.stat().st_size,
        "version": doc.dxfversion,
        "release": ezdxf.const.acad_release.get(doc.dxfversion, "?"),
        "encoding": doc.encoding,
        "insunits": doc.header.get("$INSUNITS", 0),
        "measurement": doc.header.get("$MEASUREMENT", None),
        "extents": box,
        "layers": sorted(layer.dxf.name for layer in doc.layers),
        "layers_used": dict(used_layers.most_common()),
        "linetypes": sorted(linetype.dxf.name for linetype in doc.linetypes),
        "text_styles": sorted(style.dxf.name for style in doc.styles if style.dxf.name),
        "dim_styles": sorted(style.dxf.name for style in doc.dimstyles),
        "blocks": sorted(block.name for block in doc.blocks if not block.name.startswith("*")),
        "inserted_blocks": dict(inserted.most_common(30)),
        "hatch_patterns": dict(hatch_patterns.most_common()),
        "modelspace_entities": dict(entities.most_common()),
        "layouts": doc.layouts.names(),
        "texts": texts,
        "mtexts": mtexts,
        "attribs": attribs,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Render a DXF drawing to a preview image, or print its facts.")
    parser.add_argument("input", type=Path, help="the .dxf file")
    parser.add_argument("output", type=Path, nargs="?", help="the picture to write (.webp, .jpg or .png)")
    parser.add_argument("--size", type=parse_size, default=(960, 720), help="WIDTHxHEIGHT in pixels (960x720)")
    parser.add_argument("--background", choices=sorted(BACKGROUNDS), default="dark", help="dark (CAD model space) or light")
    parser.add_argument("--layout", help="a paper-space layout to render instead of the model space")
    parser.add_argument("--window", type=parse_window, help="render only X1,Y1,X2,Y2 (drawing units)")
    parser.add_argument("--all-layers", action="store_true", help="draw layers that are off or frozen in the file too")
    parser.add_argument("--margin", type=float, default=0.04, help="free border as a fraction of the picture (0.04)")
    parser.add_argument("--quality", type=int, default=80, help="WebP/JPEG quality 1..100 (80)")
    parser.add_argument("--info", action="store_true", help="print the drawing's facts as JSON and exit")
    args = parser.parse_args(argv)

    if not args.input.is_file():
        parser.error(f"{args.input} is not a file")
    doc = read(args.input)
    if args.info:
        json.dump(facts(doc, args.input), sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    if args.output is None:
        parser.error("give OUTPUT or --info")
    if not 0 <= args.margin < 0.45 or not 1 <= args.quality <= 100:
        parser.error("margin must be 0..0.45 and quality 1..100")

    _with_cjk_fallback()
    layout = layout_of(doc, args.layout)
    try:
        image = render(doc, layout, args.size, args.background, args.window, args.margin, args.all_layers)
    except ValueError as error:
        print(f"drawing-previews: {args.input.name}: {error}", file=sys.stderr)
        return 1
    if is_blank(image):
        print(f"drawing-previews: {args.input.name}: the preview is (almost) empty; try --layout or --window", file=sys.stderr)
        return 1
    save(image, args.output, args.quality)
    print(f"{args.output} {image.size[0]}x{image.size[1]} {args.output.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
