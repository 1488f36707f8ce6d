import type { RequestNonceTable } from './tables/request-nonce.table';

/** Every table of the schema, as the latest migration leaves it. */
export interface Database {
  request_nonce: RequestNonceTable;
}
