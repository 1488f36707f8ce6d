/** TEXT, ATTRIB, ATTDEF and MTEXT (placeholder: one line, left aligned, no inline codes). */
import type { MTextEntity, TextEntity } from '../model';
import type { EntityHandler } from '../display/context';
import { textMatrix } from '../display/matrix';

export const drawText: EntityHandler<TextEntity> = (e, ctx) => {
  const text = e.type === 'ATTDEF' ? (e.tag ?? '') : e.text;
  const style = ctx.drawing.textStyles[e.style];
  const font = ctx.fonts.resolve(style, text);
  const size = e.height / font.capHeight;
  const m = ctx.ocs(e);
  const matrix = textMatrix(m, e.insertion[0], e.insertion[1], (e.rotation * Math.PI) / 180, e.widthFactor, (e.oblique * Math.PI) / 180);
  ctx.text({ style: ctx.style(e), text, matrix, size, width: font.measure(text) * size }, font.ref);
};

export const drawMText: EntityHandler<MTextEntity> = (e, ctx) => {
  const text = e.text.replace(/\\P/g, ' ').replace(/\\[A-Za-z][^;\\]*;/g, '').replace(/[{}]/g, '');
  const style = ctx.drawing.textStyles[e.style];
  const font = ctx.fonts.resolve(style, text);
  const size = e.height / font.capHeight;
  const matrix = textMatrix(ctx.ocs(e), e.insertion[0], e.insertion[1] - e.height, (e.rotation * Math.PI) / 180);
  ctx.text({ style: ctx.style(e), text, matrix, size, width: font.measure(text) * size }, font.ref);
};
