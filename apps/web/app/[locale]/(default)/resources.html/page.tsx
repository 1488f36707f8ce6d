import { ResourcesHub } from '@/components/course/resources-hub';
import { resolveRoute, routePage } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';

// spec §2 `/resources.html` (CAD教程): the hub of the two tutorial courses and the video course.
// Rendered per request (answers stay in the fetch cache): a build-time prerender would run while
// the content API is not up.
export const dynamic = 'force-dynamic';

export const generateMetadata = routePage('resources').generateMetadata;

export default async function ResourcesPage(props: RouteProps) {
  const route = await resolveRoute('resources', props);
  return <ResourcesHub locale={route.locale} />;
}
