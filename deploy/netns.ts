import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// The recipe's test hosts (decision 0026): one Linux network namespace per tier, each with its own
// address on a private /24 whose bridge lives in the root namespace (this machine plays the
// visitor, at .1). Names carry the owning process id, so a run that died without cleaning up (a
// SIGKILLed test) is swept by the next one; subnets are reserved by exclusive files under /run, so
// parallel runs never share one.

const RESERVATIONS = '/run/xcad-test-networks';
const NAMESPACE = /^xcad-(\d+)-[0-9a-f]+-[a-z]+$/;
const BRIDGE = /^xb-([0-9a-z]+)-[0-9a-f]+$/;

export interface TestHost {
  /** The network namespace's name. */
  namespace: string;
  /** Its address on the test network. */
  address: string;
}

export interface TestNetwork<Tier extends string> {
  /** This machine's address on the test network (the bridge): where visitors come from. */
  visitorAddress: string;
  /** The network, `10.a.b.0/24`. */
  cidr: string;
  hosts: Record<Tier, TestHost>;
  /** The command prefix that runs a program on `tier`'s host. */
  launcher(tier: Tier): string[];
  /** Removes the namespaces (and with them what runs in them), the bridge and the reservation. */
  destroy(): void;
}

function ip(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function namespaces(): string[] {
  return ip(['netns', 'list'])
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name !== '');
}

/** Ends what runs in a namespace (by process id) and removes it. */
function removeNamespace(name: string): void {
  const pids = ip(['netns', 'pids', name])
    .split('\n')
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  ip(['netns', 'delete', name]);
}

/** Removes the namespaces, bridges and reservations of runs whose process is gone. */
export function sweepStaleNetworks(): void {
  for (const name of namespaces()) {
    const owner = NAMESPACE.exec(name)?.[1];
    if (owner !== undefined && !isAlive(Number(owner))) removeNamespace(name);
  }
  for (const line of ip(['-o', 'link', 'show', 'type', 'bridge']).split('\n')) {
    const name = /^\d+: ([^:@]+)/.exec(line)?.[1] ?? '';
    const owner = BRIDGE.exec(name)?.[1];
    if (owner !== undefined && !isAlive(parseInt(owner, 36))) ip(['link', 'delete', name]);
  }
  mkdirSync(RESERVATIONS, { recursive: true });
  for (const name of readdirSync(RESERVATIONS)) {
    const file = path.join(RESERVATIONS, name);
    if (!isAlive(Number(readFileSync(file, 'utf8')))) rmSync(file, { force: true });
  }
}

/** The /24s of 10.0.0.0/8 this machine already has an address or a route in. */
function subnetsInUse(): Set<string> {
  const used = new Set<string>();
  for (const match of `${ip(['-4', '-o', 'addr'])}\n${ip(['-4', 'route'])}`.matchAll(/\b10\.(\d+)\.(\d+)\.\d+/g))
    used.add(`10.${match[1]}.${match[2]}`);
  return used;
}

/** Reserves a free 10.a.b.0/24 (a >= 200) for this process; returns its first three octets. */
function reserveSubnet(): { prefix: string; release(): void } {
  mkdirSync(RESERVATIONS, { recursive: true });
  const used = subnetsInUse();
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const prefix = `10.${200 + Math.floor(Math.random() * 55)}.${Math.floor(Math.random() * 256)}`;
    if (used.has(prefix)) continue;
    const file = path.join(RESERVATIONS, prefix);
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
    } catch {
      continue;
    }
    return { prefix, release: () => rmSync(file, { force: true }) };
  }
  throw new Error('no free 10.x.y.0/24 for the test network');
}

/**
 * Makes a network with one namespace per tier, addresses .2, .3, ... in `tiers` order; loopback is
 * up in each (a tier's processes reach each other there, and the development routes answer only
 * on it). Sweeps stale networks first. Needs root.
 */
export function createTestNetwork<Tier extends string>(tiers: readonly Tier[]): TestNetwork<Tier> {
  sweepStaleNetworks();
  // Interface names have at most 15 characters: the owner's pid in base 36 and a random tag fit.
  const tag = randomBytes(2).toString('hex');
  const owner = process.pid.toString(36);
  const bridge = `xb-${owner}-${tag}`;
  const reservation = reserveSubnet();
  const created: string[] = [];
  const destroy = (): void => {
    for (const name of created.splice(0)) {
      if (namespaces().includes(name)) removeNamespace(name);
    }
    try {
      ip(['link', 'delete', bridge]);
    } catch {
      // Never made, or gone.
    }
    reservation.release();
  };
  try {
    ip(['link', 'add', bridge, 'type', 'bridge']);
    ip(['addr', 'add', `${reservation.prefix}.1/24`, 'dev', bridge]);
    ip(['link', 'set', bridge, 'up']);
    const hosts = {} as Record<Tier, TestHost>;
    tiers.forEach((tier, index) => {
      const namespace = `xcad-${process.pid}-${tag}-${tier}`;
      const outside = `xv-${owner}-${tag}${index}`;
      const address = `${reservation.prefix}.${index + 2}`;
      ip(['netns', 'add', namespace]);
      created.push(namespace);
      ip(['-n', namespace, 'link', 'set', 'lo', 'up']);
      ip(['link', 'add', outside, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace]);
      ip(['link', 'set', outside, 'master', bridge, 'up']);
      ip(['-n', namespace, 'addr', 'add', `${address}/24`, 'dev', 'eth0']);
      ip(['-n', namespace, 'link', 'set', 'eth0', 'up']);
      hosts[tier] = { namespace, address };
    });
    return {
      visitorAddress: `${reservation.prefix}.1`,
      cidr: `${reservation.prefix}.0/24`,
      hosts,
      launcher: (tier) => ['ip', 'netns', 'exec', hosts[tier].namespace],
      destroy,
    };
  } catch (error) {
    destroy();
    throw error;
  }
}
