import styles from './operator.module.css';

/** What the report page shows instead of figures: no permission, or no answer from the API. */
export function ReportNotice({ title, text, testId }: { readonly title?: string; readonly text: string; readonly testId: string }) {
  return (
    <section className={styles.notice} data-testid={testId} role={title ? undefined : 'alert'}>
      {title && <h2 className={styles.noticeTitle}>{title}</h2>}
      <p className={styles.noticeText}>{text}</p>
    </section>
  );
}
