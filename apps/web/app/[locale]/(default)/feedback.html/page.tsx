import { feedbackPage } from '@/components/feedback/feedback-page';

// The public path is /意见反馈.html (spec §2); this folder serves it (FEEDBACK_INTERNAL_PATH).
const page = feedbackPage('feedback');

export const generateMetadata = page.generateMetadata;

export default page.Page;
