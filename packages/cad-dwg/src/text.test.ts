import { describe, expect, it } from 'vitest';
import { heapColor, modelColor } from './entities/colors';
import { codePageEncoding, codePageName, decodeEscapes, decoderFor, releaseName } from './text';
import { lineweight } from './types';
import { dwgSignature, isSupportedSignature } from './version';

describe('code pages and escapes', () => {
  it('maps LibreDWG code page numbers to $DWGCODEPAGE names and decoders', () => {
    expect(codePageName(39)).toBe('ANSI_936');
    expect(codePageEncoding(39)).toBe('gbk');
    expect(codePageName(30)).toBe('ANSI_1252');
    expect(codePageEncoding(41)).toBe('big5');
    expect(codePageEncoding(38)).toBe('shift_jis');
    expect(codePageEncoding(255)).toBe('windows-1252');
  });

  it('decodes GBK bytes of an R2000 drawing into Chinese', () => {
    // "建筑平面图" (floor plan) in GBK.
    const bytes = new Uint8Array([0xbd, 0xa8, 0xd6, 0xfe, 0xc6, 0xbd, 0xc3, 0xe6, 0xcd, 0xbc]);
    expect(decoderFor(codePageEncoding(39)).decode(bytes)).toBe('建筑平面图');
  });

  it('decodes \\U+ and \\M+ escapes, keeps MTEXT codes', () => {
    expect(decodeEscapes('\\U+5EFA\\U+7B51 \\P line')).toBe('建筑 \\P line');
    expect(decodeEscapes('\\M+5BDA8')).toBe('建');
    expect(decodeEscapes('\\A1;plain')).toBe('\\A1;plain');
  });

  it('names releases like the DXF reader', () => {
    expect(releaseName('AC1015')).toBe('R2000');
    expect(releaseName('AC1032')).toBe('R2018');
    expect(releaseName('AC1.40')).toBe('R11-');
  });
});

describe('signatures', () => {
  it('recognises DWG signatures and refuses others', () => {
    const sig = (s: string): Uint8Array => new TextEncoder().encode(s);
    expect(dwgSignature(sig('AC1015\0\0\0'))).toBe('AC1015');
    expect(dwgSignature(sig('AC1.40\0'))).toBe('AC1.40');
    expect(dwgSignature(sig('AC1.2\0\0'))).toBe('AC1.2');
    expect(dwgSignature(sig('  0\nSECTION'))).toBeNull();
    expect(dwgSignature(sig('AC'))).toBeNull();
    expect(isSupportedSignature('AC1032')).toBe(true);
    expect(isSupportedSignature('AC1099')).toBe(false);
  });
});

describe('colours and lineweights', () => {
  it('reads the ACI and true colour of a CMC colour', () => {
    expect(modelColor({ index: 256, flag: 0, rgb: 0xc3000007, method: 0xc3, alpha_type: 0, alpha: 0 }, true)).toEqual({ aci: 7 });
    expect(modelColor({ index: 42, flag: 0, rgb: 0xc2e29000, method: 0xc2, alpha_type: 0, alpha: 0 })).toEqual({ rgb: 0xe29000, aci: 42 });
    expect(modelColor({ index: 0, flag: 0, rgb: 0, method: 0, alpha_type: 0, alpha: 0 })).toEqual({ aci: 0 });
  });

  it('tells a true colour from a transparency in an entity colour, whichever slot holds which', () => {
    // acs_sample_AC1032 MTEXT 9DA: ACI 151, true colour 0x50B3FF, transparency ByBlock (DXF 440 16777216).
    expect(heapColor(151, 0x01000000, 0xc250b3ff, 0xc2, 0xff)).toEqual({ color: { rgb: 0x50b3ff, aci: 151 }, transparency: 0x01000000 });
    // SOLID 432: ByLayer colour, 60% transparent (DXF 440 33554534).
    expect(heapColor(256, 0, 0x02000066, 2, 0x66)).toEqual({ color: { aci: 256 }, transparency: 0x02000066 });
    expect(heapColor(1, 0, 0, 0, 0)).toEqual({ color: { aci: 1 }, transparency: undefined });
  });

  it('converts DWG lineweight indices to 1/100 mm', () => {
    expect([lineweight(0), lineweight(7), lineweight(9), lineweight(23)]).toEqual([0, 25, 35, 211]);
    expect([lineweight(29), lineweight(30), lineweight(31)]).toEqual([-1, -2, -3]);
  });
});
