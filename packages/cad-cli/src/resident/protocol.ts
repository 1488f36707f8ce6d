/**
 * The wire format between the `cad` command's client (client.c, or `askEngine` below) and the
 * resident engine (server.ts), over a Unix socket (decision 0024).
 *
 * Client → engine: one frame 'q' holding the request, NUL-terminated strings:
 *   magic, working folder, umask (decimal), argument count, the arguments, variable count,
 *   the CAD_* and XCAD_* environment variables as NAME=VALUE.
 * Engine → client: 'a' + its pid (4 bytes) when it takes the command, or 'f' + a reason when it
 * will not (busy, stale, env): the client then runs the command in a process of its own.
 * Client → engine: the single byte 'g' (go) once it has the 'a'. A client that gave up waiting
 * closes instead, and the engine drops the command, so a command never runs twice.
 * Engine → client: 'o' (stdout) and 'e' (stderr) pieces, then 'x' + the exit status (1 byte).
 * Every frame but 'g' is a type byte, a 32-bit big-endian length and that many bytes.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

const PROTOCOL_MAGIC = 'xcad-cad/1';
/** Frames larger than this are refused (a request is a few KB; output is sent in small pieces). */
const MAX_FRAME = 64 * 2 ** 20;

export type FrameType = 'q' | 'a' | 'f' | 'o' | 'e' | 'x';

export interface EngineRequest {
  cwd: string;
  umask: number;
  args: string[];
  /** The client's CAD_* and XCAD_* variables. */
  env: Record<string, string>;
}

export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

export function frame(type: FrameType, data: Uint8Array | string = new Uint8Array()): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

export function encodeRequest(r: EngineRequest): Buffer {
  const env = Object.entries(r.env).map(([k, v]) => `${k}=${v}`);
  const fields = [PROTOCOL_MAGIC, r.cwd, String(r.umask), String(r.args.length), ...r.args, String(env.length), ...env];
  for (const f of fields) if (f.includes('\0')) throw new ProtocolError('a request field holds a NUL character');
  return frame('q', Buffer.from(fields.map((f) => `${f}\0`).join(''), 'utf8'));
}

/** The request in a 'q' frame's payload; throws ProtocolError when it is not one. */
export function decodeRequest(payload: Uint8Array): EngineRequest {
  const text = Buffer.from(payload).toString('utf8');
  if (!text.endsWith('\0')) throw new ProtocolError('the request does not end with a NUL');
  const fields = text.slice(0, -1).split('\0');
  let i = 0;
  const next = (): string => {
    const f = fields[i++];
    if (f === undefined) throw new ProtocolError('the request ends early');
    return f;
  };
  const count = (what: string): number => {
    const f = next();
    if (!/^\d{1,6}$/.test(f)) throw new ProtocolError(`bad ${what}: '${f.slice(0, 20)}'`);
    return Number(f);
  };
  if (next() !== PROTOCOL_MAGIC) throw new ProtocolError('not a request of this protocol version');
  const cwd = next();
  if (!cwd.startsWith('/')) throw new ProtocolError('the working folder is not an absolute path');
  const umask = count('umask');
  if (umask > 0o777) throw new ProtocolError(`bad umask: ${umask}`);
  const args = Array.from({ length: count('argument count') }, next);
  const env: Record<string, string> = {};
  const nEnv = count('variable count');
  for (let k = 0; k < nEnv; k++) {
    const entry = next();
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new ProtocolError('a variable without a name');
    env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  if (i !== fields.length) throw new ProtocolError('extra fields after the request');
  return { cwd, umask, args, env };
}

/** Splits a byte stream into frames ('g' is the one-byte exception, read by the engine alone). */
export class FrameReader {
  private chunks: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  /** The next single byte, when the caller expects a one-byte message ('g'). */
  byte(): number | null {
    if (this.size === 0) return null;
    const all = this.take(1);
    return all[0] as number;
  }

  /** The next whole frame, or null until more bytes arrive. Throws ProtocolError on a bad frame. */
  next(): { type: FrameType; data: Buffer } | null {
    if (this.size < 5) return null;
    const head = this.peek(5);
    const type = String.fromCharCode(head[0] as number);
    if (!'qafoex'.includes(type)) throw new ProtocolError(`unknown frame type ${JSON.stringify(type)}`);
    const len = head.readUInt32BE(1);
    if (len > MAX_FRAME) throw new ProtocolError(`frame of ${len} bytes is too large`);
    if (this.size < 5 + len) return null;
    this.take(5);
    return { type: type as FrameType, data: this.take(len) };
  }

  private peek(n: number): Buffer {
    if ((this.chunks[0]?.length ?? 0) < n) this.chunks = [Buffer.concat(this.chunks)];
    return (this.chunks[0] as Buffer).subarray(0, n);
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.size -= n;
    return out;
  }
}

/** The file an engine holds its pid in while it runs a command (client.c reads it too). */
export const busyMark = (socket: string): string => `${socket}.busy`;

/** The pid of the engine running a command at `socket`, or null (no mark, or a dead engine's). */
export function busyEngine(socket: string): number | null {
  try {
    const pid = Number(readFileSync(busyMark(socket), 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return null;
    process.kill(pid, 0);
    return pid;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? Number(readFileSync(busyMark(socket), 'utf8').trim()) : null;
  }
}

export type EngineAnswer = { ran: true; code: number; stdout: string; stderr: string } | { ran: false; reason: string };

/**
 * Runs a command in the resident engine at `socket` from Node (what client.c does natively; used
 * by `cad server status|stop` and the tests). `ran: false` when no engine answered or it declined.
 */
export function askEngine(socket: string, request: EngineRequest, ackMs = 2000): Promise<EngineAnswer> {
  if (busyEngine(socket) !== null) return Promise.resolve({ ran: false, reason: 'busy' });
  return new Promise((resolve) => {
    const conn = connect(socket);
    const reader = new FrameReader();
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let acked = false;
    let done = false;
    const finish = (a: EngineAnswer): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      conn.destroy();
      resolve(a);
    };
    const timer = setTimeout(() => finish({ ran: false, reason: 'busy' }), ackMs);
    conn.on('connect', () => conn.write(encodeRequest(request)));
    conn.on('error', () => finish({ ran: false, reason: acked ? 'lost' : 'no-server' }));
    conn.on('close', () => finish({ ran: false, reason: acked ? 'lost' : 'no-server' }));
    conn.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      try {
        for (let f = reader.next(); f; f = reader.next()) {
          if (f.type === 'f') return finish({ ran: false, reason: f.data.toString('utf8') || 'refused' });
          if (f.type === 'a') {
            acked = true;
            clearTimeout(timer);
            conn.write('g');
          } else if (f.type === 'o') stdout.push(Buffer.from(f.data));
          else if (f.type === 'e') stderr.push(Buffer.from(f.data));
          else if (f.type === 'x')
            return finish({
              ran: true,
              code: f.data[0] ?? 1,
              stdout: Buffer.concat(stdout).toString('utf8'),
              stderr: Buffer.concat(stderr).toString('utf8'),
            });
        }
      } catch {
        finish({ ran: false, reason: 'protocol' });
      }
    });
  });
}
