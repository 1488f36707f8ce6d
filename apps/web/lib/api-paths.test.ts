import { describe, expect, it } from 'vitest';
import { isApiPath } from './api-paths';

describe('isApiPath', () => {
  it('sends the product API, the content API, stored content files and health checks to the API', () => {
    for (const url of [
      '/api/v4/getutctime',
      '/api/file/upload?code=1',
      '/wp-json/wp/v2/posts?page=2',
      '/health',
      '/api',
      '/content/images/dailypics/3001.png',
    ]) {
      expect(isApiPath(url)).toBe(true);
    }
  });
  it('leaves pages, assets and look-alike paths to Next.js', () => {
    for (const url of [
      '/',
      '/apidocs',
      '/help.html',
      '/_next/static/x.js',
      '/wp-jsonx',
      '/healthz',
      '/tools/cad2pdf?api=1',
      '/content',
      '/contentx/a',
    ]) {
      expect(isApiPath(url)).toBe(false);
    }
  });
});
