import { z } from 'zod';
import { agentName } from '../contracts/refs';

/** Inputs of seed 002's agent tools (MCP and CLI). */
export const agentListInput = z.strictObject({});
export const agentGetInput = z.strictObject({ name: agentName });
