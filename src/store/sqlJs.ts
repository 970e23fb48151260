import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';

let module: Promise<SqlJsStatic> | undefined;

/**
 * Loads sql.js once per process. The wasm file sits beside the bundle in `dist/`
 * (esbuild.mjs copies it); from sources (tests run with tsx) it comes from node_modules.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
  // Native SQLite math functions (power() fades stigmergy marks in SQL), not sql.js's deprecated copies.
  module ??= initSqlJs({ locateFile: (file) => locate(file), useOldExtensionFunctions: false } as Parameters<typeof initSqlJs>[0]);
  return module;
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
