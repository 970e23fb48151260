// dist/cli.js, the `agent-ledger` command: turns on V8's compile cache in a private folder
// (src/app/compileCache.ts), then loads the CLI bundle (dist/cliMain.js) so that it is compiled through
// the cache. Kept tiny: everything it imports is compiled without the cache at every start.
import * as path from 'node:path';
import { enablePrivateCompileCache } from '../app/compileCache';
import { holdEarlyStop } from './earlyStop';

// First: the runner keeps a stop that comes while the bundle loads (earlyStop.ts).
holdEarlyStop(process.argv);
enablePrivateCompileCache();
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle beside this file, loaded after the cache is on
require(path.join(__dirname, 'cliMain.js'));
