// Build step (esbuild.mjs): prints the tools listing computed from the zod contracts, which the
// build writes to dist/toolsListing.json for `mcp serve` to answer tools/list without zod.
import { liveListing } from './liveListing';

void liveListing().then((listing) => process.stdout.write(JSON.stringify(listing)));
