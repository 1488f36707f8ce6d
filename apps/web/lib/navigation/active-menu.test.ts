import { describe, expect, it } from 'vitest';
import { activeMenuKey } from './active-menu';

// Each case is checked as served (no prefix), under `/en`, and as the internal `/zh-CN` path
// Next.js may report during server rendering after the proxy's rewrite.
const CASES: ReadonlyArray<readonly [string, ReturnType<typeof activeMenuKey>]> = [
  ['/', 'home'],
  ['/12345', 'help'],
  ['/12345.html', 'help'],
  ['/12345/2', 'help'],
  ['/dailypics/88', 'dailypic'],
  ['/dailypics/88/3', 'dailypic'],
  ['/dailypic.html', 'dailypic'],
  ['/buy.html', 'buy'],
  ['/buy/cadeditor.html', 'buy'],
  ['/buy/cadconverterapp.html', 'buy'],
  ['/download.html', 'download'],
  ['/download-converter.html', 'download'],
  ['/download-mobile-lookchart.html', 'download'],
  ['/help.html', 'help'],
  ['/help/3', 'help'],
  ['/tag/17', 'help'],
  ['/lingwai.html', 'help'],
  ['/lingwai/some-slug', 'help'],
  ['/basics.html', 'tutorials'],
  ['/master.html', 'tutorials'],
  ['/video.html', 'tutorials'],
  ['/tools', 'tools'],
  ['/tools.html', 'tools'],
  ['/tools/cad2pdf', 'tools'],
  ['/tools/pdf2cad', 'tools'],
  ['/kantu', 'tools'],
  ['/invoice.html', 'services'],
  ['/complaint.html', 'services'],
  ['/jianyi.html', 'services'],
  ['/意见反馈.html', 'services'],
  ['/%E6%84%8F%E8%A7%81%E5%8F%8D%E9%A6%88.html', 'services'],
  ['/feedback.html', 'services'],
  ['/personal.html', null],
  ['/privacy.html', null],
  ['/loginPhone', null],
];

describe('activeMenuKey', () => {
  it.each(CASES)('maps %s to %s', (path, key) => {
    expect(activeMenuKey(path)).toBe(key);
  });

  it.each(CASES)('maps /en%s to %s', (path, key) => {
    expect(activeMenuKey(path === '/' ? '/en' : `/en${path}`)).toBe(key);
  });

  it.each(CASES)('maps the internal /zh-CN%s to %s', (path, key) => {
    expect(activeMenuKey(path === '/' ? '/zh-CN' : `/zh-CN${path}`)).toBe(key);
  });

  it('treats /en/ and a query string like the bare path', () => {
    expect(activeMenuKey('/en/')).toBe('home');
    expect(activeMenuKey('/help.html?page=2')).toBe('help');
  });

  it('does not take look-alike paths for menu sections', () => {
    expect(activeMenuKey('/buyer.html')).toBeNull();
    expect(activeMenuKey('/toolshed')).toBeNull();
    expect(activeMenuKey('/helpful.html')).toBeNull();
    expect(activeMenuKey('/12345.htm')).toBeNull();
    expect(activeMenuKey('/english')).toBeNull();
  });
});
