// Running a tool the benchmarks measure or draw with: a timeout that kills its whole process group,
// its stdout when asked for, and the last line of its stderr for a failure.
import { spawn } from 'node:child_process';

export interface ProcessResult {
  ms: number;
  /** 'timeout' when killed after the time allowed, 'crash' when it exited with another code than 0. */
  status: 'ok' | 'crash' | 'timeout';
  /** For 'crash' and 'timeout': "exit N: last stderr line" or "killed after N s". */
  error?: string;
  stdout: string;
}

export interface ProcessOptions {
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Keep stdout (else it is discarded). */
  stdout?: boolean;
  /** Stderr lines that are not the error (notes, /usr/bin/time's own lines). */
  ignoreLine?: RegExp;
}

export function runProcess(cmd: string, args: string[], o: ProcessOptions): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(cmd, args, { env: o.env ?? process.env, stdio: ['ignore', o.stdout ? 'pipe' : 'ignore', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, o.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - start;
      const last =
        stderr
          .trim()
          .split('\n')
          .filter((l) => !o.ignoreLine?.test(l))
          .pop() ?? '';
      if (timedOut) resolve({ ms, status: 'timeout', error: `killed after ${o.timeoutMs / 1000} s`, stdout });
      else if (code !== 0) resolve({ ms, status: 'crash', error: `exit ${code}: ${last.slice(0, 160)}`, stdout });
      else resolve({ ms, status: 'ok', stdout });
    });
  });
}
