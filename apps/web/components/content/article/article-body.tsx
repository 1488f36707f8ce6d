import styles from './article-body.module.css';

/**
 * An article's HTML. Only ever given `content.rendered` of the content API, which sanitises it on
 * every answer (docs/decisions/0011-content-api.md "Sanitising").
 */
export function ArticleBody({ html }: { html: string }) {
  return <div className={styles.prose} data-testid="article-body" dangerouslySetInnerHTML={{ __html: html }} />;
}
