import { FEEDBACK_PUBLIC_PATH } from '../i18n/negotiate';

// Link lists of the footers (spec §2 "Footer"), labelled by messages `footer.json`.

/** "Tool links": the desktop software, labelled by `footer.software.<key>`. */
export const FOOTER_SOFTWARE_LINKS = [
  { key: 'editor', href: '/download.html' },
  { key: 'converter', href: '/download-converter.html' },
  { key: 'viewer', href: '/download-lookchart.html' },
  { key: 'toolbox', href: '/download-holdall.html' },
  { key: 'mobileConverter', href: '/download-converter-app.html' },
  { key: 'help', href: '/help.html' },
] as const;

/** Online conversion links, labelled by `footer.tools.<key>`. */
export const FOOTER_TOOL_LINKS = [
  { key: 'cad2pdf', href: '/tools/cad2pdf' },
  { key: 'cad2jpg', href: '/tools/cad2jpg' },
  { key: 'cad2ver', href: '/tools/cad2ver' },
  { key: 'pdf2cad', href: '/tools/pdf2cad' },
  { key: 'viewer', href: '/kantu' },
] as const;

/** Statement, privacy and feedback links of the bottom bar, labelled by `footer.legal.<key>`. */
export const FOOTER_LEGAL_LINKS = [
  { key: 'statement', href: '/shengming.html' },
  { key: 'privacy', href: '/privacy.html' },
  { key: 'feedback', href: FEEDBACK_PUBLIC_PATH },
] as const;

/** Where "more guides" leads. */
export const GUIDES_INDEX_PATH = '/help.html';

/** An article of the blog section (spec §2 "Footer": guides link to /{id}.html). */
export function articlePath(id: number): string {
  return `/${id}.html`;
}

/** The compact mobile footer's links, labelled by `mobile.footer.links.<key>`. */
export const MOBILE_FOOTER_LINKS = [
  { key: 'download', href: '/download.html' },
  { key: 'help', href: '/help.html' },
  { key: 'tools', href: '/tools.html' },
  { key: 'feedback', href: FEEDBACK_PUBLIC_PATH },
  { key: 'privacy', href: '/privacy.html' },
  { key: 'statement', href: '/shengming.html' },
] as const;
