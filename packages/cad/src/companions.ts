/**
 * A drawing and the files that arrive with it: the pictures its IMAGE entities show and the
 * drawings its external references name. A drawing records each as a path on its author's machine
 * (`C:\项目\底图\site.dwg`, `../img/logo.png`, `photo.jpg`): here a reference is found by its file
 * name among the supplied files, whatever folder it recorded, Windows or not, in any letter case.
 * An xref recorded without its extension, or as `.dwg` while a `.dxf` of the same name came, is
 * found too; so is a picture saved as `.jpeg` for a `.jpg`.
 *
 * What is found is attached to the drawing (`Block.attached`, `ImageDef.attached`) for the display
 * to draw; the writers leave both out, so a save-as keeps the references as they were (AutoCAD's
 * SAVEAS does not bind xrefs either). Nested xrefs are attached too, a cycle or a nesting deeper
 * than `MAX_XREF_DEPTH` is reported instead of followed.
 */
import type { AttachedImage, Block, Drawing } from './model';
import { openDrawing } from './open';

export interface CompanionFile {
  name: string;
  bytes: Uint8Array;
}

/** What names a file: an xref block, an IMAGE's definition, a PDF underlay's definition. */
export type ReferenceKind = 'xref' | 'image' | 'underlay';

export interface ReferenceFound {
  kind: ReferenceKind;
  /** The path the drawing recorded (or the block name of an xref without one). */
  reference: string;
  /** The supplied file that answered it. */
  file: string;
}

/** Why a reference was not drawn (ReferenceMissing.reason). */
export const MISSING_REASONS = ['not-supplied', 'unreadable', 'unsupported-format', 'cycle'] as const;

export interface ReferenceMissing {
  kind: ReferenceKind;
  reference: string;
  /**
   * 'not-supplied': no file of that name came with the drawing; 'unreadable': the file came but is
   * not a drawing / picture we can read (`detail` says why); 'unsupported-format': a picture in a
   * format other than PNG or JPEG; 'cycle': an xref that refers back to a drawing it is inside of,
   * or nests deeper than MAX_XREF_DEPTH.
   */
  reason: (typeof MISSING_REASONS)[number];
  file?: string;
  detail?: string;
}

export interface ReferenceReport {
  found: ReferenceFound[];
  missing: ReferenceMissing[];
}

export const MAX_XREF_DEPTH = 4;

/** The file name of a recorded path: after its last `/` or `\`, without a drive letter. */
export function fileNameOf(path: string): string {
  const last = path.split(/[\\/]/).pop() ?? '';
  return last.replace(/^[A-Za-z]:/, '').trim();
}

const stemOf = (name: string): string => name.replace(/\.[^.]*$/, '');
const extOf = (name: string): string => (/\.([^.]*)$/.exec(name)?.[1] ?? '').toLowerCase();

const XREF_EXTENSIONS = ['dwg', 'dxf'];
const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'jpe'];

/** Where a drawing's referenced files are looked up: the files supplied with it, or a folder (the `cad` command). */
export interface CompanionSource {
  /** The file answering a recorded path, if any. */
  find(path: string, kind: ReferenceKind): CompanionFile | undefined;
}

/** The supplied files by lower-case file name. */
export class Companions implements CompanionSource {
  private readonly byName = new Map<string, CompanionFile>();

  constructor(files: readonly CompanionFile[]) {
    for (const f of files) {
      const key = fileNameOf(f.name).toLowerCase();
      if (key && !this.byName.has(key)) this.byName.set(key, f);
    }
  }

  find(path: string, kind: ReferenceKind): CompanionFile | undefined {
    for (const name of candidateNames(path, kind)) {
      const hit = this.byName.get(name);
      if (hit) return hit;
    }
    return undefined;
  }
}

/**
 * The lower-case file names that answer a recorded path, best first: its own name, then the same
 * stem with the kind's extensions (an xref recorded without one, a .dxf for a .dwg, .jpeg for .jpg).
 */
export function candidateNames(path: string, kind: ReferenceKind): string[] {
  const name = fileNameOf(path).toLowerCase();
  if (!name) return [];
  const wanted = kind === 'xref' ? XREF_EXTENSIONS : kind === 'image' ? IMAGE_EXTENSIONS : ['pdf'];
  const stem = wanted.includes(extOf(name)) || !extOf(name) ? stemOf(name) : name;
  return [name, ...wanted.map((ext) => `${stem}.${ext}`).filter((n) => n !== name)];
}

const isSource = (files: readonly CompanionFile[] | CompanionSource): files is CompanionSource => !Array.isArray(files);

/** What a drawing refers to outside itself: its xref blocks' paths and the files of the pictures it shows. */
export function referencesOf(drawing: Drawing): { kind: ReferenceKind; reference: string }[] {
  const out: { kind: ReferenceKind; reference: string }[] = [];
  for (const b of Object.values(drawing.blocks)) if (b.xref) out.push({ kind: 'xref', reference: xrefPathOf(b) });
  for (const handle of shownImageDefs(drawing)) {
    const def = drawing.imageDefs[handle];
    if (def?.fileName) out.push({ kind: 'image', reference: def.fileName });
  }
  return out;
}

const xrefPathOf = (b: Block): string => b.xrefPath || `${b.name}.dwg`;

/** The IMAGEDEF handles an IMAGE entity of the drawing uses (an unused definition asks for no file). */
function shownImageDefs(drawing: Drawing): Set<string> {
  const used = new Set<string>();
  const lists = [
    drawing.modelSpace,
    ...Object.values(drawing.blocks).map((b) => b.entities),
    ...drawing.layouts.map((l) => l.entities ?? []),
  ];
  for (const list of lists) for (const e of list) if (e.type === 'IMAGE' && e.imageDefHandle) used.add(e.imageDefHandle);
  return used;
}

/** Width and height of a PNG or JPEG from its header; null for anything else. */
export function pictureOf(bytes: Uint8Array): Pick<AttachedImage, 'mime' | 'width' | 'height'> | null {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && dv.getUint32(0) === 0x89504e47 && dv.getUint32(4) === 0x0d0a1a0a && dv.getUint32(12) === 0x49484452) {
    const width = dv.getUint32(16),
      height = dv.getUint32(20);
    return width > 0 && height > 0 ? { mime: 'image/png', width, height } : null;
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1] as number;
      if (marker === 0xff) {
        i++;
        continue;
      }
      const length = dv.getUint16(i + 2);
      // SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        const height = dv.getUint16(i + 5),
          width = dv.getUint16(i + 7);
        return width > 0 && height > 0 ? { mime: 'image/jpeg', width, height } : null;
      }
      if (length < 2) return null;
      i += 2 + length;
    }
  }
  return null;
}

export interface AttachOptions {
  /** Reads a referenced drawing (default: `openDrawing`, DWG and DXF). */
  open?: (bytes: Uint8Array, name: string) => Promise<Drawing>;
  /** The drawing's own file name: an xref back to it is a cycle. */
  name?: string;
}

/**
 * Attaches to `drawing` (and to the drawings its xrefs bring, nested) what the supplied files
 * answer, and says which references were found and which not. Never throws for a bad companion:
 * an unreadable one is reported and its reference drawn as before (not attached).
 */
export async function attachCompanions(
  drawing: Drawing,
  files: readonly CompanionFile[] | CompanionSource,
  options: AttachOptions = {},
): Promise<ReferenceReport> {
  const companions: CompanionSource = isSource(files) ? files : new Companions(files);
  const open = options.open ?? (async (bytes: Uint8Array, name: string) => (await openDrawing(bytes, name)).drawing);
  const report: ReferenceReport = { found: [], missing: [] };
  // A file referenced from several places (or several drawings) is read once.
  const read = new Map<string, Promise<Drawing | Error>>();
  const seen = new Set<string>();
  const note = (key: string, add: () => void): void => {
    if (seen.has(key)) return;
    seen.add(key);
    add();
  };

  const attach = async (d: Drawing, chain: readonly string[]): Promise<void> => {
    for (const b of Object.values(d.blocks)) {
      if (!b.xref || b.attached) continue;
      const reference = xrefPathOf(b);
      const file = companions.find(reference, 'xref');
      const key = `xref|${reference.toLowerCase()}`;
      if (!file) {
        note(key, () => report.missing.push({ kind: 'xref', reference, reason: 'not-supplied' }));
        continue;
      }
      const id = fileNameOf(file.name).toLowerCase();
      if (chain.includes(id) || chain.length > MAX_XREF_DEPTH) {
        note(key, () =>
          report.missing.push({
            kind: 'xref',
            reference,
            file: file.name,
            reason: 'cycle',
            detail: chain.includes(id)
              ? 'the drawing refers back to a drawing it is inside of'
              : `nested deeper than ${MAX_XREF_DEPTH} levels`,
          }),
        );
        continue;
      }
      let pending = read.get(id);
      if (!pending) {
        pending = open(file.bytes, file.name).then(
          async (x) => {
            await attach(x, [...chain, id]);
            return x;
          },
          (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
        );
        read.set(id, pending);
      }
      const result = await pending;
      if (result instanceof Error) {
        note(key, () => report.missing.push({ kind: 'xref', reference, file: file.name, reason: 'unreadable', detail: result.message }));
        continue;
      }
      b.attached = { file: file.name, drawing: result };
      note(key, () => report.found.push({ kind: 'xref', reference, file: file.name }));
    }

    for (const handle of shownImageDefs(d)) {
      const def = d.imageDefs[handle];
      if (!def?.fileName) continue;
      const key = `image|${def.fileName.toLowerCase()}`;
      const file = companions.find(def.fileName, 'image');
      if (!file) {
        note(key, () => report.missing.push({ kind: 'image', reference: def.fileName, reason: 'not-supplied' }));
        continue;
      }
      const picture = pictureOf(file.bytes);
      if (!picture) {
        const known = IMAGE_EXTENSIONS.includes(extOf(file.name));
        note(key, () =>
          report.missing.push({
            kind: 'image',
            reference: def.fileName,
            file: file.name,
            reason: known ? 'unreadable' : 'unsupported-format',
            detail: known
              ? 'not a PNG or JPEG picture'
              : `${extOf(file.name).toUpperCase() || 'this'} pictures are not shown (PNG and JPEG are)`,
          }),
        );
        continue;
      }
      def.attached = { file: file.name, bytes: file.bytes, ...picture };
      note(key, () => report.found.push({ kind: 'image', reference: def.fileName, file: file.name }));
    }
  };

  await attach(drawing, options.name ? [fileNameOf(options.name).toLowerCase()] : []);
  return report;
}
