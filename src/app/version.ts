import { version as packageVersion } from '../../package.json';

/** The product version, from package.json (esbuild inlines only this field). */
export const version: string = packageVersion;
export const productName = 'agent-ledger';
