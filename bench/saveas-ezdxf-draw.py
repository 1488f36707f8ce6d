#!/usr/bin/python3
"""ezdxf's pictures of a drawing and of its converted copies, in one view (bench/saveas.bench.ts runs this).

Usage: /usr/bin/python3 bench/saveas-ezdxf-draw.py WIDTH REFERENCE.dxf REFERENCE.png [RESULT.dxf RESULT.png]...

The reference is drawn first: model space, by ezdxf 0.18's matplotlib backend with the font
substitutes of bench/ezdxf-draw.py, in the view ezdxf finds for it (matplotlib's autoscale over what
it drew), WIDTH pixels wide, on white. Every result is then drawn in exactly that view (the same
limits and pixel size), so that the bench compares the pictures pixel for pixel, as it compares our
engine's: an object lost at the edge of a result shows as lost ink instead of rescaling the picture.
One JSON line per picture on stdout: {"png": path} or {"png": path, "error": text}.
"""
import importlib.util
import json
import os
import sys

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

import ezdxf  # noqa: E402
from ezdxf.addons.drawing import Frontend, RenderContext  # noqa: E402
from ezdxf.addons.drawing.config import Configuration  # noqa: E402
from ezdxf.addons.drawing.matplotlib import MatplotlibBackend  # noqa: E402
from ezdxf.addons.drawing.properties import LayoutProperties  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DPI = 100


def load_substitutes():
    spec = importlib.util.spec_from_file_location('ezdxf_draw', os.path.join(HERE, 'ezdxf-draw.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.install_font_substitutes()


def not_construction_line(entity):
    return entity.dxftype() not in ('XLINE', 'RAY')


def plot(doc, view, filter_func=None):
    """A figure with the model drawn; its construction lines reach past `view` (when given) on every side."""
    msp = doc.modelspace()
    fig = plt.figure()
    ax = fig.add_axes([0, 0, 1, 1])
    ctx = RenderContext(doc)
    props = LayoutProperties.from_layout(msp)
    props.set_colors('#ffffff')
    config = Configuration.defaults()
    if view is not None:
        (x0, x1), (y0, y1) = view
        config = config.with_changes(infinite_line_length=4 * max(x1 - x0, y1 - y0, 1.0))
    out = MatplotlibBackend(ax, adjust_figure=False)
    Frontend(ctx, out, config=config).draw_layout(msp, finalize=True, layout_properties=props, filter_func=filter_func)
    return fig, ax


def draw(path, png, width, view=None):
    """Draws `path` into `png`; returns the view (x and y limits) it was drawn in."""
    doc = ezdxf.readfile(path)
    if view is None:
        # The view is the extents of everything but the construction lines, which then run across it
        # as AutoCAD shows them (ezdxf draws them 20 units long by default), and as our engine does.
        xlines = len(doc.modelspace().query('XLINE RAY')) > 0
        fig, ax = plot(doc, None, not_construction_line if xlines else None)
        view = (ax.get_xlim(), ax.get_ylim())
        if not xlines:
            save(fig, ax, view, png, width)
            return view
        plt.close(fig)
    fig, ax = plot(doc, view)
    save(fig, ax, view, png, width)
    return view


def save(fig, ax, view, png, width):
    """Writes the figure in `view`, `width` pixels wide, on white."""
    (x0, x1), (y0, y1) = view
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect('auto')
    w = x1 - x0 if x1 > x0 else 1.0
    h = y1 - y0 if y1 > y0 else w
    height = max(1, min(8 * width, round(width * h / w)))
    fig.set_size_inches(width / DPI, height / DPI, forward=True)
    fig.savefig(png, dpi=DPI, facecolor='#ffffff')
    plt.close(fig)


def main():
    width = int(sys.argv[1])
    pairs = list(zip(sys.argv[2::2], sys.argv[3::2]))
    load_substitutes()
    view = None
    for i, (path, png) in enumerate(pairs):
        try:
            drawn = draw(path, png, width, view)
            if i == 0:
                view = drawn
            print(json.dumps({'png': png}), flush=True)
        except Exception as exc:  # noqa: BLE001 - every failure is reported, not raised
            print(json.dumps({'png': png, 'error': f'{type(exc).__name__}: {exc}'[:300]}), flush=True)
            if i == 0:
                # Without the reference's view the results cannot be drawn alike.
                for _, rest in pairs[1:]:
                    print(json.dumps({'png': rest, 'error': 'the reference was not drawn'}), flush=True)
                return


if __name__ == '__main__':
    main()
