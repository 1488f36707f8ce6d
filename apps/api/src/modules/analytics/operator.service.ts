import { OPERATOR_ROLE_LABELS, PASSWORD_PATTERN, PHONE_PATTERN, type TOperatorRole } from '@xcad/protocol';
import type { Kysely } from 'kysely';
import { isUniqueViolation, type Database } from '@xcad/db';
import { ensurePhoneUser, phoneAccountOf } from '../auth/accounts.service';
import { grantOperatorRole, operatorRolesOf } from '../auth/operator.service';
import { insertOperator } from './analytics.repository';

// Operators (decision 0022): the users who may read the analytics reports; since decision 0042 the
// back office's operators, each with one or more roles (管理员, 客服, 财务, 内容编辑). The first is made
// from the command line (operator.cli.ts) and later ones by a 管理员 in the console; a phone without
// an account becomes a user the same way an SMS sign-up makes one, with a password hashed as the
// accounts hash theirs.

export interface OperatorRequest {
  phone: string;
  /** Set only for a new user or one without a password: an existing password is never replaced. */
  password?: string | undefined;
  /** The roles to grant (added to any held already); none given: 管理员, the first operator's. */
  roles?: readonly TOperatorRole[] | undefined;
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
  /** The roles granted now (not held before). */
  rolesGranted: TOperatorRole[];
  /** Every role held afterwards. */
  roles: TOperatorRole[];
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
      const rolesGranted: TOperatorRole[] = [];
      for (const role of request.roles === undefined || request.roles.length === 0 ? (['admin'] as const) : request.roles) {
        if (await grantOperatorRole(trx, user.userId, role, null, now)) rolesGranted.push(role);
      }
      const roles = await operatorRolesOf(trx, user.userId);
      return { ...user, phone, isNewOperator, rolesGranted, roles, passwordKept: passwordHash !== null && !user.passwordSet };
    });
  try {
    return await attempt();
  } catch (error) {
    // The phone signed up in parallel: the retry finds that user.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}

/** The roles as the console names them: 管理员、客服. */
export function roleNames(roles: readonly TOperatorRole[]): string {
  return roles.map((role) => OPERATOR_ROLE_LABELS[role]).join('、');
}
