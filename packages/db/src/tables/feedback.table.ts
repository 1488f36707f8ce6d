import type { Generated, Insertable, Selectable } from 'kysely';

// Decision 0012: the tables of feedback and complaint submissions (migration 2026-11-22T0400_feedback).
// Epochs are seconds.

export type FeedbackKind = 'feedback' | 'complaint';
export type FeedbackContactType = 'mobile' | 'email' | 'qq';
/** A submission starts as `new`; customer service moves it on (`processing`, `closed`). */
export type FeedbackStatus = 'new' | 'processing' | 'closed';

export interface FeedbackSubmissionTable {
  id: Generated<number>;
  /** What the user quotes: FK… (feedback) or TS… (complaint), see TICKET_PATTERN in @xcad/protocol. */
  ticket_no: string;
  kind: FeedbackKind;
  /** A category id of the kind (FEEDBACK_CATEGORIES or COMPLAINT_CATEGORIES). */
  category: string;
  /** Feedback only: the product it is about (FEEDBACK_PRODUCTS). */
  product: string | null;
  /** Complaint only, when given. */
  order_no: string | null;
  /** Cleaned text (trimmed, control characters dropped). */
  content: string;
  /** SHA-256 hex of kind and content: the same text within 10 minutes is refused. */
  content_hash: string;
  contact: string;
  contact_type: FeedbackContactType;
  /** Complaint only, when given. */
  contact_name: string | null;
  /** The signed-in user who sent it, if any. */
  user_id: number | null;
  ip: string;
  user_agent: Generated<string>;
  /** The page the form was on, as the browser sent it. */
  page_path: Generated<string>;
  status: Generated<FeedbackStatus>;
  created_at: number;
}

export interface FeedbackScreenshotTable {
  id: Generated<number>;
  submission_id: number;
  /** 1-based, in the order the user chose them. */
  position: number;
  /** private/feedback/<ticket_no>/<position>.<ext> */
  storage_key: string;
  content_type: 'image/png' | 'image/jpeg' | 'image/webp';
  size: number;
}

export interface FeedbackTables {
  feedback_submission: FeedbackSubmissionTable;
  feedback_screenshot: FeedbackScreenshotTable;
}

export type FeedbackSubmission = Selectable<FeedbackSubmissionTable>;
export type NewFeedbackSubmission = Insertable<FeedbackSubmissionTable>;
export type FeedbackScreenshot = Selectable<FeedbackScreenshotTable>;
export type NewFeedbackScreenshot = Insertable<FeedbackScreenshotTable>;
