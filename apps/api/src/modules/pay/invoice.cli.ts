// `npm run invoice:issue -- ORDERNO [ORDERNO ...]`: the operator marks invoices issued once the
// e-invoice has been sent (submitted -> issued), in the database the environment selects
// (DATABASE_URL, else SQLITE_PATH, else data/xcad.sqlite). The user sees 已开具 on /invoice.html.
import { createDatabase, type DatabaseHandle } from '@xcad/db';
import { ORDER_NO_PATTERN } from '@xcad/protocol';
import { markInvoiceIssued } from './pay.repository';

const ordernos = process.argv.slice(2);
if (ordernos.length === 0 || ordernos.some((orderno) => !ORDER_NO_PATTERN.test(orderno))) {
  console.error('usage: npm run invoice:issue -- ORDERNO [ORDERNO ...]  (order numbers look like XC + 22 digits)');
  process.exit(2);
}

let handle: DatabaseHandle | undefined;
let failed = 0;
try {
  handle = createDatabase();
  const now = Math.floor(Date.now() / 1000);
  for (const orderno of ordernos) {
    if (await markInvoiceIssued(handle.db, orderno, now)) console.info(`invoice: ${orderno} issued`);
    else {
      failed += 1;
      console.error(`invoice: ${orderno} has no submitted invoice (unknown order, none applied for, or already issued)`);
    }
  }
  await handle.destroy();
} catch (error) {
  console.error(`invoice: ${error instanceof Error ? error.message : String(error)}`);
  await handle?.destroy().catch(() => undefined);
  process.exit(1);
}
process.exit(failed === 0 ? 0 : 1);
