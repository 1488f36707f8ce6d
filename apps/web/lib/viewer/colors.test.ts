import { describe, expect, it } from 'vitest';
import { BACKGROUNDS, displayColor, FOREGROUND } from './colors';

describe('screen colours', () => {
  it('draws ACI 7 white on the dark background and black on the light one', () => {
    expect(displayColor(FOREGROUND, BACKGROUNDS.dark)).toBe(0xffffff);
    expect(displayColor(FOREGROUND, BACKGROUNDS.light)).toBe(0x000000);
  });

  it('keeps colours, except those lost in the background', () => {
    expect(displayColor(0xff0000, BACKGROUNDS.dark)).toBe(0xff0000);
    expect(displayColor(0xffffff, BACKGROUNDS.light)).toBe(0x000000);
    expect(displayColor(0x000010, BACKGROUNDS.dark)).toBe(0xffffff);
    expect(displayColor(0x000010, BACKGROUNDS.light)).toBe(0x000010);
  });
});
