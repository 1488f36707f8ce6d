/** IMAGE (with its IMAGEDEF, written once per source) and WIPEOUT. */
import type { ImageEntity } from '../../model';
import type { Groups } from '../encode';
import { common, sub, type EntityWriterContext } from './common';

export function writeImage(w: EntityWriterContext, out: Groups, e: ImageEntity, owner: string, paper: boolean): void {
  w.classes.add(e.type);
  common(w, out, e, e.type, owner, paper);
  sub(w, out, e.type === 'IMAGE' ? 'AcDbRasterImage' : 'AcDbWipeout');
  out.g(90, 0).pt(10, e.insertion).pt(11, e.u).pt(12, e.v).pt(13, e.imageSize, true);
  if (e.type === 'IMAGE') {
    w.classes.add('IMAGEDEF');
    const key = e.imageDefHandle ?? `file:${e.fileName ?? ''}`;
    let def = w.imageDefs.get(key);
    if (!def) {
      const src = e.imageDefHandle ? w.d.imageDefs[e.imageDefHandle] : undefined;
      def = { handle: w.handle(), fileName: src?.fileName ?? e.fileName ?? '' };
      const size = src?.size;
      if (size) def.size = size;
      w.imageDefs.set(key, def);
    }
    out.g(340, def.handle);
  } else out.g(340, '0');
  out
    .g(70, e.displayFlags)
    .g(280, e.clipping ? 1 : 0)
    .g(281, 50)
    .g(282, 50)
    .g(283, 0);
  const clip = e.clipBoundary;
  out.g(71, e.clipType || 1).g(91, clip.length);
  for (const p of clip) out.pt(14, p, true);
}

// ---- tables, objects, header ----------------------------------------------------------------
