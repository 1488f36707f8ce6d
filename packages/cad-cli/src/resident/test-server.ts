/**
 * A resident engine with made-up commands, for resident.test.ts: the real server (serve()) and the
 * real client, with commands whose timing and output the tests choose.
 * Usage: node --import tsx test-server.ts SOCKET [--idle MS] [--stale-file FILE]
 *   echo A B..   prints "A B.." on stdout and "to stderr" on stderr, exits 5
 *   where        prints the working folder, the umask (octal) and $CAD_FONT_DIR
 *   sleep MS     waits MS (the event loop free), then prints "slept", exits 0
 *   spin MS      keeps the CPU busy for MS (the event loop blocked), then prints "spun"
 *   touch FILE   creates FILE (relative to the working folder), prints "touched"
 *   big N        prints N bytes ('x' repeated, a newline every 100)
 *   die-early    ends the process before any output
 *   die-late     prints "half" then ends the process
 */
import { existsSync, writeFileSync } from 'node:fs';
import { serve } from './server';

const [socket, ...rest] = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const staleFile = option('--stale-file');
const idle = option('--idle');

const code = await serve({
  socket: socket as string,
  ...(idle ? { idleMs: Number(idle) } : {}),
  ...(staleFile ? { isStale: () => existsSync(staleFile) } : {}),
  run: async (args, out, err) => {
    const [command, ...params] = args;
    switch (command) {
      case 'echo':
        out.write(`${params.join(' ')}\n`);
        err.write('to stderr\n');
        return 5;
      case 'where': {
        const mask = process.umask();
        out.write(`${process.cwd()}\n${mask.toString(8)}\n${process.env['CAD_FONT_DIR'] ?? '-'}\n`);
        return 0;
      }
      case 'sleep':
        await new Promise((r) => setTimeout(r, Number(params[0])));
        out.write('slept\n');
        return 0;
      case 'spin': {
        const end = Date.now() + Number(params[0]);
        while (Date.now() < end);
        out.write('spun\n');
        return 0;
      }
      case 'touch':
        writeFileSync(params[0] as string, 'x');
        out.write('touched\n');
        return 0;
      case 'big': {
        const n = Number(params[0]);
        const line = `${'x'.repeat(99)}\n`;
        let left = n;
        while (left > 0) {
          out.write(line.slice(0, Math.min(left, line.length)));
          left -= line.length;
        }
        return 0;
      }
      case 'die-early':
        process.exit(9);
        break;
      case 'die-late':
        out.write('half\n');
        await new Promise((r) => setTimeout(r, 50));
        process.exit(9);
        break;
      default:
        err.write(`cad: unknown command '${command}'\n`);
        return 2;
    }
    return 1;
  },
});
process.exit(code);
