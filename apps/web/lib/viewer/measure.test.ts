import { describe, expect, it } from 'vitest';
import { angleAt, decimalsFor, direction, distance, formatArea, formatLength, formatNumber, polygonArea, unitSymbol } from './measure';

describe('measure', () => {
  it('measures a 3-4-5 distance with its components', () => {
    expect(distance([1, 1], [4, 5])).toEqual({ length: 5, dx: 3, dy: 4 });
  });

  it('measures the area and perimeter of a polygon in either winding', () => {
    const ccw = [
      [0, 0],
      [4, 0],
      [4, 3],
      [0, 3],
    ] as const;
    expect(polygonArea(ccw)).toEqual({ area: 12, perimeter: 14 });
    expect(polygonArea([...ccw].reverse())).toEqual({ area: 12, perimeter: 14 });
    expect(
      polygonArea([
        [0, 0],
        [1, 1],
      ]),
    ).toEqual({ area: 0, perimeter: 0 });
  });

  it('measures the angle at a vertex, 0..180 degrees', () => {
    expect(angleAt([10, 0], [0, 0], [0, 5])).toBeCloseTo(90, 12);
    expect(angleAt([10, 0], [0, 0], [-3, 0])).toBeCloseTo(180, 12);
    expect(angleAt([1, 1], [0, 0], [1, 1])).toBeCloseTo(0, 12);
    expect(direction([0, 0], [0, -2])).toBeCloseTo(270, 12);
  });

  it('names units by $INSUNITS and formats with grouping and sensible decimals', () => {
    expect(unitSymbol(4)).toBe('mm');
    expect(unitSymbol(1)).toBe('in');
    expect(unitSymbol(0)).toBe('');
    expect(formatLength(500, 4)).toBe('500.000 mm');
    expect(formatLength(12.5, 0)).toBe('12.5000');
    expect(formatNumber(1234567.891, 2)).toBe('1,234,567.89');
    expect(formatNumber(-0.5, 2)).toBe('-0.50');
    expect(decimalsFor(0.001234)).toBe(6);
    expect(formatArea(1_250_000, 4)).toBe('1,250,000 mm² (1.25000 m²)');
    expect(formatArea(2, 6)).toBe('2.00000 m²');
  });
});
