/**
 * The switches a ledger keeps for every server and face that opens it (ledgerSettings.ts stores
 * them). Names only, so a server can name a switch without loading the store's code at start.
 */
export const ledgerSwitches = {
  /** Ask a pipeline's checkpoint of the person through the MCP client that waits on it (elicitation). */
  clientGates: 'pipeline.client_gates',
} as const;
