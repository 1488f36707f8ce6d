import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { serveConversions, type ConversionOutcome, type ConversionRequest } from './worker-protocol';

// Test-only conversion process entry (LocalJobsDeps.workerEntry / WorkerPoolOptions.entry): it
// speaks the real protocol but misbehaves as the test's input tells it to, so that the runner's
// handling of crashes, hangs, exhausted heaps and memory, and cancels is tested without relying on
// a hostile drawing.
//   ECHO[:ms]            the input back as the output (after ms milliseconds)
//   CRASH                the process exits
//   CRASH-ONCE:<file>    the process exits unless <file> exists (it creates it): the retry succeeds
//   THROW                an uncaught exception in the process
//   HANG                 a busy loop that never yields
//   HOG                  allocates until the heap limit is hit
//   BALLOON:<mb>         fills <mb> MB outside the heap (buffers, as pdf.js's inflated streams are), never answers
//   SPAWN:<file>         starts a long child process, writes its pid to <file>, never answers
//   SPAWN-BALLOON:<mb>   starts a child process that fills <mb> MB, never answers
// Anything else is refused as unreadable.

const decoder = new TextDecoder();

function echo(input: Uint8Array): ConversionOutcome {
  return {
    ok: true,
    outputs: [{ layout: 'Model', data: new Uint8Array(input) }],
    warnings: 0,
    report: { summary: { layouts: ['Model'], objects: 1 }, changes: [] },
  };
}

async function misbehave(request: ConversionRequest): Promise<ConversionOutcome> {
  const text = decoder.decode(request.input.subarray(0, 200));
  const [command = '', argument = ''] = text.split(/:(.*)/s);
  switch (command.trim()) {
    case 'ECHO': {
      const delay = Number(argument) || 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      return echo(request.input);
    }
    case 'CRASH':
      process.exit(7);
      break;
    case 'CRASH-ONCE':
      if (!existsSync(argument.trim())) {
        writeFileSync(argument.trim(), 'crashed once');
        process.exit(7);
      }
      return echo(request.input);
    case 'THROW':
      setImmediate(() => {
        throw new Error('thrown outside any handler');
      });
      return new Promise<never>(() => undefined);
    case 'HANG':
      for (;;) {
        // Never yields to the event loop: only terminating the thread ends it.
      }
    case 'HOG': {
      const hoard: number[][] = [];
      for (;;) hoard.push(Array.from({ length: 100_000 }, (_, index) => index));
    }
    case 'BALLOON': {
      const hoard: Buffer[] = [];
      for (let mb = 0; mb < Number(argument); mb++) hoard.push(Buffer.alloc(1 << 20, 1));
      return new Promise<never>(() => void hoard);
    }
    case 'SPAWN': {
      const child = spawn('sleep', ['120'], { stdio: 'ignore' });
      writeFileSync(argument.trim(), String(child.pid));
      return new Promise<never>(() => undefined);
    }
    case 'SPAWN-BALLOON': {
      const fill = `const hoard = []; for (let mb = 0; mb < ${Number(argument)}; mb++) hoard.push(Buffer.alloc(1 << 20, 1)); setInterval(() => hoard.length, 1000);`;
      spawn(process.execPath, ['-e', fill], { stdio: 'ignore' });
      return new Promise<never>(() => undefined);
    }
  }
  return { ok: false, failure: 'unreadable', detail: `not a test command: ${text.slice(0, 20)}` };
}

serveConversions(misbehave);
