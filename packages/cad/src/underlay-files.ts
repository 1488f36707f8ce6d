/**
 * The pages of PDF underlays whose file was given with the drawing (`ConvertOptions.underlayPages`,
 * which reads the PDF with the PDF reader, pdf/): each page taken once into a block of the drawing,
 * which the display draws under the underlay (display/underlay.ts). A file not given, or one that
 * cannot be read, leaves the underlay as its frame, with a warning for the unreadable one.
 */
import type { Block, Drawing, Entity, UnderlayEntity } from './model';

/**
 * One page (1-based, as text) of a PDF the drawing refers to, by the name it recorded (any folder,
 * Windows or not), converted to a drawing in millimetres; null when the file was not given. Throws
 * when the file cannot be read.
 */
export type UnderlayPages = (recordedName: string, page: string) => Promise<Drawing | null>;

export async function attachUnderlays(d: Drawing, pdfPage: UnderlayPages, warnings: string[]): Promise<void> {
  const underlays: UnderlayEntity[] = [];
  const lists = [d.modelSpace, ...Object.values(d.blocks).map((b) => b.entities), ...d.layouts.map((l) => l.entities ?? [])];
  for (const list of lists) for (const e of list) if (e.type === 'UNDERLAY' && e.dxfType === 'PDFUNDERLAY' && e.fileName) underlays.push(e);
  if (!underlays.length) return;
  const pages = new Map<string, UnderlayEntity['content'] | null>();
  let n = 0;
  for (const e of underlays) {
    const file = e.fileName as string;
    const page = /^\d+$/.test(e.page ?? '') ? (e.page as string) : '1';
    const key = `${(file.split(/[\\/]/).pop() ?? file).toLowerCase()}#${page}`;
    let content = pages.get(key);
    if (content === undefined) {
      content = null;
      try {
        const pdf = await pdfPage(file, page);
        if (pdf) {
          const name = `*PDFUNDERLAY${++n}`;
          d.blocks[name] = pageBlock(name, pdf, d);
          const [w, h] = pdf.header.extMax ?? [0, 0, 0];
          content = { block: name, width: w / 25.4, height: h / 25.4 };
        }
      } catch (err) {
        warnings.push(`PDF underlay "${file}" page ${page} could not be read: ${(err as Error).message}`);
      }
      pages.set(key, content);
    }
    if (content) e.content = content;
  }
}

/**
 * The page's entities as a block: on layer 0 (so they take the underlay's layer), in the colour
 * their PDF layer gave them; the PDF's text styles added where the drawing has none of that name.
 */
function pageBlock(name: string, pdf: Drawing, d: Drawing): Block {
  const entities: Entity[] = pdf.modelSpace.map((e) => {
    const layer = pdf.layers[e.layer];
    const byLayer = e.color.aci === undefined && e.color.rgb === undefined;
    return { ...e, layer: '0', color: byLayer && layer ? { ...layer.color } : e.color };
  });
  for (const [k, s] of Object.entries(pdf.textStyles)) if (!d.textStyles[k]) d.textStyles[k] = s;
  return { name, basePoint: [0, 0, 0], flags: 1, anonymous: true, xref: false, layer: '0', entities };
}
