import { describe, expect, it } from 'vitest';
import { alternateLinks } from './alternates';
import { SITE_URL } from './site-url';

describe('alternateLinks (spec §2: canonical and alternate links per locale)', () => {
  it('gives a Chinese page its unprefixed canonical URL and both locales as alternates', () => {
    expect(alternateLinks('/help.html', 'zh-CN')).toEqual({
      canonical: `${SITE_URL}/help.html`,
      languages: { 'zh-CN': `${SITE_URL}/help.html`, en: `${SITE_URL}/en/help.html`, 'x-default': `${SITE_URL}/help.html` },
    });
  });

  it('gives an English page its /en canonical URL', () => {
    expect(alternateLinks('/', 'en').canonical).toBe(`${SITE_URL}/en`);
    expect(alternateLinks('/', 'en').languages['zh-CN']).toBe(`${SITE_URL}/`);
  });
});
