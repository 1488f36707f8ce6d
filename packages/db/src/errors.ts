// What the database's errors mean, on either engine (PostgreSQL and SQLite), for repositories
// and services that act on them.

/** True for a unique-constraint violation on either engine (a parallel request won the race). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  return error.code === '23505' || error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
