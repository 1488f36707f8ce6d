import { invoicePage } from '@/components/orders/invoice-page';

const page = invoicePage();

export const generateMetadata = page.generateMetadata;

export default page.Page;
