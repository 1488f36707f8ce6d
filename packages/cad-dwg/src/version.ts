/** DWG file signatures: the six ASCII bytes every DWG starts with. */

const KNOWN = new Set([
  'AC1.2', // R1.2 ('AC1.2' + NUL)
  'AC1.40',
  'AC1.50',
  'AC2.10',
  'AC2.21',
  'AC2.22',
  'AC1001',
  'AC1002',
  'AC1003',
  'AC1004',
  'AC1006',
  'AC1009',
  'AC1012',
  'AC1014',
  'AC1015',
  'AC1018',
  'AC1021',
  'AC1024',
  'AC1027',
  'AC1032',
]);

/** The version signature ('AC1015', 'AC1.40', ...) when the bytes look like a DWG file, else null. */
export function dwgSignature(bytes: Uint8Array): string | null {
  if (bytes.length < 6 || bytes[0] !== 0x41 || bytes[1] !== 0x43) return null;
  let s = '';
  for (let i = 0; i < 6; i++) {
    const c = bytes[i] as number;
    if (c === 0 && i >= 5) break;
    if (c < 0x20 || c > 0x7e) return null;
    s += String.fromCharCode(c);
  }
  return /^AC(\d{4}|[12]\.\d{1,2})$/.test(s) ? s : null;
}

/** True when LibreDWG can read this release. */
export function isSupportedSignature(signature: string): boolean {
  return KNOWN.has(signature);
}
