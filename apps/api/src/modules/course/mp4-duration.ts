// The duration an MP4 declares in its movie header (ISO/IEC 14496-12 `moov/mvhd`), read without
// ffprobe, so the course importer can refuse a lesson whose authored duration is not its clip's.

function boxes(bytes: Uint8Array, start: number, end: number): Array<{ type: string; start: number; end: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: Array<{ type: string; start: number; end: number }> = [];
  let offset = start;
  while (offset + 8 <= end) {
    let size = view.getUint32(offset);
    const type = String.fromCharCode(bytes[offset + 4] ?? 0, bytes[offset + 5] ?? 0, bytes[offset + 6] ?? 0, bytes[offset + 7] ?? 0);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > end) break;
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < header || offset + size > end) break;
    found.push({ type, start: offset + header, end: offset + size });
    offset += size;
  }
  return found;
}

/** Seconds the movie header declares; undefined when `bytes` is not an MP4 with a readable `mvhd`. */
export function mp4DurationSeconds(bytes: Uint8Array): number | undefined {
  const moov = boxes(bytes, 0, bytes.length).find((box) => box.type === 'moov');
  if (moov === undefined) return undefined;
  const mvhd = boxes(bytes, moov.start, moov.end).find((box) => box.type === 'mvhd');
  if (mvhd === undefined) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = bytes[mvhd.start];
  // version 0: creation, modification (4 bytes each), timescale, duration (4); version 1: 8, 8, 4, 8.
  const timescaleAt = mvhd.start + (version === 1 ? 20 : 12);
  const durationSize = version === 1 ? 8 : 4;
  if (timescaleAt + 4 + durationSize > mvhd.end) return undefined;
  const timescale = view.getUint32(timescaleAt);
  const duration = version === 1 ? Number(view.getBigUint64(timescaleAt + 4)) : view.getUint32(timescaleAt + 4);
  if (timescale === 0) return undefined;
  return duration / timescale;
}
