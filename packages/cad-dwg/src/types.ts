/** The format's fixed object type numbers (LibreDWG's `DWG_OBJECT_TYPE` below 500), shared with the writer. */
export { DWG_OBJECT_TYPES as T, lineweightOfIndex as lineweight } from '@xcad/cad/dwg-format';

/** Object supertype: 0 entity, 1 object. */
export const SUPERTYPE_ENTITY = 0;

/** LibreDWG error bits at or above this make the read unusable (DWG_ERR_CRITICAL). */
export const ERR_CRITICAL = 128;
