import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';
import { ShareDownload } from './share-download';
import { ToolsMessages } from './tools-messages';

// /share.html (spec §2, decision 0019): a static frame; the task comes from the link's query, read in
// the browser.

export const sharePage = {
  async generateMetadata(props: RouteProps): Promise<Metadata> {
    const route = await resolveRoute('share', props);
    return routeMetadata(route.locale, 'share');
  },
  async Page(props: RouteProps) {
    const { locale } = await resolveRoute('share', props);
    return (
      <PageFrame locale={locale} name="share" showRelated={false}>
        <ToolsMessages locale={locale} parts={['share', 'recent']}>
          <Suspense>
            <ShareDownload />
          </Suspense>
        </ToolsMessages>
      </PageFrame>
    );
  },
};
