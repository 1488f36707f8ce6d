import { describe, expect, it } from 'vitest';
import { renderScenes } from './index';
import { svgString } from './svg';
import { STYLES, layoutScene, list, modelScene, sampleScene, stroke, text } from './test-scenes';

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** A strict little XML parser: throws on anything not well-formed (unbalanced tags, bad attributes, stray '<' or '&'). */
function parseXml(src: string): XmlElement {
  let s = src.replace(/^<\?xml[^?]*\?>\s*/, '');
  const root: XmlElement = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const entity = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi;
  while (s.length) {
    const top = stack[stack.length - 1] as XmlElement;
    if (s[0] !== '<') {
      const end = s.indexOf('<');
      const chunk = end < 0 ? s : s.slice(0, end);
      if (/&/.test(chunk.replace(entity, ''))) throw new Error(`bad entity in ${chunk.slice(0, 40)}`);
      top.text += chunk
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
      s = end < 0 ? '' : s.slice(end);
      continue;
    }
    const close = /^<\/([A-Za-z][\w:-]*)\s*>/.exec(s);
    if (close) {
      if (top.name !== close[1]) throw new Error(`</${close[1]}> closes <${top.name}>`);
      stack.pop();
      s = s.slice(close[0].length);
      continue;
    }
    const open = /^<([A-Za-z][\w:-]*)((?:\s+[A-Za-z][\w:-]*="[^"<]*")*)\s*(\/?)>/.exec(s);
    if (!open) throw new Error(`not well-formed at ${s.slice(0, 60)}`);
    const attrs: Record<string, string> = {};
    for (const a of (open[2] as string).matchAll(/([A-Za-z][\w:-]*)="([^"]*)"/g)) {
      if ((a[1] as string) in attrs) throw new Error(`duplicate attribute ${a[1]}`);
      if (/&/.test((a[2] as string).replace(entity, ''))) throw new Error(`bad entity in attribute ${a[1]}`);
      attrs[a[1] as string] = a[2] as string;
    }
    const el: XmlElement = { name: open[1] as string, attrs, children: [], text: '' };
    top.children.push(el);
    if (!open[3]) stack.push(el);
    s = s.slice(open[0].length);
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]?.name}>`);
  return root;
}

function all(el: XmlElement, name: string): XmlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => all(c, name))];
}

describe('SVG', () => {
  it('is a standalone, well-formed document with a viewBox, page size in mm and a background', async () => {
    const bytes = await renderScenes([sampleScene()], { format: 'svg', paper: 'A3' });
    const src = new TextDecoder().decode(bytes);
    const doc = parseXml(src);
    const svg = doc.children[0] as XmlElement;
    expect(svg.name).toBe('svg');
    expect(svg.attrs['xmlns']).toBe('http://www.w3.org/2000/svg');
    expect(svg.attrs['width']).toBe('420mm');
    expect(svg.attrs['height']).toBe('297mm');
    expect(svg.attrs['viewBox']).toBe('0 0 420 297');
    expect(all(svg, 'rect')[0]?.attrs['fill']).toBe('#ffffff');
    // Frame, red and blue lines (the hidden layer's diagonal is not drawn).
    const paths = all(svg, 'path');
    expect(paths).toHaveLength(3);
    expect(paths.map((p) => p.attrs['stroke'])).toEqual(['#000000', '#ff0000', '#0000ff']);
    // The red line (20, 50)–(180, 50) on A3: x = 5 + 20·2.05, y flipped.
    const s = 410 / 200,
      top = (297 - 100 * s) / 2;
    const red = paths[1]?.attrs['d'] as string;
    const [, mx, my, lx, ly] = /^M([\d.]+) ([\d.]+)l([-\d.]+) ([-\d.]+)$/.exec(red) ?? [];
    expect(Number(mx)).toBeCloseTo(5 + 20 * s, 2);
    expect(Number(my)).toBeCloseTo(top + 50 * s, 2);
    expect(Number(lx)).toBeCloseTo(160 * s, 2);
    expect(Number(ly)).toBe(0);
    // Lineweights in mm: 0.25 and 0.5.
    expect(paths[1]?.attrs['stroke-width']).toBe('0.25');
    expect(paths[2]?.attrs['stroke-width']).toBe('0.5');
  });

  it('writes text elements with their transform and font, Chinese included, escaped', async () => {
    const scene = sampleScene();
    scene.list.primitives.push(text(0, 'A<B & "C"', 100, 80, 5, 0, Math.PI / 2));
    const svg = parseXml(svgString(scene, { paper: 'A3' }));
    const texts = all(svg, 'text');
    expect(texts.map((t) => t.text)).toEqual(['Hello CAD', '中文测试', 'A<B & "C"']);
    expect(texts[1]?.attrs['font-family']).toContain('Noto Sans CJK SC');
    const s = 410 / 200;
    expect(Number(texts[0]?.attrs['font-size'])).toBeCloseTo(8 * s, 3);
    expect(Number(texts[0]?.attrs['textLength'])).toBeCloseTo(9 * 8 * 0.6 * s, 2);
    // Rotated 90° counter-clockwise in the drawing: the baseline points up the page (-y).
    const m =
      /matrix\(([^)]+)\)/
        .exec(texts[2]?.attrs['transform'] as string)?.[1]
        ?.split(' ')
        .map(Number) ?? [];
    expect(m[0]).toBeCloseTo(0, 5);
    expect(m[1]).toBeCloseTo(-1, 5);
    expect(m[2]).toBeCloseTo(1, 5);
    expect(m[3]).toBeCloseTo(0, 5);
  });

  it('clips viewports with a clipPath and leaves out layers frozen in them', async () => {
    const svg = parseXml(new TextDecoder().decode(await renderScenes([layoutScene()], { format: 'svg' })));
    const root = svg.children[0] as XmlElement;
    expect(root.attrs['viewBox']).toBe('0 0 210 297');
    const clips = all(root, 'clipPath');
    expect(clips).toHaveLength(1);
    const id = clips[0]?.attrs['id'];
    expect(clips[0]?.children[0]?.attrs['d']).toBe('M50 197L150 197L150 97L50 97Z');
    const group = all(root, 'g').find((g) => g.attrs['clip-path'] === `url(#${id})`);
    expect(group).toBeDefined();
    // The diagonal and the red line inside; the frozen layer's line is not there.
    expect(group?.children.map((c) => c.attrs['stroke'])).toEqual(['#000000', '#ff0000']);
  });

  it('uses model units for a model drawing on its own page, with the precision the extents need', () => {
    const scene = modelScene(list([stroke(0, [1e6, 2e6, 1e6 + 5000.123456, 2e6 + 2500]), stroke(1, [1e6, 2e6, 1e6 + 1, 2e6])], STYLES));
    const svg = parseXml(svgString(scene, { background: 'black', color: 'mono' }));
    const root = svg.children[0] as XmlElement;
    const [, , w, h] = (root.attrs['viewBox'] as string).split(' ').map(Number);
    // 5000 units plus the 5 mm margin on each side in model units.
    const unitsPerMm = 5000.123456 / 410;
    expect(w).toBeCloseTo(5000.123456 + 10 * unitsPerMm, 1);
    expect(h).toBeCloseTo(2500 + 10 * unitsPerMm, 1);
    const d = all(root, 'path')[0]?.attrs['d'] as string;
    expect(d).toMatch(/^M[\d.]+ [\d.]+l5000\.12 -2500$/);
    expect(all(root, 'rect')[0]?.attrs['fill']).toBe('#000000');
    expect(new Set(all(root, 'path').map((p) => p.attrs['stroke']))).toEqual(new Set(['#ffffff']));
  });
});
