import { ApiClientError, AUTH_ERRORS } from '@xcad/protocol';

/** The API refused the session (no, expired or revoked usertoken): the user is signed out. */
export function isSessionRefused(error: unknown): boolean {
  return error instanceof ApiClientError && (AUTH_ERRORS.notSignedIn.codes as readonly number[]).includes(error.code);
}
