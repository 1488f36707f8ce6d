import { describe, expect, it } from 'vitest';
import { resolveRoute } from '../routes';
import { activeMenuKey } from './active-menu';
import {
  articlePath,
  FOOTER_LEGAL_LINKS,
  FOOTER_SOFTWARE_LINKS,
  FOOTER_TOOL_LINKS,
  GUIDES_INDEX_PATH,
  MOBILE_FOOTER_LINKS,
} from './footer-links';
import { DAILYPIC_INDEX_PATH, HOME_GUIDE_FALLBACK_LINKS, HOME_PRODUCTS, HOME_SLIDES } from './home-links';
import { PRODUCTS } from '@xcad/protocol';
import {
  isPersonalPath,
  MENU,
  MENU_KEYS,
  MOBILE_LOGIN_PATH,
  mobileLoginHref,
  PERSONAL_PATH,
  PRODUCT_BUY_PATHS,
  USER_MENU_LINKS,
} from './menu';

const allLinks = MENU.flatMap((item) => [item.href, ...item.children.map((child) => child.href)]);

describe('header menu data', () => {
  it('has the eight entries of spec §2 in order', () => {
    expect(MENU.map((item) => item.key)).toEqual([...MENU_KEYS]);
  });

  it.each(allLinks)('links %s to a route of spec §2', (href) => {
    expect(resolveRoute(href)).not.toBeNull();
  });

  it.each([
    ...USER_MENU_LINKS.map((link) => link.href),
    ...[...FOOTER_SOFTWARE_LINKS, ...FOOTER_TOOL_LINKS, ...FOOTER_LEGAL_LINKS, ...MOBILE_FOOTER_LINKS].map((link) => link.href),
    GUIDES_INDEX_PATH,
    MOBILE_LOGIN_PATH,
    PERSONAL_PATH,
    ...Object.values(PRODUCT_BUY_PATHS),
    ...HOME_SLIDES.flatMap((slide) => [slide.primary, slide.secondary]),
    ...HOME_PRODUCTS.flatMap((product) => [product.primary.href, product.secondary.href]),
    ...HOME_GUIDE_FALLBACK_LINKS.map((link) => link.href),
    DAILYPIC_INDEX_PATH,
  ])('links the user menu, footer and home page entry %s to a route', (href) => {
    expect(resolveRoute(href)).not.toBeNull();
  });

  it('links a guide to its article page /{id}.html, served by the article route', () => {
    expect(articlePath(5021)).toBe('/5021.html');
    expect(resolveRoute(articlePath(5021))?.route.name).toBe('index-id');
  });

  it('lists the sub-entries the spec names for each section', () => {
    const hrefs = (key: string) => MENU.find((item) => item.key === key)?.children.map((child) => child.href);
    expect(hrefs('buy')).toEqual([
      '/buy/cadeditor.html',
      '/buy/cadconverter.html',
      '/buy/cadholdall.html',
      '/buy/cadresources.html',
      '/buy/cadtuku.html',
    ]);
    expect(hrefs('download')).toEqual([
      '/download.html',
      '/download-converter.html',
      '/download-lookchart.html',
      '/download-holdall.html',
      '/download-converter-app.html',
    ]);
    expect(hrefs('tutorials')).toEqual(['/basics.html', '/master.html']);
    expect(hrefs('tools')).toEqual(['/tools/cad2pdf', '/tools/cad2jpg', '/tools/cad2ver', '/tools/pdf2cad', '/kantu']);
    expect(hrefs('services')).toEqual(['/invoice.html', encodeURI('/意见反馈.html'), '/complaint.html']);
  });

  it('marks every entry active on its own pages', () => {
    for (const item of MENU) {
      expect(activeMenuKey(item.href)).toBe(item.key);
      for (const child of item.children) expect(activeMenuKey(child.href)).toBe(item.key);
    }
  });

  it('gives sub-entries unique keys within their section', () => {
    for (const item of MENU) {
      const keys = item.children.map((child) => child.key);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});

describe('account links', () => {
  it('gives each of the six products of spec §6 a buy page of the buy section', () => {
    for (const product of PRODUCTS) {
      const path = PRODUCT_BUY_PATHS[product.key];
      expect(resolveRoute(path)?.route.parent).toBe('buy');
    }
  });

  it('sends a mobile visitor to the phone login with the page to come back to', () => {
    const href = mobileLoginHref('/en/personal-base.html');
    expect(href.startsWith('/loginPhone?')).toBe(true);
    expect(new URL(href, 'http://site.test').searchParams.get('redirect')).toBe('/en/personal-base.html');
  });

  it.each(['/personal.html', '/personal-base.html', '/personal-buy.html', '/personal-download.html', '/personal-openvip.html'])(
    'counts %s as a personal page',
    (path) => {
      expect(isPersonalPath(path)).toBe(true);
      expect(resolveRoute(path)?.route.layout).toBe('center');
    },
  );

  it.each(['/', '/personal', '/personal.html.bak', '/buy.html', '/help/personal.html'])('does not count %s as a personal page', (path) => {
    expect(isPersonalPath(path)).toBe(false);
  });
});
