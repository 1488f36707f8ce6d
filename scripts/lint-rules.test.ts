import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run lint` keeps the architecture (decision 0035). Each rule is shown failing here once, on a
// small tree written for it, with the repository's own configuration files: a new import cycle, a
// module reaching into another's repository, an unused export, an undeclared package, a deep
// import into another workspace and a 12-line clone each make lint fail.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = promisify(execFile);
const trees: string[] = [];

afterAll(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true });
});

function tree(files: Record<string, string>, configs: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'lint-rules-'));
  trees.push(dir);
  for (const config of configs) copyFileSync(join(root, config), join(dir, config));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Runs a lint tool; answers its exit code and everything it printed. */
async function lint(cwd: string, command: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const depcruise = (cwd: string) =>
  lint(cwd, bin('depcruise'), [
    '--config',
    join(root, '.dependency-cruiser.cjs'),
    ...['apps', 'packages'].filter((dir) => existsSync(join(cwd, dir))),
  ]);
const depcruiseConfigs = ['tsconfig.base.json', 'tsconfig.depcruise.json'];

describe('npm run lint', () => {
  it('fails on a new import cycle, type-only imports included', { timeout: 60_000 }, async () => {
    const dir = tree(
      {
        'packages/geo/src/a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
        'packages/geo/src/b.ts': "import type { A } from './a';\nexport interface B { a: A }\n",
      },
      depcruiseConfigs,
    );
    const { code, output } = await depcruise(dir);
    expect(code).not.toBe(0);
    expect(output).toContain('no-cycle');
    expect(output).toContain('packages/geo/src/a.ts');
  });

  it('fails when a module imports another module’s repository, and passes through its service', { timeout: 60_000 }, async () => {
    const repository = 'export const findUser = (id: number) => ({ id });\n';
    const service = "import { findUser } from './user.repository';\nexport const userOf = (id: number) => findUser(id);\n";
    const crossing = tree(
      {
        'apps/api/src/modules/auth/user.repository.ts': repository,
        'apps/api/src/modules/auth/auth.service.ts': service,
        'apps/api/src/modules/pay/pay.service.ts':
          "import { findUser } from '../auth/user.repository';\nexport const payer = findUser(1);\n",
      },
      depcruiseConfigs,
    );
    const crossed = await depcruise(crossing);
    expect(crossed.code).not.toBe(0);
    expect(crossed.output).toContain('modules-through-their-service');
    expect(crossed.output).toContain('apps/api/src/modules/pay/pay.service.ts → apps/api/src/modules/auth/user.repository.ts');

    const through = tree(
      {
        'apps/api/src/modules/auth/user.repository.ts': repository,
        'apps/api/src/modules/auth/auth.service.ts': service,
        'apps/api/src/modules/pay/pay.service.ts': "import { userOf } from '../auth/auth.service';\nexport const payer = userOf(1);\n",
      },
      depcruiseConfigs,
    );
    expect(await depcruise(through)).toMatchObject({ code: 0 });
  });

  it('fails on an unused export and on a package imported but not declared', { timeout: 90_000 }, async () => {
    const dir = tree({
      'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module', dependencies: {} }),
      'knip.json': JSON.stringify({ entry: ['src/main.ts'], project: ['src/**/*.ts'], ignoreExportsUsedInFile: true }),
      'src/main.ts': "import { used } from './lib';\nimport leftPad from 'left-pad';\nconsole.info(leftPad(used, 4));\n",
      'src/lib.ts': "export const used = 'x';\nexport const forgotten = 'y';\n",
    });
    const { code, output } = await lint(dir, bin('knip'), ['--no-progress', '--no-config-hints']);
    expect(code).not.toBe(0);
    expect(output).toMatch(/Unused exports \(1\)[\s\S]*forgotten/);
    expect(output).toMatch(/Unlisted dependencies \(1\)[\s\S]*left-pad/);
  });

  it('keeps the repository’s knip configuration from switching those checks off', async () => {
    const { default: config } = (await import('../knip.config')) as { default: Record<string, unknown> };
    expect(config.rules).toBeUndefined();
    expect(config.exclude).toBeUndefined();
    expect(JSON.stringify(config.ignoreIssues)).not.toMatch(/dependencies|unlisted|files/);
  });

  it('fails on an import into another workspace’s source', async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText("import { solidPng } from '../apps/api/src/lib/png';\nexport const png = solidPng;\n", {
      filePath: join(root, 'bench/deep-import.ts'),
    });
    expect(result?.messages.map((message) => message.ruleId)).toContain('no-restricted-imports');
  });

  it('fails on a block of 12 lines written twice', { timeout: 60_000 }, async () => {
    const body = Array.from(
      { length: 14 },
      (_, i) => `  total += Math.hypot(points[${i}]!.x - origin.x, points[${i}]!.y * scale + ${i});`,
    ).join('\n');
    const copy = (name: string) =>
      `export function ${name}(points: { x: number; y: number }[], origin: { x: number }, scale: number): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    const dir = tree({ 'apps/one.ts': copy('first'), 'apps/two.ts': copy('second') }, ['.jscpd.json']);
    const { code, output } = await lint(dir, bin('jscpd'), ['apps']);
    expect(code).not.toBe(0);
    expect(output).toMatch(/Clone found/);
  });
});
