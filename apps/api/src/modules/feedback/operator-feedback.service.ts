import type { Executor } from '@xcad/db';
import { countOpenSubmissions } from './operator-feedback.repository';

// The back office's figures of feedback and complaints (decision 0042): tickets not closed yet.

export async function openTickets(db: Executor): Promise<number> {
  return countOpenSubmissions(db);
}
