import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import type initSqlJsType from 'sql.js';
import type { SqlJsStatic } from 'sql.js';
import { withFilesGrownInPlace } from './sqlJsFileGrowth';

let module: Promise<SqlJsStatic> | undefined;
let compiled: Promise<WebAssembly.Module> | undefined;
let compiledNow: WebAssembly.Module | undefined;

/**
 * Loads sql.js once per process. Its glue and wasm files sit beside the bundle in `dist/`
 * (esbuild.mjs copies them); from sources (tests run with tsx) they come from node_modules. The
 * glue is read and run here rather than bundled, so that its in-memory files grow in place
 * (sqlJsFileGrowth.ts) wherever the store runs — bundle, tests and benchmarks alike.
 *
 * The WebAssembly module is compiled here rather than by sql.js's glue, so that a checkpoint's
 * worker thread can be handed the compiled module (`given`) and instantiate it without compiling
 * SQLite again: 20–160 ms of CPU per checkpoint, most of it on V8's compiler threads, which run
 * at the process's priority, not the worker's (backgroundCheckpoint.ts).
 */
export function loadSqlJs(given?: WebAssembly.Module): Promise<SqlJsStatic> {
  if (given) {
    compiledNow ??= given;
    compiled ??= Promise.resolve(given);
  }
  if (module) return module;
  // The glue starts while the module compiles (on V8's threads); it asks for the instance when ready.
  const wasm = compile();
  module = new Promise<SqlJsStatic>((resolve, reject) => {
    wasm.catch(reject);
    glue()({
      // Native SQLite math functions (power() fades stigmergy marks in SQL), not sql.js's deprecated copies.
      useOldExtensionFunctions: false,
      instantiateWasm(
        imports: WebAssembly.Imports,
        done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
      ) {
        wasm
          .then((compiled) => WebAssembly.instantiate(compiled, imports).then((instance) => done(instance, compiled)))
          .catch(reject);
        return {};
      },
    } as Parameters<typeof initSqlJsType>[0]).then(resolve, reject);
  });
  return module;
}

/** Whether this process's sql.js grows its files in place (tests; false only for a sql.js the patch does not know). */
export let filesGrowInPlace = false;

/** sql.js's glue (a CommonJS module), its file growth replaced where the source is the one expected. */
function glue(): typeof initSqlJsType {
  const file = sqlJsFile('sql-wasm.js');
  const original = fs.readFileSync(file, 'utf8');
  const patched = withFilesGrownInPlace(original);
  filesGrowInPlace = patched !== null;
  return runGlue(patched ?? original, file);
}

/** Runs a sql.js glue's source as the CommonJS module it is (`file`: where it was read from). */
export function runGlue(source: string, file: string): typeof initSqlJsType {
  const run = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
  }) as (...args: unknown[]) => void;
  const loaded = { exports: {} };
  run(loaded.exports, require, loaded, file, path.dirname(file));
  return loaded.exports as typeof initSqlJsType;
}

/** The compiled module once `loadSqlJs` has compiled it (undefined before): what a checkpoint worker is handed. */
export function compiledSqlJs(): WebAssembly.Module | undefined {
  return compiledNow;
}

/** Read at once (a read through fs.promises took several thread-pool hops: ~7 ms more to the first write under load). */
function compile(): Promise<WebAssembly.Module> {
  if (!compiled) {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = fs.readFileSync(sqlJsFile('sql-wasm.wasm')) as Uint8Array<ArrayBuffer>;
    } catch (err) {
      return Promise.reject(err);
    }
    compiled = WebAssembly.compile(bytes).then((wasm) => (compiledNow = wasm));
  }
  return compiled;
}

/** Where sql.js's `file` is: beside the bundle, else in node_modules. */
export function sqlJsFile(file: string): string {
  const beside = path.join(__dirname, file);
  if (fs.existsSync(beside)) return beside;
  try {
    return path.join(path.dirname(require.resolve('sql.js')), file);
  } catch {
    return beside;
  }
}
