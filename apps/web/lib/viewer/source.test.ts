import { describe, expect, it } from 'vitest';
import { linkedFileOf, storedFilePath, viewerHref } from './source';

describe('viewer links', () => {
  it('takes the site own stored drawings only', () => {
    expect(storedFilePath('/content/files/dailypics/a.dxf')).toBe('/content/files/dailypics/a.dxf');
    expect(storedFilePath('/api/site/drawings/7001/file')).toBe('/api/site/drawings/7001/file');
    for (const bad of [
      'https://evil.example/x.dwg',
      '//evil.example/content/x.dxf',
      '/api/v4/taskdown?x=1',
      '/api/site/drawings/1/file?x=1',
      '/content/../api/site/secret',
      '/content/%2e%2e/api/x',
      '/content/a%2fb.dxf',
      'javascript:alert(1)',
      '',
    ])
      expect(storedFilePath(bad), bad).toBeNull();
  });

  it('reads the file and its name from the query', () => {
    expect(linkedFileOf('?file=%2Fcontent%2Ffiles%2Fdailypics%2Fezdxf_text.dxf')).toEqual({
      path: '/content/files/dailypics/ezdxf_text.dxf',
      name: 'ezdxf_text.dxf',
    });
    expect(linkedFileOf('?file=/api/site/drawings/12/file&name=%E5%88%AB%E5%A2%85.dwg')).toEqual({
      path: '/api/site/drawings/12/file',
      name: '\u522b\u5885.dwg',
    });
    expect(linkedFileOf('?file=/api/site/drawings/12/file')?.name).toBe('drawing');
    expect(linkedFileOf('?q=1')).toBeNull();
    expect(linkedFileOf('?file=https://evil.example/a.dxf')).toBeNull();
  });

  it('builds the link the daily pictures and the library use', () => {
    const href = viewerHref('/en/kantu', '/content/files/dailypics/a b.dxf', 'A B');
    expect(href).toBe('/en/kantu?file=%2Fcontent%2Ffiles%2Fdailypics%2Fa+b.dxf&name=A+B');
    expect(linkedFileOf(href.slice(href.indexOf('?')))).toEqual({ path: '/content/files/dailypics/a%20b.dxf', name: 'A B' });
  });
});
