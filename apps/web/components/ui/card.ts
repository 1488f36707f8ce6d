import styles from './card.module.css';

// The card primitive (decision 0034). Cards here are sections, forms, lists and Next.js links,
// so the primitive is a class name to put on any of them rather than a wrapper element; the
// caller's own class (layout, custom properties) comes after it.

type ClassName = string | false | null | undefined;

const join = (names: readonly ClassName[]) => names.filter(Boolean).join(' ');

/** The class names of a card: the shared look, then the caller's own. */
export function cardClass(...own: ClassName[]): string {
  return join([styles.card, ...own]);
}

/** The class names of a card that is a link: it lifts under the pointer. */
export function linkCardClass(...own: ClassName[]): string {
  return join([styles.card, styles.link, ...own]);
}
