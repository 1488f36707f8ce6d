// HTML the API writes by hand: the sign-in popup's pages and the WordPress-shaped answers' titles
// and excerpts. The web app never needs this: React escapes what it renders.

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/** Text made safe inside an element or a quoted attribute, written as WordPress's esc_html writes it. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}
