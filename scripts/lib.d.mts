import type { ChildProcess, StdioOptions } from 'node:child_process';

export const root: string;
export const webDir: string;
export const DEV_SIGN_SECRET: string;
export function withEmbeddedDefaults(env: NodeJS.ProcessEnv, options?: { warn?: boolean }): NodeJS.ProcessEnv;
export function log(message: string): void;
export function run(command: string, args: string[], options?: object): void;
export function loadDotEnv(): void;
export function ensureInstalled(): void;
export function webSourceHash(): string;
export function ensureWebBuild(env?: NodeJS.ProcessEnv): void;
export function migrateAndSeed(env?: NodeJS.ProcessEnv): void;
export function spawnApi(env: NodeJS.ProcessEnv, stdio?: StdioOptions): ChildProcess;
export function spawnWeb(env: NodeJS.ProcessEnv, port: number, stdio?: StdioOptions): ChildProcess;
export function waitForHttp(url: string, timeoutMs?: number, child?: ChildProcess): Promise<void>;
export function freePort(): Promise<number>;
export function stopChild(child: ChildProcess | undefined, graceMs?: number): Promise<void>;
export function e2eDistDir(): { NEXT_DIST_DIR: string; XCAD_BUILD_FINGERPRINT: string };
