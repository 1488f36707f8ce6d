/** PDFs with known geometry, written with pdfkit for the PDF -> drawing tests. */
import PDFDocument from 'pdfkit';
import { encodeOpaquePng } from '../codec/png';
import { shippedFontFile } from '../text/node-fonts';

/** A CJK font pdfkit embeds: the shipped Noto Sans SC (npm ci installs it). */
export const CJK_FONT = shippedFontFile('cjkSans') as string;

export async function pdfBytes(
  size: [number, number],
  draw: (doc: PDFKit.PDFDocument) => void,
  extra: PDFKit.PDFDocumentOptions = {},
): Promise<Uint8Array> {
  const doc = new PDFDocument({ size, margin: 0, compress: false, autoFirstPage: true, ...extra });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  draw(doc);
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

/** Page size of the main fixture, points (pdfkit draws y down from the top). */
export const PAGE: [number, number] = [400, 300];

/**
 * Page 1: a red dashed line, a blue filled rectangle, a green Bezier, black text and rotated
 * Chinese text; page 2: a black square outline and a magenta line (left out with `onePage`).
 */
export function mainFixture(onePage = false): Promise<Uint8Array> {
  return pdfBytes(PAGE, (doc) => {
    doc.save().moveTo(72, 72).lineTo(216, 72).dash(6, { space: 3 }).lineWidth(1).strokeColor('#ff0000').stroke().restore();
    doc.save().rect(100, 150, 72, 36).fillColor('#0000ff').fill().restore();
    doc.save().moveTo(200, 250).bezierCurveTo(250, 200, 300, 300, 350, 250).lineWidth(0.5).strokeColor('#00ff00').stroke().restore();
    doc.save().rect(300, 150, 60, 60).rect(315, 165, 30, 30).fillColor('#ff8040').fill('even-odd').restore();
    doc.font('Helvetica').fontSize(12).fillColor('#000000').text('Hello PDF', 20, 20, { lineBreak: false });
    doc.save().rotate(-30, { origin: [250, 120] });
    doc.font(CJK_FONT).fontSize(20).fillColor('#000000').text('旋转文字', 250, 120, { lineBreak: false });
    doc.restore();
    if (onePage) return;
    doc.addPage({ size: PAGE, margin: 0 });
    doc.save().rect(50, 50, 100, 100).lineWidth(2).strokeColor('#000000').stroke().restore();
    doc.save().moveTo(200, 50).lineTo(300, 150).strokeColor('#ff00ff').stroke().restore();
    doc.save().moveTo(50, 250).lineTo(350, 250).lineWidth(10).strokeColor('#000000').stroke().restore();
  });
}

/** Pages with a PNG image and nothing else ("scanned" pages); `withVectorPage` adds a page with a line and an image. */
export async function rasterFixture(pages = 1, withVectorPage = false): Promise<Uint8Array> {
  const png = await encodeOpaquePng({ width: 8, height: 8, rows: (_y, count) => new Uint8Array(8 * 4 * count).fill(128) });
  return pdfBytes(PAGE, (doc) => {
    for (let p = 0; p < pages; p++) {
      if (p) doc.addPage({ size: PAGE, margin: 0 });
      doc.image(png, 10, 10, { width: 200 });
    }
    if (withVectorPage) {
      doc.addPage({ size: PAGE, margin: 0 });
      doc.image(png, 10, 10, { width: 50 });
      doc.moveTo(100, 100).lineTo(200, 100).stroke();
    }
  });
}

/**
 * A plot as CAD programs print one: a dark page background (#212830, over a white one), white
 * and coloured lines, a filled glyph-like shape with curves, and a circle marker; everything
 * drawn inside a clipping rectangle 10 pt in from the page edge, some of it crossing that edge.
 */
export function darkPlotFixture(): Promise<Uint8Array> {
  return pdfBytes(PAGE, (doc) => {
    doc.rect(0, 0, PAGE[0], PAGE[1]).fillColor('#ffffff').fill();
    doc.rect(0, 0, PAGE[0], PAGE[1]).fillColor('#212830').fill();
    doc
      .save()
      .rect(10, 10, PAGE[0] - 20, PAGE[1] - 20)
      .clip();
    doc.moveTo(0, 100).lineTo(PAGE[0], 100).lineWidth(0.5).strokeColor('#ffffff').stroke();
    doc.moveTo(50, 50).lineTo(150, 250).lineWidth(0.5).strokeColor('#ff0000').stroke();
    doc
      .moveTo(200, 150)
      .bezierCurveTo(220, 120, 260, 120, 280, 150)
      .bezierCurveTo(260, 180, 220, 180, 200, 150)
      .fillColor('#ffffff')
      .fill();
    doc.circle(330, 60, 20).lineWidth(1).strokeColor('#00ff00').stroke();
    doc.restore();
  });
}
