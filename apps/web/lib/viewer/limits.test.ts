import { describe, expect, it } from 'vitest';
import { budgetOf, kindOf, sizeProblemOf } from './limits';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('device limits', () => {
  it('tells a DWG by its signature, anything else goes to the DXF reader', () => {
    expect(kindOf(bytes('AC1015\0\0'))).toBe('dwg');
    expect(kindOf(bytes('AC1032'))).toBe('dwg');
    expect(kindOf(bytes('AC1.40'))).toBe('dwg');
    expect(kindOf(bytes('  0\r\nSECTION'))).toBe('dxf');
    expect(kindOf(bytes('AutoCAD Binary DXF\r\n'))).toBe('dxf');
    expect(kindOf(bytes('AC'))).toBe('dxf');
  });

  it('gives bigger devices bigger budgets, within bounds', () => {
    const small = budgetOf({ memoryGb: 1, isMobile: true });
    const big = budgetOf({ memoryGb: 8, isMobile: false });
    expect(small.maxDxfBytes).toBeLessThan(big.maxDxfBytes);
    expect(small.maxDwgBytes).toBeLessThan(big.maxDwgBytes);
    expect(small.maxPoints).toBeLessThan(big.maxPoints);
    expect(budgetOf({ memoryGb: 64, isMobile: false })).toEqual(big);
    // The 23 MB benchmark drawing opens on a 2 GB phone; an unknown phone is taken as 4 GB.
    expect(budgetOf({ memoryGb: 2, isMobile: true }).maxDxfBytes).toBeGreaterThan(23_191_504);
    expect(budgetOf({ isMobile: true })).toEqual(budgetOf({ memoryGb: 4, isMobile: true }));
  });

  it('says when a file is too large for the device', () => {
    const b = budgetOf({ memoryGb: 2, isMobile: true });
    expect(sizeProblemOf(b.maxDwgBytes + 1, 'dwg', b)).toEqual({ maxBytes: b.maxDwgBytes });
    expect(sizeProblemOf(b.maxDwgBytes, 'dwg', b)).toBeNull();
    expect(sizeProblemOf(b.maxDwgBytes + 1, 'dxf', b)).toBeNull();
  });
});
