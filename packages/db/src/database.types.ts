import type {
  AppUserTable,
  CaptchaTable,
  LoginSessionTable,
  MembershipTable,
  SmsCodeTable,
  UserIdentityTable,
  UserSessionTable,
} from './tables/accounts.table';
import type { ContentPostMetaTable, ContentPostTable, ContentPostTermTable, ContentTermTable } from './tables/content.table';
import type { CourseTables } from './tables/course.table';
import type { DrawingsTables } from './tables/drawings.table';
import type { FeedbackTables } from './tables/feedback.table';
import type { PayTables } from './tables/pay.table';
import type { ConversionTables } from './tables/conversion.table';
import type { AnalyticsTables } from './tables/analytics.table';
import type { OperatorTables } from './tables/operator.table';
import type { LimitCounterTable } from './tables/limit-counter.table';
import type { RequestNonceTable } from './tables/request-nonce.table';
import type { SoftwareTables } from './tables/software.table';

/** Every table of the schema, as the latest migration leaves it. */
export interface Database
  extends DrawingsTables, CourseTables, SoftwareTables, FeedbackTables, PayTables, ConversionTables, AnalyticsTables, OperatorTables {
  request_nonce: RequestNonceTable;
  limit_counter: LimitCounterTable;
  app_user: AppUserTable;
  user_identity: UserIdentityTable;
  user_session: UserSessionTable;
  sms_code: SmsCodeTable;
  captcha: CaptchaTable;
  login_session: LoginSessionTable;
  membership: MembershipTable;
  content_post: ContentPostTable;
  content_term: ContentTermTable;
  content_post_term: ContentPostTermTable;
  content_post_meta: ContentPostMetaTable;
}
