import { PASSWORD_PATTERN, PHONE_PATTERN } from '@xcad/protocol';
import type { Kysely } from 'kysely';
import { isUniqueViolation, type Database } from '@xcad/db';
import { ensurePhoneUser, phoneAccountOf } from '../auth/accounts.service';
import { insertOperator } from './analytics.repository';

// Operators (decision 0022): the users who may read the analytics reports. The first is made from the
// command line (operator.cli.ts); a phone without an account becomes a user the same way an SMS
// sign-up makes one, with a password hashed as the accounts hash theirs.

export interface OperatorRequest {
  phone: string;
  /** Set only for a new user or one without a password: an existing password is never replaced. */
  password?: string | undefined;
}

export interface OperatorOutcome {
  userId: number;
  /** The phone as stored (a mainland '86-' prefix dropped). */
  phone: string;
  /** The phone as users see it, the middle four digits hidden. */
  maskedPhone: string;
  isNewUser: boolean;
  /** False when the user was an operator already. */
  isNewOperator: boolean;
  passwordSet: boolean;
  /** An existing password was left as it was although one was given. */
  passwordKept: boolean;
  isDisabled: boolean;
}

/** Refusals of the request itself, with the message to show. */
export class OperatorRequestError extends Error {
  override readonly name = 'OperatorRequestError';
}

export async function createOperator(db: Kysely<Database>, request: OperatorRequest, now: number): Promise<OperatorOutcome> {
  if (!PHONE_PATTERN.test(request.phone))
    throw new OperatorRequestError(`not a mobile number: ${request.phone} (11 digits starting 13-19, an optional country prefix like 86-)`);
  if (request.password !== undefined && !PASSWORD_PATTERN.test(request.password)) {
    throw new OperatorRequestError('the password must be 6 to 20 letters or digits (spec §5)');
  }
  const { phone, passwordHash } = await phoneAccountOf(request.phone, request.password);
  const attempt = () =>
    db.transaction().execute(async (trx) => {
      const user = await ensurePhoneUser(trx, phone, passwordHash, now);
      const isNewOperator = await insertOperator(trx, user.userId, now);
      return { ...user, phone, isNewOperator, passwordKept: passwordHash !== null && !user.passwordSet };
    });
  try {
    return await attempt();
  } catch (error) {
    // The phone signed up in parallel: the retry finds that user.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}
