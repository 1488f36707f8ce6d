import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONVERSION_LIMITS } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { solidPng } from '@xcad/cad/png';
import {
  acceptsKind,
  beijingDayStart,
  downloadKeyOf,
  downloadSignatureOf,
  expectedTypesOf,
  maxFileBytesOf,
  shareCodeOf,
  sniffInputKind,
  stateCodeOf,
  statusDetailOf,
  uploadProgressOf,
} from './conversion-rules';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../packages/cad/test-fixtures');
const head = (name: string) => readFileSync(path.join(FIXTURES, name)).subarray(0, 4096);

describe('sniffInputKind', () => {
  it('knows the corpus drawings by their bytes', () => {
    expect(sniffInputKind(head('acs_sample_AC1015.dwg'))).toBe('dwg');
    expect(sniffInputKind(head('ezdxf_text.dxf'))).toBe('dxf');
    expect(sniffInputKind(head('gen_zh_r2000_gbk.dxf'))).toBe('dxf');
    expect(sniffInputKind(head('ezdxf_bin_dxf_r12.dxf'))).toBe('dxf');
    expect(sniffInputKind(head('ezdxf_bin_dxf_r2000.dxf'))).toBe('dxf');
  });

  it('knows a PDF, a DXF with comments or a BOM, a PNG or JPEG picture, and nothing else', () => {
    expect(sniffInputKind(Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1'))).toBe('pdf');
    expect(sniffInputKind(Buffer.from('999\r\nmade by a tool\r\n  0\r\nSECTION\r\n  2\r\nHEADER\r\n'))).toBe('dxf');
    expect(sniffInputKind(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('0\nSECTION\n')]))).toBe('dxf');
    // Pictures a drawing shows come with it (decision 0046): PNG and JPEG are known, GIF is not.
    expect(sniffInputKind(solidPng(4, [255, 0, 0]))).toBe('png');
    expect(sniffInputKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).toBe('jpg');
    expect(sniffInputKind(Buffer.from('GIF89a a picture named plan.dwg'))).toBeNull();
    expect(sniffInputKind(Buffer.from('PK\x03\x04 a zip named plan.dwg'))).toBeNull();
    expect(sniffInputKind(Buffer.from('  0\nSECTIONS\n'))).toBeNull();
    expect(sniffInputKind(Buffer.from('AC1'))).toBeNull();
    expect(sniffInputKind(new Uint8Array(0))).toBeNull();
  });
});

describe('tools and limits', () => {
  it('names what each tool takes', () => {
    expect(expectedTypesOf('cad2pdf')).toBe('DWG或DXF');
    expect(expectedTypesOf('pdf2cad')).toBe('PDF');
    expect(acceptsKind('cad2pdf', 'pdf')).toBe(false);
    expect(acceptsKind('pdf2cad', 'pdf')).toBe(true);
    expect(acceptsKind('cad2jpg', null)).toBe(false);
    expect(acceptsKind('cad2pdf', 'png')).toBe(true);
    expect(acceptsKind('cad2ver', 'jpg')).toBe(false);
  });

  it('takes the smaller of the tier limit and limitsize', () => {
    expect(maxFileBytesOf('visitor', undefined)).toBe(CONVERSION_LIMITS.visitor.maxFileBytes);
    expect(maxFileBytesOf('visitor', 51_200)).toBe(50 * 1024 * 1024);
    expect(maxFileBytesOf('member', 51_200)).toBe(50 * 1024 * 1024);
    expect(maxFileBytesOf('member', 1_000_000)).toBe(CONVERSION_LIMITS.member.maxFileBytes);
    expect(maxFileBytesOf('visitor', 100)).toBe(102_400);
  });

  it('counts tasks per Beijing calendar day', () => {
    // 2026-03-01 23:59:59 and 2026-03-02 00:00:00 Beijing time (UTC+8).
    const lastSecond = Date.UTC(2026, 2, 1, 15, 59, 59) / 1000;
    expect(beijingDayStart(lastSecond)).toBe(Date.UTC(2026, 1, 28, 16, 0, 0) / 1000);
    expect(beijingDayStart(lastSecond + 1)).toBe(lastSecond + 1);
  });
});

describe('what taskstate says', () => {
  it('answers the spec §8 codes', () => {
    expect(stateCodeOf('done')).toBe(10000);
    expect(['uploading', 'queued', 'processing'].map((status) => stateCodeOf(status as 'queued'))).toEqual([20000, 20000, 20000]);
    expect(stateCodeOf('failed')).toBe(18000);
    expect(stateCodeOf('cancelled')).toBe(18000);
  });

  it('counts upload progress over every file and stays under 100 until queued', () => {
    expect(
      uploadProgressOf([
        { chunks: 4, received: 1, finished: false, converted: false },
        { chunks: null, received: 0, finished: false, converted: false },
      ]),
    ).toBe(12);
    expect(uploadProgressOf([{ chunks: 2, received: 2, finished: false, converted: false }])).toBe(99);
    expect(uploadProgressOf([])).toBe(0);
  });

  it('names the file being converted', () => {
    const files = [
      { chunks: 1, received: 1, finished: true, converted: true },
      { chunks: 1, received: 1, finished: false, converted: false },
      { chunks: 1, received: 1, finished: false, converted: false },
    ];
    expect(statusDetailOf('processing', files, null)).toBe('正在转换 2/3');
    expect(statusDetailOf('queued', files, null)).toBe('排队中');
    expect(statusDetailOf('failed', files, '文件已损坏')).toBe('文件已损坏');
    expect(statusDetailOf('cancelled', files, null)).toBe('转换已取消');
  });

  it('says how many files of a done task converted when some failed (decision 0036)', () => {
    const done = { chunks: 1, received: 1, finished: true, converted: true };
    const failed = { chunks: 1, received: 1, finished: true, converted: false };
    expect(statusDetailOf('done', [done, done, failed], null)).toBe('转换完成：3个文件中2个转换成功');
    expect(statusDetailOf('done', [done, done], null)).toBe('转换完成');
  });
});

describe('signatures', () => {
  it('binds a link to its task and expiry, and a share code to its task', () => {
    const key = downloadKeyOf('secret-one');
    const sig = downloadSignatureOf(key, 'tag-a', 1_000);
    expect(downloadSignatureOf(key, 'tag-a', 1_001)).not.toBe(sig);
    expect(downloadSignatureOf(key, 'tag-b', 1_000)).not.toBe(sig);
    // One file's link signs its index: it opens neither the whole result nor another file.
    expect(downloadSignatureOf(key, 'tag-a', 1_000, 0)).not.toBe(sig);
    expect(downloadSignatureOf(key, 'tag-a', 1_000, 1)).not.toBe(downloadSignatureOf(key, 'tag-a', 1_000, 0));
    expect(downloadSignatureOf(downloadKeyOf('secret-two'), 'tag-a', 1_000)).not.toBe(sig);
    expect(shareCodeOf(key, 'tag-a')).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(shareCodeOf(key, 'tag-b')).not.toBe(shareCodeOf(key, 'tag-a'));
  });
});
