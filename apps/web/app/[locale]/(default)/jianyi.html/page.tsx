import { feedbackPage } from '@/components/feedback/feedback-page';

const page = feedbackPage('jianyi');

export const generateMetadata = page.generateMetadata;

export default page.Page;
