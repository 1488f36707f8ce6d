// Issue 7: the first module of a conversion worker thread. The API runs its TypeScript through
// tsx, but a worker thread does not inherit the parent's module loader (neither from `--import
// tsx` nor under Vitest), so this plain module registers tsx in the thread and then loads the
// entry the runner named (conversion-worker.ts, or a test's misbehaving worker).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
