import type { Migration } from 'kysely';
import * as requestNonce from './2026-11-21T1900_request-nonce';
import * as accounts from './2026-11-21T2200_accounts';
import * as content from './2026-11-21T2300_content';
import * as drawings from './2026-11-22T0100_drawings';
import * as course from './2026-11-22T0200_course';
import * as software from './2026-11-22T0300_software';
import * as feedback from './2026-11-22T0400_feedback';
import * as pay from './2026-11-22T0500_pay';
import * as conversion from './2026-11-22T0600_conversion';
import * as analytics from './2026-11-22T0700_analytics';
import * as limitsAndOwners from './2026-11-23T0100_limits-and-owners';
import * as fileUpload from './2026-11-29T1000_file-upload';
import * as conversionFileReport from './2026-11-29T1300_conversion-file-report';
import * as softwareFileSha256 from './2026-11-29T1600_software-file-sha256';
import * as operatorConsole from './2026-11-30T0100_operator-console';
import * as payMobileRefunds from './2026-11-30T0200_pay-mobile-refunds';

// A static map rather than a folder scan, so migrations load the same under tsx, Vitest and
// bundlers. Names sort in the order they apply; add new ones at the end.
export const migrations: Record<string, Migration> = {
  '2026-11-21T1900_request-nonce': requestNonce,
  '2026-11-21T2200_accounts': accounts,
  '2026-11-21T2300_content': content,
  '2026-11-22T0100_drawings': drawings,
  '2026-11-22T0200_course': course,
  '2026-11-22T0300_software': software,
  '2026-11-22T0400_feedback': feedback,
  '2026-11-22T0500_pay': pay,
  '2026-11-22T0600_conversion': conversion,
  '2026-11-22T0700_analytics': analytics,
  '2026-11-23T0100_limits-and-owners': limitsAndOwners,
  '2026-11-29T1000_file-upload': fileUpload,
  '2026-11-29T1300_conversion-file-report': conversionFileReport,
  '2026-11-29T1600_software-file-sha256': softwareFileSha256,
  '2026-11-30T0100_operator-console': operatorConsole,
  '2026-11-30T0200_pay-mobile-refunds': payMobileRefunds,
};
