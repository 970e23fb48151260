import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';

let module: Promise<SqlJsStatic> | undefined;
let compiled: Promise<WebAssembly.Module> | undefined;
let compiledNow: WebAssembly.Module | undefined;

/**
 * Loads sql.js once per process. The wasm file sits beside the bundle in `dist/`
 * (esbuild.mjs copies it); from sources (tests run with tsx) it comes from node_modules.
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
    initSqlJs({
      // Native SQLite math functions (power() fades stigmergy marks in SQL), not sql.js's deprecated copies.
      useOldExtensionFunctions: false,
      instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
        wasm.then((compiled) => WebAssembly.instantiate(compiled, imports).then((instance) => done(instance, compiled))).catch(reject);
        return {};
      },
    } as Parameters<typeof initSqlJs>[0]).then(resolve, reject);
  });
  return module;
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
      bytes = fs.readFileSync(locate('sql-wasm.wasm')) as Uint8Array<ArrayBuffer>;
    } catch (err) {
      return Promise.reject(err);
    }
    compiled = WebAssembly.compile(bytes).then((wasm) => (compiledNow = wasm));
  }
  return compiled;
}

function locate(file: string): string {
  const beside = path.join(__dirname, file);
  if (fs.existsSync(beside)) return beside;
  try {
    return path.join(path.dirname(require.resolve('sql.js')), file);
  } catch {
    return beside;
  }
}
