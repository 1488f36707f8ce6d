import { buyRoutePage } from '@/components/pay/buy-route';

// spec §2 /buy/cadresources.html: rendered once and regenerated every minute, so a changed price shows
// within a minute (the catalogue: lib/pay/catalogue.ts).
const page = buyRoutePage('buy-cadresources');

export const revalidate = 60;

export const generateMetadata = page.generateMetadata;

export default page.Page;
