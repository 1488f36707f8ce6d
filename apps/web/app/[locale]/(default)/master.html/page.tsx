import { CourseList } from '@/components/content/list/course-list';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute, routePage } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';

// spec §2 `/master.html`: the course's tutorial articles as numbered lessons. menu_order is not in
// the content API (decision 0011), so course order is publication order, oldest first.
// Rendered per request (content answers stay in the fetch cache for 300 s): a build-time prerender
// runs while the content API is not up and would serve "content unavailable" until revalidation.
export const dynamic = 'force-dynamic';

export const generateMetadata = routePage('master').generateMetadata;

export default async function CoursePage(props: RouteProps) {
  const route = await resolveRoute('master', props);
  return (
    <PageFrame locale={route.locale} name="master">
      <CourseList locale={route.locale} slug="master" />
    </PageFrame>
  );
}
