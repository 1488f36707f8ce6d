// Issues 7 and 21: the first module of a conversion process. The API runs its TypeScript through
// tsx, but the pool starts a conversion process with only its own flags (its heap limit), neither
// the parent's `--import tsx` nor Vitest's loader: this plain module registers tsx and then loads
// the entry the runner named on the command line (conversion-worker.ts, or a test's misbehaving
// worker).
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2]);
