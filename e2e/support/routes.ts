import { inject } from 'vitest';

// The routes of spec §2 the browser tests visit (routes.spec.ts answers each; layout-sweep.spec.ts
// lays each out at three window sizes).

/** A tag that exists in the imported content (ids are the database's). */
async function someTagId(baseUrl: string): Promise<number> {
  const tags = (await (await fetch(`${baseUrl}/wp-json/wp/v2/tags?per_page=1&orderby=count&order=desc`)).json()) as Array<{ id: number }>;
  return tags[0]?.id ?? 0;
}

/** Every route of spec §2, as concrete URLs a visitor or a search engine would open. */
export async function specRoutes(baseUrl: string = inject('baseUrl')): Promise<string[]> {
  return [
    '/',
    '/1001',
    '/1001.html',
    '/1019/2',
    '/basics.html',
    '/buy.html',
    '/complaint.html',
    '/dailypic.html',
    '/download.html',
    '/download-cadapp.html',
    '/download-cadkantuapp.html',
    '/download-converter-app.html',
    '/download-converter.html',
    '/download-holdall.html',
    '/download-lookchart.html',
    '/download-major.html',
    '/download-mobile-lookchart.html',
    '/dwgItem/5001',
    '/dwglist',
    '/help.html',
    '/help',
    '/help/2',
    '/invoice.html',
    '/jianyi.html',
    '/kantu',
    '/lingwai.html',
    '/lingwai',
    '/lingwai/printing',
    '/loginPhone',
    '/master.html',
    '/personal.html',
    '/personal-base.html',
    '/personal-buy.html',
    '/personal-download.html',
    '/personal-openvip.html',
    '/privacy.html',
    '/resources.html',
    '/share.html',
    '/shengming.html',
    `/tag/${await someTagId(baseUrl)}`,
    '/tools',
    '/tools.html',
    '/video.html',
    '/weixin-login-callback?logintag=abc123',
    `/${encodeURIComponent('意见反馈')}.html`,
    '/buy/cadconverter.html',
    '/buy/cadconverterapp.html',
    '/buy/cadeditor.html',
    '/buy/cadholdall.html',
    '/buy/cadresources.html',
    '/buy/cadtuku.html',
    '/tools/cad2jpg',
    '/tools/cad2pdf',
    '/tools/cad2ver',
    '/tools/pdf2cad',
    '/dailypics/3001',
    '/dailypics/0/2',
    '/scanlogin/abc123',
  ];
}
