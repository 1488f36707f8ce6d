import type { Metadata } from 'next';
import { CONVERSION_LIMITS, TASK_TOOLS, type TTaskType } from '@xcad/protocol';
import { getTranslations } from 'next-intl/server';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import { MenuGlyph } from '@/components/site/menu-glyph';
import { ArrowRightIcon } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { localizePath, type Locale } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';
import { megabytesOf } from '@/lib/tools/files';
import { TOOL_ORDER, TOOL_ROUTES, toolPathOf } from '@/lib/tools/tools';
import { ToolWorkbench } from './tool-workbench';
import { ToolsMessages } from './tools-messages';
import styles from './tools.module.css';

// /tools/cad2pdf, /tools/cad2jpg, /tools/cad2ver and /tools/pdf2cad (spec §2, decision 0019): the
// working part in the browser, then what the server renders once for everyone: three steps, the
// questions people ask, and the other tools. The page is static.

interface Step {
  readonly title: string;
  readonly text: string;
}
interface Question {
  readonly q: string;
  readonly a: string;
}

async function HowTo({ locale, tool }: { readonly locale: Locale; readonly tool: TTaskType }) {
  const t = await getTranslations({ locale, namespace: 'tools' });
  const steps = t.raw(`tool.${tool}.steps`) as Step[];
  return (
    <section className={styles.section} aria-labelledby="tool-howto" data-testid="tool-howto">
      <h2 id="tool-howto" className={styles.sectionTitle}>
        {t('page.howtoTitle', { name: t(`tool.${tool}.name`) })}
      </h2>
      <ol className={styles.steps}>
        {steps.map((step, index) => (
          <li key={step.title} className={styles.step}>
            <span className={styles.stepNo} aria-hidden="true">
              {index + 1}
            </span>
            <h3 className={styles.stepTitle}>{step.title}</h3>
            <p className={styles.stepText}>{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

async function Faq({ locale, tool }: { readonly locale: Locale; readonly tool: TTaskType }) {
  const t = await getTranslations({ locale, namespace: 'tools' });
  const values = {
    visitorMb: megabytesOf(CONVERSION_LIMITS.visitor.maxFileBytes),
    visitorFiles: CONVERSION_LIMITS.visitor.maxFiles,
    visitorPerDay: CONVERSION_LIMITS.visitor.tasksPerDay,
    memberMb: megabytesOf(CONVERSION_LIMITS.member.maxFileBytes),
    memberFiles: CONVERSION_LIMITS.member.maxFiles,
  };
  const own = t.raw(`tool.${tool}.faq`) as Question[];
  const common = (t.raw('faqCommon') as Question[]).map((_, index) => ({
    q: t(`faqCommon.${index}.q`),
    a: t(`faqCommon.${index}.a`, values),
  }));
  return (
    <section className={styles.section} aria-labelledby="tool-faq" data-testid="tool-faq">
      <h2 id="tool-faq" className={styles.sectionTitle}>
        {t('page.faqTitle')}
      </h2>
      <div className={styles.faq}>
        {[...own, ...common].map((item, index) => (
          <details key={item.q} className={styles.faqItem} open={index === 0}>
            <summary className={styles.faqQuestion}>{item.q}</summary>
            <p className={styles.faqAnswer}>{item.a}</p>
          </details>
        ))}
      </div>
    </section>
  );
}

/** What a tool takes and gives, e.g. `DWG/DXF → PDF`. */
function formatsOf(tool: TTaskType): { inputs: string; outputs: string } {
  const upper = (list: readonly string[]) => list.map((item) => item.toUpperCase()).join('/');
  return { inputs: upper(TASK_TOOLS[tool].inputs), outputs: upper(TASK_TOOLS[tool].outputs) };
}

/** The tools as cards (the hub), or as a strip of the others under a tool. */
export async function ToolCards({
  locale,
  except,
  isLarge = false,
}: {
  readonly locale: Locale;
  readonly except?: TTaskType;
  readonly isLarge?: boolean;
}) {
  const t = await getTranslations({ locale, namespace: 'tools' });
  const cards = [
    ...TOOL_ORDER.filter((tool) => tool !== except).map((tool) => ({
      key: tool,
      glyph: tool,
      href: toolPathOf(tool),
      name: t(`tool.${tool}.name`),
      text: t(`tool.${tool}.short`),
      formats: t('hub.formats', formatsOf(tool)),
      action: t('hub.open'),
    })),
    {
      key: 'kantu',
      glyph: 'viewer' as const,
      href: '/kantu',
      name: t('hub.viewer.name'),
      text: t('hub.viewer.text'),
      formats: t('hub.viewer.formats'),
      action: t('hub.viewerOpen'),
    },
  ];
  return (
    <ul className={isLarge ? `${styles.toolCards} ${styles.toolCardsLarge}` : styles.toolCards}>
      {cards.map((card) => (
        <li key={card.key} className={isLarge && card.key === 'kantu' ? styles.toolCardWide : undefined}>
          <Link className={styles.toolCard} href={localizePath(card.href, locale)} data-testid="tool-card" data-tool={card.key}>
            <span className={styles.toolIcon} aria-hidden="true">
              <MenuGlyph name={card.glyph} size={isLarge ? 30 : 24} />
            </span>
            <span className={styles.toolCardBody}>
              <span className={styles.toolName}>{card.name}</span>
              <span className={styles.toolFormats}>{card.formats}</span>
              <span className={styles.toolText}>{card.text}</span>
              {isLarge && (
                <span className={styles.toolAction}>
                  {card.action}
                  <ArrowRightIcon size={16} />
                </span>
              )}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function toolRoutePage(tool: TTaskType) {
  const name = TOOL_ROUTES[tool];
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const route = await resolveRoute(name, props);
      return routeMetadata(route.locale, name);
    },
    async Page(props: RouteProps) {
      const { locale } = await resolveRoute(name, props);
      const t = await getTranslations({ locale, namespace: 'tools.page' });
      return (
        <PageFrame locale={locale} name={name} showRelated={false}>
          <div className={styles.page} data-testid="tool-page" data-tool={tool}>
            <ToolsMessages locale={locale} parts={['workbench', 'options', 'tiers', 'recent']}>
              <ToolWorkbench tool={tool} />
            </ToolsMessages>
            <HowTo locale={locale} tool={tool} />
            <Faq locale={locale} tool={tool} />
            <section className={styles.section} aria-labelledby="tool-others">
              <h2 id="tool-others" className={styles.sectionTitle}>
                {t('otherTools')}
              </h2>
              <ToolCards locale={locale} except={tool} />
            </section>
          </div>
        </PageFrame>
      );
    },
  };
}
