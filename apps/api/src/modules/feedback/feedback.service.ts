import { createHash, randomInt } from 'node:crypto';
import {
  ApiError,
  FEEDBACK_ERRORS,
  FEEDBACK_LIMITS,
  FEEDBACK_MESSAGES,
  TICKET_PREFIX,
  contactTypeOf,
  sniffImageType,
  type ImageType,
  type TComplaintSubmission,
  type TContactType,
  type TFeedbackKind,
  type TFeedbackSubmission,
} from '@xcad/protocol';
import type { Executor, NewFeedbackScreenshot } from '@xcad/db';
import type { SiteDeps } from '../site-deps';
import { hasRecentContent, insertSubmission, isTicketTaken, recentFromAddress, serializeSubmissions } from './feedback.repository';

// Feedback and complaints (decision 0013): the caps (per address per hour, the same text within ten
// minutes), the screenshots (decoded, checked by their bytes, stored privately) and the row.
// Files are written before the row that references them and removed again if the row is not
// written, so a submission is either whole or absent.

const HOUR_SECONDS = 3_600;
const USER_AGENT_MAX = 512;
// Beijing time has no daylight saving: the ticket's date is the one the user sees on the clock.
const BEIJING_OFFSET_MS = 8 * 3_600_000;

/** Where a submission comes from. */
export interface SubmissionContext {
  ip: string;
  userAgent: string;
  /** The caller's signed-in user (the body's usertoken, else the session cookie's), if any. */
  userId: number | null;
}

/** What both forms reduce to before they are checked and stored. */
interface Submission {
  kind: TFeedbackKind;
  category: string;
  product: string | null;
  orderNo: string | null;
  content: string;
  contact: string;
  contactName: string | null;
  pagePath: string;
  screenshots: readonly string[];
}

interface DecodedScreenshot {
  bytes: Buffer;
  type: ImageType;
}

function invalidField(field: string, message: string, logMessage: string): ApiError {
  return new ApiError({ code: FEEDBACK_ERRORS.invalidField.codes[0], userMessage: message, logMessage, extra: { field } });
}

/** The duplicate check's key: the same words of the same kind, whoever sends them. */
function contentHashOf(kind: TFeedbackKind, content: string): string {
  return createHash('sha256').update(`${kind}\n${content}`).digest('hex');
}

function beijingDate(nowMs: number): string {
  return new Date(nowMs + BEIJING_OFFSET_MS).toISOString().slice(0, 10).replaceAll('-', '');
}

/** A ticket number no submission has yet: prefix, Beijing date, six random digits. */
async function newTicketNo(deps: SiteDeps, kind: TFeedbackKind): Promise<string> {
  const day = beijingDate(deps.clock());
  for (;;) {
    const ticketNo = `${TICKET_PREFIX[kind]}${day}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
    // Two parallel submissions drawing the same number are stopped by the unique index.
    if (!(await isTicketTaken(deps.db, ticketNo))) return ticketNo;
  }
}

/** The screenshots' bytes, checked again after decoding (the schema saw only their first bytes). */
function decodeScreenshots(screenshots: readonly string[]): DecodedScreenshot[] {
  let total = 0;
  return screenshots.map((data, index) => {
    const bytes = Buffer.from(data, 'base64');
    const type = sniffImageType(bytes);
    if (type === undefined) throw invalidField('screenshots', FEEDBACK_MESSAGES.screenshotType, `screenshot ${index + 1} is not an image`);
    if (bytes.length > FEEDBACK_LIMITS.screenshotMaxBytes) {
      throw invalidField('screenshots', FEEDBACK_MESSAGES.screenshotTooLarge, `screenshot ${index + 1} has ${bytes.length} bytes`);
    }
    total += bytes.length;
    if (total > FEEDBACK_LIMITS.screenshotsTotalMaxBytes)
      throw invalidField('screenshots', FEEDBACK_MESSAGES.screenshotsTooLarge, `screenshots reach ${total} bytes`);
    return { bytes, type };
  });
}

async function checkAddressCap(db: Executor, ip: string, now: number): Promise<void> {
  const recent = await recentFromAddress(db, ip, now - HOUR_SECONDS + 1);
  if (recent.count < FEEDBACK_LIMITS.submissionsPerIpPerHour) return;
  const retryafter = Math.max(1, (recent.oldest ?? now) + HOUR_SECONDS - now);
  throw ApiError.business(FEEDBACK_ERRORS.tooFrequent, `${recent.count} submissions from ${ip} within the hour`, { retryafter });
}

async function checkDuplicate(db: Executor, contentHash: string, now: number): Promise<void> {
  if (await hasRecentContent(db, contentHash, now - FEEDBACK_LIMITS.duplicateWindowSeconds + 1)) {
    throw ApiError.business(
      FEEDBACK_ERRORS.duplicate,
      `same content ${contentHash.slice(0, 8)} within ${FEEDBACK_LIMITS.duplicateWindowSeconds} s`,
    );
  }
}

async function submit(deps: SiteDeps, submission: Submission, context: SubmissionContext): Promise<string> {
  const now = Math.floor(deps.clock() / 1000);
  const contentHash = contentHashOf(submission.kind, submission.content);
  // Cheap refusals first, before any file is decoded or written; checked again below, serialised.
  await checkAddressCap(deps.db, context.ip, now);
  await checkDuplicate(deps.db, contentHash, now);
  // The schema accepted the contact, so it has a type.
  const contactType = contactTypeOf(submission.contact) as TContactType;
  const screenshots = decodeScreenshots(submission.screenshots);
  const { userId } = context;
  const ticketNo = await newTicketNo(deps, submission.kind);

  const stored: string[] = [];
  try {
    const rows: Omit<NewFeedbackScreenshot, 'submission_id'>[] = [];
    for (const [index, screenshot] of screenshots.entries()) {
      const position = index + 1;
      const key = `private/feedback/${ticketNo}/${position}.${screenshot.type.ext}`;
      await deps.storage.put(key, screenshot.bytes);
      stored.push(key);
      rows.push({ position, storage_key: key, content_type: screenshot.type.mime, size: screenshot.bytes.length });
    }
    await deps.db.transaction().execute(async (trx) => {
      await serializeSubmissions(trx, [`feedback:ip:${context.ip}`, `feedback:content:${contentHash}`]);
      await checkAddressCap(trx, context.ip, now);
      await checkDuplicate(trx, contentHash, now);
      await insertSubmission(
        trx,
        {
          ticket_no: ticketNo,
          kind: submission.kind,
          category: submission.category,
          product: submission.product,
          order_no: submission.orderNo,
          content: submission.content,
          content_hash: contentHash,
          contact: submission.contact,
          contact_type: contactType,
          contact_name: submission.contactName,
          user_id: userId,
          ip: context.ip,
          user_agent: context.userAgent.slice(0, USER_AGENT_MAX),
          page_path: submission.pagePath,
          created_at: now,
        },
        rows,
      );
    });
  } catch (error) {
    await removeStored(deps, stored);
    throw error;
  }
  deps.log.info({ ticketNo, kind: submission.kind, screenshots: screenshots.length }, 'feedback submitted');
  return ticketNo;
}

/** Removes files of a submission that was not written; a file that will not go is logged, not thrown. */
async function removeStored(deps: SiteDeps, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    await deps.storage
      .delete(key)
      .catch((error: unknown) => deps.log.error({ err: error, key }, 'removing the screenshot of a failed submission failed'));
  }
}

/** 意见反馈 / 意见建议: stores the submission and resolves with its ticket number (FK…). */
export function submitFeedback(deps: SiteDeps, fields: TFeedbackSubmission, context: SubmissionContext): Promise<string> {
  return submit(
    deps,
    {
      kind: 'feedback',
      category: fields.category,
      product: fields.product,
      orderNo: null,
      content: fields.content,
      contact: fields.contact,
      contactName: null,
      pagePath: fields.pagepath ?? '',
      screenshots: fields.screenshots,
    },
    context,
  );
}

/** 在线投诉: stores the complaint and resolves with its ticket number (TS…). */
export function submitComplaint(deps: SiteDeps, fields: TComplaintSubmission, context: SubmissionContext): Promise<string> {
  return submit(
    deps,
    {
      kind: 'complaint',
      category: fields.category,
      product: null,
      orderNo: fields.orderno ?? null,
      content: fields.content,
      contact: fields.contact,
      contactName: fields.contactname === undefined || fields.contactname === '' ? null : fields.contactname,
      pagePath: fields.pagepath ?? '',
      screenshots: fields.screenshots,
    },
    context,
  );
}
