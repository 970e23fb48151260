import * as os from 'node:os';

/**
 * The person a view acts for: the OS account the editor or `agent-ledger ui` runs as — what the
 * CLI records by default too — so a decision taken in any of them carries the same name.
 */
export function personName(fallback = 'editor user'): string {
  try {
    return os.userInfo().username || fallback;
  } catch {
    return fallback;
  }
}
