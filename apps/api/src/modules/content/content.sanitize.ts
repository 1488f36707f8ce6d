import sanitizeHtml from 'sanitize-html';

// Article HTML is sanitised on every answer (issue 5), not only at import: a row written by any
// other path, or an importer bug, must still reach browsers inert. Decision 0011 lists the rules.

const ARTICLE_TAGS = [
  'p', 'br', 'hr', 'h2', 'h3', 'h4',
  'ul', 'ol', 'li',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'a', 'img', 'figure', 'figcaption',
  'code', 'pre', 'kbd', 'blockquote',
  'strong', 'em', 'b', 'i', 'del', 'sub', 'sup', 'span',
];

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

/** The sanitiser of article HTML for a site served at `publicOrigin` (its links are not external). */
export function createHtmlSanitizer(publicOrigin: string): HtmlSanitizer {
  const publicHost = new URL(publicOrigin).host;
  const options: sanitizeHtml.IOptions = {
    allowedTags: ARTICLE_TAGS,
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      th: ['colspan', 'rowspan'],
      td: ['colspan', 'rowspan'],
      ol: ['start'],
    },
    allowedClasses: { code: ['language-*'] },
    allowedSchemes: ['http', 'https'],
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: false,
    // The text of these is code or fallback markup, never article prose.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'template'],
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
