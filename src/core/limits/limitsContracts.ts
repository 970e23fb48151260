import { z } from 'zod';
import { limitDefinitions } from './ledgerLimits';
import type { LedgerLimits } from './ledgerLimits';

const unitWords = { bytes: 'characters', count: 'a count', ms: 'milliseconds' } as const;

/** The ledger's bounds as mcp_info reports them (`limits.ledger`), one field per limit. */
export const ledgerLimitsOutput = z
  .strictObject(
    Object.fromEntries(
      Object.entries(limitDefinitions).map(([name, d]) => [
        name,
        z.number().describe(`${d.bounds} (${unitWords[d.unit]})`),
      ]),
    ) as Record<keyof LedgerLimits, z.ZodNumber>,
  )
  .describe('The bounds of this ledger in force (AGENT_LEDGER_LIMITS; docs/limits.md)');
