import type { Insertable, Selectable, Updateable } from 'kysely';

/** The replay store of signed API requests (docs/decisions/0005): one row per used `datasign`. */
export interface RequestNonceTable {
  key: string;
  /** Epoch seconds after which the key may be used again. */
  expires_at: number;
}

export type RequestNonce = Selectable<RequestNonceTable>;
export type NewRequestNonce = Insertable<RequestNonceTable>;
export type RequestNonceUpdate = Updateable<RequestNonceTable>;
