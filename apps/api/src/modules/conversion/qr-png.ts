import { encode } from 'uqr';
import { encodeRgbPng } from '@xcad/cad/png';

// The phone QR of a conversion task (sitetaskdownqrcode): a PNG the tool pages show as <img>.

/** Quiet zone of four modules, as the QR standard asks, so phone cameras find the code. */
const QUIET_MODULES = 4;

/** A black-on-white PNG QR of `text`, `scale` pixels per module. */
export function qrPng(text: string, scale = 8): Buffer {
  const { data } = encode(text, { ecc: 'M', border: QUIET_MODULES });
  const side = data.length * scale;
  const rowBytes = 1 + side * 3;
  const pixels = new Uint8Array(rowBytes * side);
  for (let y = 0; y < side; y += 1) {
    const modules = data[Math.floor(y / scale)] ?? [];
    // Each row starts with filter byte 0 (none), then RGB triples.
    for (let x = 0; x < side; x += 1) {
      const value = modules[Math.floor(x / scale)] === true ? 0 : 255;
      const offset = y * rowBytes + 1 + x * 3;
      pixels[offset] = value;
      pixels[offset + 1] = value;
      pixels[offset + 2] = value;
    }
  }
  return encodeRgbPng(side, side, pixels);
}
