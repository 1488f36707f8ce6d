import { inflateRawSync } from 'node:zlib';

// Decision 0043: Alipay's bill comes as a zip (its entries' names and CSVs in GBK). This reads the
// central directory and inflates one entry: enough for Alipay's two CSVs, no zip library needed.

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The entries of a zip: name (decoded with `encoding`) and a way to read the bytes. Undefined when not a zip. */
export function zipEntries(zip: Buffer, encoding = 'gbk'): Array<{ name: string; read: () => Buffer }> | undefined {
  let eocd = -1;
  for (let index = zip.length - 22; index >= Math.max(0, zip.length - 22 - 65_535); index -= 1) {
    if (zip.readUInt32LE(index) === EOCD) {
      eocd = index;
      break;
    }
  }
  if (eocd === -1) return undefined;
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const decoder = new TextDecoder(encoding);
  const entries: Array<{ name: string; read: () => Buffer }> = [];
  for (let entry = 0; entry < count; entry += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) return undefined;
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const flags = zip.readUInt16LE(at + 8);
    const nameBytes = zip.subarray(at + 46, at + 46 + nameLength);
    // Bit 11: the name is UTF-8 whatever the archive's own encoding.
    const name = (flags & 0x800) !== 0 ? nameBytes.toString('utf8') : decoder.decode(nameBytes);
    const local = zip.readUInt32LE(at + 42);
    entries.push({
      name,
      read: () => {
        if (zip.readUInt32LE(local) !== LOCAL) throw new Error(`zip entry ${name}: no local header`);
        const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
        const data = zip.subarray(start, start + size);
        if (method === 0) return Buffer.from(data);
        if (method === 8) return inflateRawSync(data);
        throw new Error(`zip entry ${name}: compression method ${method}`);
      },
    });
    at += 46 + skip;
  }
  return entries;
}
