// How the API's processes (server.ts, worker.ts) end: a start-up failure exits with one line on
// stderr; SIGTERM or SIGINT stop taking work, let the work in flight finish, close what is open
// and exit, or exit anyway once the grace period has run out (decision 0026: the recipe's
// rolling restarts send SIGTERM and count on the drain).

/** Writes `[name] message` to stderr and exits with 1. */
export function exitWithFailure(name: string, message: string): never {
  console.error(`[${name}] ${message}`);
  process.exit(1);
}

export interface GracefulExit {
  /** The process as its stderr lines name it: `api`, `worker`. */
  name: string;
  /** How long stopping may take before the process just exits (with 1). */
  forcedExitMs: number;
  /** What the line written at the forced exit says did not happen in time. */
  overdue: string;
  /** Called first, with the signal that asked for the exit (to log it). */
  onSignal: (signal: NodeJS.Signals) => void;
  /** Stops taking work, lets the work in flight finish and closes what is open. */
  stop: () => Promise<void>;
}

/** On the first SIGTERM or SIGINT, stops as `exit` says and exits with 0 (or 1 when stopping failed). */
export function exitGracefullyOnSignals(exit: GracefulExit): void {
  let isStopping = false;
  async function shutdown(signal: NodeJS.Signals): Promise<void> {
    if (isStopping) return;
    isStopping = true;
    exit.onSignal(signal);
    setTimeout(() => {
      console.error(`[${exit.name}] ${exit.overdue} within ${exit.forcedExitMs} ms; exiting`);
      process.exit(1);
    }, exit.forcedExitMs).unref();
    try {
      await exit.stop();
      process.exit(0);
    } catch (error) {
      exitWithFailure(exit.name, `shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}
