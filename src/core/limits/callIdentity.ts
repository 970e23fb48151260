import { thisMachine } from '../machine';

/**
 * This process as a connection (`connection:<machine>/<user>/<pid>`: one MCP server process per
 * client, one CLI command): where a login comes from, for the login throttle.
 */
export function connectionIdentity(): string {
  const machine = thisMachine();
  return `connection:${machine.id}/${machine.user}/${process.pid}`;
}
