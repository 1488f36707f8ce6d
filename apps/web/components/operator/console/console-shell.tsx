import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import { canUseSection, OPERATOR_SECTIONS, type TOperatorMe, type TOperatorSection } from '@xcad/protocol';
import { BUILT_SECTIONS } from '@/lib/operator/sections';
import { ConsoleNav } from './console-nav';
import styles from './console.module.css';
import { LogoutButton } from './logout-button';

// The console's frame (decision 0042): the left menu of the sections this operator's roles may use,
// and a top bar with who is signed in, their roles and the way out. Chinese only.

export async function ConsoleShell({ me, children }: { me: TOperatorMe; children: ReactNode }) {
  const t = await getTranslations({ locale: 'zh-CN', namespace: 'console' });
  const items = BUILT_SECTIONS.filter((section) => canUseSection(me.roles, section)).map((section: TOperatorSection) => ({
    path: OPERATOR_SECTIONS[section].path,
    label: t(`sections.${section}`),
  }));
  const roles = me.roles.map((role) => t(`roles.${role}`)).join(' / ');
  return (
    <div className={styles.shell}>
      <aside className={styles.aside}>
        <div className={styles.brand}>{t('brand')}</div>
        <ConsoleNav items={items} label={t('shell.menu')} />
      </aside>
      <div className={styles.work}>
        <header className={styles.topBar}>
          <span className={styles.muted}>{t('shell.idle')}</span>
          <span data-testid="console-operator">{t('shell.signedInAs', { name: me.nickname || me.maskedPhone })}</span>
          <span data-testid="console-roles">{t('shell.roles', { roles })}</span>
          <LogoutButton csrf={me.csrf} />
        </header>
        <main id="main" className={styles.content}>
          {children}
        </main>
      </div>
    </div>
  );
}
