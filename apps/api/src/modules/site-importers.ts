import { courseImporter } from './course/course.import';
import { drawingsImporter } from './drawings/drawings.import';
import type { SiteImporter } from './site-deps';
import { softwareImporter } from './software/software.import';

/** The site-data importers `npm start` runs after the posts, in this order. */
export const siteImporters: readonly SiteImporter[] = [drawingsImporter, courseImporter, softwareImporter];
