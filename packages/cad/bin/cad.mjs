#!/usr/bin/env node
// The `cad` command. Start-up time counts: the speed bar times `cad convert` as a process against
// peers that finish small files in ~0.1 s. Running the sources through tsx's loader hooks costs
// ~0.3 s and compiling pdfkit's 2 MB of JavaScript ~0.1 s per run, so:
//  1. src/cli.ts and its npm dependencies are bundled once with esbuild (tsx's own dependency)
//     into one CommonJS file under node_modules/.cache/cad-cli/, rebuilt when an input changes;
//     native addons stay external, and bundled modules load only when first used;
//  2. the bundle runs with a V8 code cache per command (convert to PDF, to PNG, info...), written
//     after the first run, so later runs skip most of the compiling.
// Without esbuild, tsx runs the sources. CAD_NO_BUNDLE=1 forces that.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(pkg, 'src', 'cli.ts');
const cacheRoot = join(pkg, 'node_modules', '.cache', 'cad-cli');
const manifestFile = join(cacheRoot, 'manifest.json');
/** Packages left out of the bundle: native addons, and packages that load files next to their code at run time. */
const EXTERNAL = /^(@napi-rs\/canvas|@mlightcad\/libredwg-web|esbuild|tsx)(\/|$)/;

const TINY_INFLATE_SHIM = `const { inflateRawSync } = require('node:zlib');
module.exports = function inflate(source, dest) {
  const out = inflateRawSync(source);
  const n = Math.min(out.length, dest.length);
  dest.set(n === out.length ? out : out.subarray(0, n));
  return n < dest.length ? dest.slice(0, n) : dest;
};`;

const stamp = (file) => {
  try {
    const st = statSync(file);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return 'missing';
  }
};

/** The cached bundle, when every input file is unchanged since it was built. */
function cachedBundle() {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    for (const [file, s] of Object.entries(manifest.inputs)) if (stamp(resolve(pkg, file)) !== s) return null;
    const file = join(cacheRoot, manifest.dir, 'cli.cjs');
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

async function buildBundle() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return null;
  }
  const dir = `b${Date.now().toString(36)}${process.pid.toString(36)}`;
  const outdir = join(cacheRoot, dir);
  const plugin = {
    name: 'cad-cli',
    setup(build) {
      build.onResolve({ filter: EXTERNAL }, (args) => ({ path: args.path, external: true }));
      // pdfkit's Unicode tables are inflated at load with tiny-inflate (pure JS, ~40 ms a run);
      // Node's zlib does the same raw inflate natively.
      build.onResolve({ filter: /^tiny-inflate$/ }, () => ({ path: 'tiny-inflate', namespace: 'cad-shim' }));
      build.onLoad({ filter: /.*/, namespace: 'cad-shim' }, () => ({ contents: TINY_INFLATE_SHIM, loader: 'js' }));
      // A module that finds files next to itself (pdfkit's standard fonts through
      // createRequire(import.meta.url), __dirname in CommonJS packages) keeps its own location.
      build.onLoad({ filter: /\.(mjs|cjs|js|ts)$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const usesDir = /\b__(dirname|filename)\b/.test(text) && !/\.(mjs|ts)$/.test(args.path);
        if (!text.includes('import.meta.url') && !usesDir) return undefined;
        let contents = text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
        if (usesDir) contents = `var __dirname = ${JSON.stringify(dirname(args.path))}, __filename = ${JSON.stringify(args.path)};\n${contents}`;
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js', resolveDir: dirname(args.path) };
      });
    },
  };
  try {
    const result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      outfile: join(outdir, 'cli.cjs'),
      absWorkingDir: pkg,
      metafile: true,
      logLevel: 'silent',
      // Half the bytes to read and hash each run; identifiers are not renamed (CAD_DEBUG stacks stay readable).
      minifyWhitespace: true,
      minifySyntax: true,
      plugins: [plugin],
    });
    const inputs = {};
    for (const file of Object.keys(result.metafile.inputs)) {
      const abs = resolve(pkg, file.replace(/^[a-z-]+:/, ''));
      inputs[relative(pkg, abs)] = stamp(abs);
    }
    inputs['package.json'] = stamp(join(pkg, 'package.json'));
    inputs[relative(pkg, fileURLToPath(import.meta.url))] = stamp(fileURLToPath(import.meta.url));
    mkdirSync(cacheRoot, { recursive: true });
    const tmp = `${manifestFile}.${process.pid}`;
    writeFileSync(tmp, JSON.stringify({ dir, inputs }));
    renameSync(tmp, manifestFile);
    pruneOldBundles(dir);
    return join(outdir, 'cli.cjs');
  } catch {
    rmSync(outdir, { recursive: true, force: true });
    return null;
  }
}

/** Old bundles go after an hour (a process started before a rebuild may still be reading one). */
function pruneOldBundles(keep) {
  try {
    for (const name of readdirSync(cacheRoot)) {
      const path = join(cacheRoot, name);
      if (name !== keep && name.startsWith('b') && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
    }
  } catch {
    // A cache that cannot be tidied is still usable.
  }
}

/** Which code a run compiles depends on the command and the output format: one code cache each. */
function cacheName(args) {
  const [command = 'none', , out = ''] = args;
  const ext = command === 'convert' ? (/\.(pdf|png|jpe?g|svg)$/i.exec(out)?.[1]?.toLowerCase() ?? 'x') : '';
  return `${command.replace(/[^a-z]/gi, '')}${ext ? `-${ext}` : ''}.v8cache`;
}

/** Loads the CommonJS bundle through vm.Script with its V8 code cache; returns its exports and a cache writer. */
function loadBundle(file, args) {
  const source = readFileSync(file, 'utf8');
  const cacheFile = join(dirname(file), cacheName(args));
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: (specifier) => import(specifier),
  });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const saveCache = () => {
    if (cachedData && !script.cachedDataRejected) return;
    try {
      const tmp = `${cacheFile}.${process.pid}`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
    } catch {
      // No cache this time; the next run tries again.
    }
  };
  return { main: module.exports.main, saveCache };
}

const args = process.argv.slice(2);
let main;
let saveCache = () => {};
const bundle = process.env.CAD_NO_BUNDLE ? null : (cachedBundle() ?? (await buildBundle()));
if (bundle) {
  try {
    ({ main, saveCache } = loadBundle(bundle, args));
  } catch {
    // A bundle that does not load is never worse than no bundle: run the sources.
    main = undefined;
  }
}
if (!main) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(pathToFileURL(entry).href));
}
const code = await main(args);
// Only a run that did the whole job compiled what the next ones need.
if (code === 0) saveCache();
// Exit once the output is flushed, even if a reader left a handle open.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
