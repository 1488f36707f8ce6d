import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { VideoCourse } from '@/components/course/video-course';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { loadCourse } from '@/lib/course/course-data';
import { lessonNumberOf } from '@/lib/course/progress';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/video.html`, §3 "Course lesson": the 20-lesson beginner course with its player.
// `?lesson=N` selects a lesson (shareable); anything else there is a 404. Rendered per request:
// the query selects what is rendered, and a build-time prerender would run before the API is up.
export const dynamic = 'force-dynamic';

interface VideoPageProps extends RouteProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

async function selection(props: VideoPageProps) {
  const [route, query, load] = await Promise.all([resolveRoute('video', props), props.searchParams, loadCourse()]);
  if (load.state !== 'found') return { route, load, lesson: undefined, number: 1 };
  const number = lessonNumberOf(query.lesson, load.course.lessons.length);
  if (number === null) notFound();
  return { route, load, lesson: load.course.lessons.find((item) => item.position === number), number };
}

export async function generateMetadata(props: VideoPageProps): Promise<Metadata> {
  const { route, lesson, number } = await selection(props);
  const metadata = await routeMetadata(route.locale, 'video');
  if (lesson === undefined || number === 1) return metadata;
  const t = await getTranslations({ locale: route.locale, namespace: 'course' });
  const title = t('metaTitle', { number, title: lesson.title });
  return {
    ...metadata,
    title,
    description: lesson.description,
    openGraph: { ...metadata.openGraph, title, description: lesson.description },
  };
}

export default async function VideoPage(props: VideoPageProps) {
  const { route, load, number } = await selection(props);
  const t = await getTranslations({ locale: route.locale, namespace: 'course' });
  return (
    <PageFrame locale={route.locale} name="video">
      {load.state === 'found' ? (
        <VideoCourse locale={route.locale} course={load.course} selected={number} />
      ) : (
        <p role="status" data-testid="course-unavailable">
          {t('unavailable')}
        </p>
      )}
    </PageFrame>
  );
}
