import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoreError } from './errors';

/** Where a ledger lives: an embedded image file, or a PostgreSQL database. */
export type LedgerLocation = { kind: 'embedded'; dbPath: string } | { kind: 'postgres'; url: string };

/** Environment variables the password may come from, in order after the URL itself. */
export const PASSWORD_VARIABLES = ['AGENT_LEDGER_DB_PASSWORD', 'PGPASSWORD'] as const;

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]+):/;

/**
 * Reads a `--db` value. A `postgres://` or `postgresql://` URL is a server, never a path;
 * another URL scheme (`mysql://`, `http://`) is refused; `file://` URLs and everything else are
 * image paths, resolved against `cwd`. A bare `postgres:` without `//` is refused too: it is a
 * mistyped URL, not a folder to create. Windows drive letters (`C:\…`) are paths.
 */
export function parseLedgerLocation(value: string, cwd = process.cwd()): LedgerLocation {
  const text = value.trim();
  if (!text)
    throw new StoreError('badLocation', 'the database location is empty: give a file path or a postgres:// URL');
  const scheme = SCHEME.exec(text)?.[1].toLowerCase();
  const isUrl =
    scheme !== undefined &&
    (text.slice(scheme.length + 1).startsWith('//') || scheme === 'postgres' || scheme === 'postgresql');
  if (!isUrl) return { kind: 'embedded', dbPath: path.resolve(cwd, text) };
  if (scheme === 'file') return { kind: 'embedded', dbPath: fileURLToPath(text) };
  if (scheme !== 'postgres' && scheme !== 'postgresql') {
    throw new StoreError(
      'badLocation',
      `${scheme}:// databases are not supported: give a postgres:// URL (PostgreSQL) or a file path (the embedded store)`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StoreError(
      'badLocation',
      `not a valid PostgreSQL URL: ${redactUrl(text)} (expected postgres://user@host:5432/database)`,
    );
  }
  if (!url.hostname && !url.searchParams.get('host'))
    throw new StoreError('badLocation', `the PostgreSQL URL names no host: ${redactUrl(text)}`);
  return { kind: 'postgres', url: text };
}

/**
 * The password for a PostgreSQL URL: the URL's own, else `AGENT_LEDGER_DB_PASSWORD` (this
 * ledger's), else `PGPASSWORD` (libpq's, which other tools may have set for another server).
 * Undefined when none is set (the server may not need one, or ~/.pgpass has it).
 */
export function resolvePassword(url: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromUrl = passwordOf(url);
  if (fromUrl) return fromUrl;
  for (const name of PASSWORD_VARIABLES) {
    const value = env[name];
    if (value) return value;
  }
  return undefined;
}

/** The URL with its password (and any `password=` parameter) replaced by `***`: safe in messages, logs and `describe()`. */
export function redactUrl(url: string): string {
  let out = url.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^:/?#@]*):[^@/?#]*@/, '$1:***@');
  out = out.replace(/([?&]password=)[^&#]*/gi, '$1***');
  return out;
}

/** `text` with every occurrence of `secret` removed (for messages built from driver errors). */
export function scrub(text: string, secret: string | undefined): string {
  return secret && secret.length >= 3 ? text.split(secret).join('***') : text;
}

function passwordOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.password) return decodeURIComponent(parsed.password);
    return parsed.searchParams.get('password') ?? undefined;
  } catch {
    return undefined;
  }
}
