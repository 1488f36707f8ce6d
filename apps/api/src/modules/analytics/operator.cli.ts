// `npm run operator:create -- --phone 13800000000 [--password secret123] [--role 管理员 ...]`: makes the
// user of that phone an operator with the roles given (管理员 客服 财务 内容编辑, or admin support
// finance editor; --role may repeat; none given: 管理员), who signs in to the back office (/operator)
// with the phone and an SMS code and may read the analytics reports (/api/analytics/report), in the database
// the environment selects (DATABASE_URL, else SQLITE_PATH, else data/xcad.sqlite). A phone without
// an account gets one (as an SMS sign-up would, with the password if given); an existing user is
// promoted and keeps their password; roles are added to those held. Running it again changes nothing. Exit 0 done, 1 failed,
// 2 bad arguments.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDatabase, migrateToLatest, type DatabaseConfig, type DatabaseHandle } from '@xcad/db';
import { operatorRoleOf, type TOperatorRole } from '@xcad/protocol';
import { createOperator, OperatorRequestError, roleNames, type OperatorOutcome } from './operator.service';

const USAGE = 'usage: npm run operator:create -- --phone 13800000000 [--password PASSWORD] [--role 管理员|客服|财务|内容编辑 ...]';

interface CliRequest {
  phone: string;
  password: string | undefined;
  roles: TOperatorRole[];
}

function argumentsOf(argv: string[]): CliRequest {
  const { values } = parseArgs({
    args: argv,
    options: { phone: { type: 'string' }, password: { type: 'string' }, role: { type: 'string', multiple: true } },
    strict: true,
    allowPositionals: false,
  });
  if (values.phone === undefined || values.phone === '') throw new OperatorRequestError('--phone is required');
  const roles: TOperatorRole[] = [];
  for (const text of values.role ?? []) {
    const role = operatorRoleOf(text);
    if (role === undefined)
      throw new OperatorRequestError(`unknown role: ${text} (管理员 客服 财务 内容编辑, or admin support finance editor)`);
    if (!roles.includes(role)) roles.push(role);
  }
  return { phone: values.phone, password: values.password, roles };
}

/** What the operator reads: one line per fact, the phone masked as everywhere else. */
export function describeOutcome(outcome: OperatorOutcome): string[] {
  const who = `${outcome.maskedPhone} (user ${outcome.userId})`;
  const lines = [outcome.isNewUser ? `operator: created the user ${who}` : `operator: found the user ${who}`];
  lines.push(
    outcome.isNewOperator
      ? 'operator: made them an operator: they can now open the analytics reports'
      : outcome.rolesGranted.length === 0
        ? 'operator: they were an operator already; nothing changed'
        : 'operator: they were an operator already',
  );
  lines.push(
    outcome.rolesGranted.length > 0
      ? `operator: granted ${roleNames(outcome.rolesGranted)}; roles now ${roleNames(outcome.roles)}: they sign in at /operator with the phone and an SMS code`
      : `operator: roles held: ${roleNames(outcome.roles)}`,
  );
  if (outcome.passwordSet) lines.push('operator: password set: they can sign in with the phone and this password');
  else if (outcome.passwordKept)
    lines.push('operator: they already have a password, which was left as it was (change it on the personal page)');
  else if (outcome.isNewUser) lines.push('operator: no password given: they sign in with the phone and an SMS code');
  if (outcome.isDisabled) lines.push('operator: warning: this account is disabled and cannot sign in until it is enabled again');
  return lines;
}

export interface OperatorCliOptions {
  out: (line: string) => void;
  err: (line: string) => void;
  /** The database to use instead of the one the environment selects (tests). */
  database?: DatabaseConfig;
}

/** Runs the command; resolves with the exit code. */
export async function runOperatorCreate(argv: string[], { out, err, database = {} }: OperatorCliOptions): Promise<number> {
  let request: CliRequest;
  try {
    request = argumentsOf(argv);
  } catch (error) {
    err(`operator: ${error instanceof Error ? error.message : String(error)}`);
    err(USAGE);
    return 2;
  }
  let handle: DatabaseHandle | undefined;
  try {
    handle = createDatabase(database);
    // The first operator may come before the API ever ran against this database.
    await migrateToLatest(handle.db);
    const outcome = await createOperator(handle.db, request, Math.floor(Date.now() / 1000));
    for (const line of describeOutcome(outcome)) out(line);
    return 0;
  } catch (error) {
    err(`operator: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof OperatorRequestError) {
      err(USAGE);
      return 2;
    }
    return 1;
  } finally {
    await handle?.destroy().catch(() => undefined);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.exit(await runOperatorCreate(process.argv.slice(2), { out: console.info, err: console.error }));
}
