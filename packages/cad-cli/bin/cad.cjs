#!/usr/bin/env node
// The `cad` command. Start-up time counts: the speed bar times `cad convert` as a process against
// peers that finish small files in ~0.1 s. Running the sources through tsx's loader hooks costs
// ~0.3 s and compiling pdfkit's 2 MB of JavaScript ~0.1 s per run, so:
//  1. src/cli.ts and its npm dependencies are bundled once with esbuild (tsx's own dependency)
//     into CommonJS files under node_modules/.cache/cad-cli/, rebuilt when an input changes;
//     native addons stay external, and bundled modules load only when first used;
//  2. one bundle per kind of run: a PDF run's bundle leaves out the raster back end, a PNG/JPG
//     run's leaves out pdfkit (the raster bundle is 0.3 MB where one for everything is 1.5 MB),
//     SVG, `info` and the rest leave out both (what the command will not call is replaced by a
//     stub that says so);
//  3. what pdfkit loads at start-up but most PDFs never use (fontkit, its text wrapping, its AES
//     code) loads on first use instead, fontkit from a bundle of its own; the metrics of the
//     standard fonts are bundled rather than found through pdfkit's import map at run time;
//     pdf.js (PDF input) is a bundle of its own too, loaded only for a PDF;
//  4. each bundle runs with a V8 code cache per command (convert to PDF, to PNG, info...), and a
//     chunk with its own, written after the first run, so later runs skip most of the compiling.
// Without esbuild, tsx runs the sources; CAD_NO_BUNDLE=1 forces that. A PDF input runs bundled
// too: pdf/index.ts hands pdf.js its parser up front, so pdf.js makes no dynamic import().
// CommonJS, not an ES module: Node starts a CommonJS entry a few milliseconds sooner (no module
// loader to set up), and every run pays for it.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file loads its modules with require() */
const { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join, relative, resolve } = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

const pkg = resolve(__dirname, '..');
const entry = join(pkg, 'src', 'cli.ts');
const cacheRoot = join(pkg, 'node_modules', '.cache', 'cad-cli');

/** Which back ends this run can use, from the command and OUT's extension. */
function bundleKind(args) {
  const [command, sub, out = ''] = args;
  // The resident engine (decision 0024) runs every kind of command.
  if (command === 'server' && sub === 'run') return 'serve';
  if (command !== 'convert') return 'base';
  const ext = /\.(pdf|png|jpe?g|svg)$/i.exec(out)?.[1]?.toLowerCase();
  return ext === 'pdf' ? 'pdf' : ext === 'png' || ext === 'jpg' || ext === 'jpeg' ? 'raster' : 'base';
}
/** The back-end modules (imported by src/convert.ts on demand) each kind of bundle leaves out. */
const LEFT_OUT = { pdf: ['node-raster'], raster: ['node-pdf'], base: ['node-pdf', 'node-raster'], serve: [] };
/** Packages left out of the bundle: native addons, and packages that load files next to their code at run time. */
const EXTERNAL = /^(@napi-rs\/canvas|@mlightcad\/libredwg-web|esbuild|tsx)(\/|$)/;

const TINY_INFLATE_SHIM = `const { inflateRawSync } = require('node:zlib');
module.exports = function inflate(source, dest) {
  const out = inflateRawSync(source);
  const n = Math.min(out.length, dest.length);
  dest.set(n === out.length ? out : out.subarray(0, n));
  return n < dest.length ? dest.slice(0, n) : dest;
};`;

/**
 * Modules pdfkit imports at start-up that most PDFs never use, replaced by stand-ins that load
 * them on first use (~8 ms a run): fontkit (fonts other than the 14 standard ones: only for text
 * that Helvetica cannot show, one drawing in five), linebreak (pdfkit's text wrapping, which
 * node-pdf.ts does not use; it decodes its tables at load) and the AES code (encrypted PDFs).
 * fontkit is a bundle of its own ("chunk") with its own code cache, so that runs without it keep
 * a small code cache and runs with it do not compile it.
 */
const LAZY = {
  fontkit: (
    dir,
  ) => `const real = () => globalThis.${CHUNK_LOADER}?.('fontkit') ?? require('node:module').createRequire(${JSON.stringify(join(dir, 'x.js'))})('fontkit');
module.exports = { create: (...a) => real().create(...a) };`,
  linebreak: () => `const real = () => { const m = require('linebreak'); return m.default ?? m; };
module.exports = function LineBreaker(...a) { return new (real())(...a); };`,
  '@noble/ciphers/aes': () => `const real = () => require('@noble/ciphers/aes');
module.exports = { get cbc() { return real().cbc; }, get ecb() { return real().ecb; } };`,
  // pdf.js (PDF input only: 2.2 MB of the 2.8 MB a bundle would be) is a chunk of its own; these
  // stand-ins are evaluated only when pdf/index.ts imports it.
  'pdfjs-dist/legacy/build/pdf': () => pdfjsStandIn('pdf'),
  'pdfjs-dist/legacy/build/pdf.worker': () => pdfjsStandIn('worker'),
};
function pdfjsStandIn(part) {
  return `const chunk = globalThis.${CHUNK_LOADER}?.('pdfjs');
if (!chunk) throw new Error('PDF input needs the pdf.js chunk of the cad bundle (bin/cad.cjs), which did not load');
module.exports = chunk.${part};`;
}
const LAZY_NAMES = /^(fontkit|linebreak|@noble\/ciphers\/aes|pdfjs-dist\/legacy\/build\/pdf(\.worker)?\.mjs)$/;
/** The global function through which a bundle loads a chunk (set by this file). */
const CHUNK_LOADER = '__xcadLoadChunk';

const stamp = (file) => {
  try {
    const st = statSync(file);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return 'missing';
  }
};

const manifestFile = (kind) => join(cacheRoot, `manifest-${kind}.json`);

/** The cached bundle, when every input file is unchanged since it was built. */
function cachedBundle(kind) {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile(kind), 'utf8'));
    for (const [file, s] of Object.entries(manifest.inputs)) if (stamp(resolve(pkg, file)) !== s) return null;
    const file = join(cacheRoot, manifest.dir, `cli-${kind}.cjs`);
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** The esbuild plugin: stubs, stand-ins, shims and file locations (see the top of this file). */
function cadPlugin(kind, { lazy }) {
  return {
    name: 'cad-cli',
    setup(build) {
      build.onResolve({ filter: EXTERNAL }, (args) => ({ path: args.path, external: true }));
      // The back ends this kind of run never calls.
      build.onResolve({ filter: /^\.\/render\/node-(pdf|raster)$/ }, (args) => {
        const name = args.path.slice('./render/'.length);
        return /[\\/]src[\\/]convert\.ts$/.test(args.importer) && LEFT_OUT[kind].includes(name)
          ? { path: name, namespace: 'cad-left-out' }
          : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'cad-left-out' }, (args) => ({
        contents: `const no = () => { throw new Error('the ${args.path} back end is not in the ${kind} bundle (bin/cad.cjs)'); };\nexport const renderPdf = no, renderRaster = no, rasterLayout = no;`,
        loader: 'js',
      }));
      // Modules pdfkit loads at start-up but most PDFs never use: loaded on first use instead.
      if (lazy) {
        build.onResolve({ filter: LAZY_NAMES }, (args) =>
          // (Named without .mjs: esbuild would take a stand-in so named for an ES module.)
          args.pluginData === 'cad-real'
            ? undefined
            : { path: args.path.replace(/\.mjs$/, ''), namespace: 'cad-lazy', pluginData: args.resolveDir },
        );
        build.onLoad({ filter: /.*/, namespace: 'cad-lazy' }, (args) => ({
          contents: LAZY[args.path](args.pluginData),
          loader: 'js',
          resolveDir: args.pluginData,
          pluginData: 'cad-real',
        }));
      }
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
        // pdfkit finds the metrics of its standard fonts (Helvetica: every PDF) at run time through
        // its package's import map: ~8 ms resolving and compiling. Bundled instead (loaded when used).
        contents = contents.replace(/\brequire\$1\((['"])#standard-fonts\//g, 'require($1#standard-fonts/');
        if (usesDir)
          contents = `var __dirname = ${JSON.stringify(dirname(args.path))}, __filename = ${JSON.stringify(args.path)};\n${contents}`;
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

async function buildBundle(kind) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return null;
  }
  const dir = `b${Date.now().toString(36)}${process.pid.toString(36)}`;
  const outdir = join(cacheRoot, dir);
  const common = {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    absWorkingDir: pkg,
    metafile: true,
    logLevel: 'silent',
    // Half the bytes to read and hash each run; identifiers are not renamed (CAD_DEBUG stacks stay readable).
    minifyWhitespace: true,
    minifySyntax: true,
  };
  try {
    const result = await esbuild.build({
      ...common,
      entryPoints: [entry],
      outfile: join(outdir, `cli-${kind}.cjs`),
      plugins: [cadPlugin(kind, { lazy: true })],
    });
    const metas = [result.metafile];
    // The chunks the stand-ins load: fontkit, resolved from where pdfkit imports it.
    const fontkitFrom = findImporterDir(result.metafile, 'cad-lazy:fontkit');
    if (fontkitFrom) {
      const chunk = await esbuild.build({
        ...common,
        stdin: { contents: "module.exports = require('fontkit');", resolveDir: fontkitFrom, sourcefile: 'fontkit-chunk.js', loader: 'js' },
        outfile: join(outdir, 'fontkit.cjs'),
        plugins: [cadPlugin(kind, { lazy: false })],
      });
      metas.push(chunk.metafile);
    }
    const pdfjs = await esbuild.build({
      ...common,
      stdin: {
        contents:
          "module.exports = { pdf: require('pdfjs-dist/legacy/build/pdf.mjs'), worker: require('pdfjs-dist/legacy/build/pdf.worker.mjs') };",
        resolveDir: pkg,
        sourcefile: 'pdfjs-chunk.js',
        loader: 'js',
      },
      outfile: join(outdir, 'pdfjs.cjs'),
      plugins: [cadPlugin(kind, { lazy: false })],
    });
    metas.push(pdfjs.metafile);
    const inputs = {};
    for (const meta of metas)
      for (const file of Object.keys(meta.inputs)) {
        if (/^[a-z-]+:/.test(file) || file === '<stdin>') continue;
        const abs = resolve(pkg, file);
        inputs[relative(pkg, abs)] = stamp(abs);
      }
    inputs['package.json'] = stamp(join(pkg, 'package.json'));
    inputs[relative(pkg, __filename)] = stamp(__filename);
    mkdirSync(cacheRoot, { recursive: true });
    const tmp = `${manifestFile(kind)}.${process.pid}`;
    writeFileSync(tmp, JSON.stringify({ dir, inputs }));
    renameSync(tmp, manifestFile(kind));
    pruneOldBundles();
    return join(outdir, `cli-${kind}.cjs`);
  } catch {
    rmSync(outdir, { recursive: true, force: true });
    return null;
  }
}

/** The folder of the module that imports `input` (a metafile input), for resolving what it imports. */
function findImporterDir(meta, input) {
  for (const [file, info] of Object.entries(meta.inputs))
    if (info.imports?.some((i) => i.path === input) && !/^[a-z-]+:/.test(file)) return dirname(resolve(pkg, file));
  return null;
}

/** Bundles no manifest names go after an hour (a process started before a rebuild may still be reading one). */
function pruneOldBundles() {
  try {
    const names = readdirSync(cacheRoot);
    const keep = new Set();
    for (const name of names) {
      if (!/^manifest-[a-z]+\.json$/.test(name)) continue;
      try {
        keep.add(JSON.parse(readFileSync(join(cacheRoot, name), 'utf8')).dir);
      } catch {
        // Another process is replacing it.
      }
    }
    // The single manifest of older versions of this file.
    rmSync(join(cacheRoot, 'manifest.json'), { force: true });
    for (const name of names) {
      const path = join(cacheRoot, name);
      if (!keep.has(name) && name.startsWith('b') && Date.now() - statSync(path).mtimeMs > 3_600_000)
        rmSync(path, { recursive: true, force: true });
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

/** Runs a CommonJS file through vm.Script with a V8 code cache; returns its exports and a cache writer. */
function runScript(file, cacheFile) {
  const source = readFileSync(file, 'utf8');
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
  return { exports: module.exports, saveCache };
}

/** Loads the bundle (and, on demand, its chunks) with their code caches; returns `main` and the cache writer. */
function loadBundle(file, args) {
  const dir = dirname(file);
  const { exports, saveCache } = runScript(file, join(dir, cacheName(args)));
  const savers = [saveCache];
  const chunks = new Map();
  globalThis[CHUNK_LOADER] = (name) => {
    if (!chunks.has(name)) {
      let loaded = null;
      try {
        const chunk = join(dir, `${name}.cjs`);
        if (existsSync(chunk)) {
          const r = runScript(chunk, join(dir, `${name}.v8cache`));
          savers.push(r.saveCache);
          loaded = r.exports;
        }
      } catch {
        loaded = null;
      }
      chunks.set(name, loaded);
    }
    return chunks.get(name);
  };
  return { main: exports.main, afterCommand: exports.afterCommand, saveCache: () => savers.forEach((save) => save()) };
}

async function run() {
  const args = process.argv.slice(2);
  let main;
  let afterCommand;
  let saveCache = () => {};
  const kind = bundleKind(args);
  const bundle = process.env.CAD_NO_BUNDLE ? null : (cachedBundle(kind) ?? (await buildBundle(kind)));
  if (bundle) {
    try {
      ({ main, afterCommand, saveCache } = loadBundle(bundle, args));
      // The resident engine asks this before each command: a bundle older than the sources (or
      // replaced by a newer build) declines, and the command runs in a process of its own.
      globalThis.__xcadBundleStale = () => cachedBundle(kind) !== bundle;
    } catch {
      // A bundle that does not load is never worse than no bundle: run the sources.
      main = undefined;
    }
  }
  if (!main) {
    const { register } = await import('tsx/esm/api');
    register();
    ({ main, afterCommand } = await import(pathToFileURL(entry).href));
  }
  const code = await main(args);
  // Only a run that did the whole job compiled what the next ones need.
  if (code === 0) saveCache();
  // Started by the client because no resident engine took the command: start one for the next.
  if (afterCommand) await afterCommand(args);
  // Exit once the output is flushed, even if a reader left a handle open.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

run().catch((e) => {
  process.stderr.write(`cad: internal error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
  process.exit(1);
});
