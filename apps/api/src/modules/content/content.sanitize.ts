import sanitizeHtml from 'sanitize-html';

// Article HTML is sanitised at import and again on every answer, with one allow-list: a row
// written by any other path, or an importer bug, must still reach browsers inert. Decision 0011
// lists the rules; decision 0031 why import and serve share them.

const ARTICLE_TAGS = [
  'p', 'br', 'hr', 'h2', 'h3', 'h4',
  'ul', 'ol', 'li',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'a', 'img', 'figure', 'figcaption',
  'code', 'pre', 'kbd', 'blockquote',
  'strong', 'em', 'b', 'i', 'del', 'sub', 'sup', 'span',
];

const ARTICLE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ARTICLE_TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    // align is how Markdown tables say a column's alignment.
    th: ['colspan', 'rowspan', 'align'],
    td: ['colspan', 'rowspan', 'align'],
    ol: ['start'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // The text of these is code or fallback markup, never article prose.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'template'],
};

function isExternal(href: string, publicHost: string): boolean {
  if (!/^https?:\/\//i.test(href)) return false;
  try {
    return new URL(href).host !== publicHost;
  } catch {
    return true;
  }
}

export type HtmlSanitizer = (html: string) => string;

/**
 * WordPress's page break (`<!--nextpage-->`): the REST API keeps it in `content.rendered` and the
 * site splits the article into /{id}.html, /{id}/2, ... (spec §2 `/{id}?/{page}`). Each page is
 * sanitised on its own, so no markup can span a break.
 */
export const PAGE_BREAK = '<!--nextpage-->';
const PAGE_BREAK_PATTERN = /<!--\s*nextpage\s*-->/i;

/** Applies `transform` to each page of `html` and joins them with the page break again. */
export function mapPages(html: string, transform: (page: string) => string): string {
  return html.split(PAGE_BREAK_PATTERN).map(transform).join(`\n${PAGE_BREAK}\n`);
}

/** One page of article HTML as it may be stored: the allow-list without the link rule of serving. */
export function sanitizeArticlePage(html: string): string {
  return sanitizeHtml(html, ARTICLE_OPTIONS);
}

/** The sanitiser of article HTML for a site served at `publicOrigin` (its links are not external). */
export function createHtmlSanitizer(publicOrigin: string): HtmlSanitizer {
  const publicHost = new URL(publicOrigin).host;
  const options: sanitizeHtml.IOptions = {
    ...ARTICLE_OPTIONS,
    transformTags: {
      a: (tagName, attribs) => {
        const { rel: _ignored, ...rest } = attribs;
        const href = rest['href'] ?? '';
        return { tagName, attribs: isExternal(href, publicHost) ? { ...rest, rel: 'noopener' } : rest };
      },
    },
  };
  return (html) => mapPages(html, (page) => sanitizeHtml(page, options));
}
