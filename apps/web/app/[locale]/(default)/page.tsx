import type { Metadata } from 'next';
import { HomePage } from '@/components/home/home-page';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';

// The home page is static and regenerated at most every 300 s (its guide lists come from the
// content API): nothing on its path is computed per request except the locale proxy.
export const revalidate = 300;

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const { locale } = await resolveRoute('home', props);
  const metadata = await routeMetadata(locale, 'home');
  // The home title is the full site title, not "<page> - <site>".
  return { ...metadata, title: { absolute: String(metadata.title) } };
}

export default async function Home(props: RouteProps) {
  const { locale } = await resolveRoute('home', props);
  return <HomePage locale={locale} />;
}
