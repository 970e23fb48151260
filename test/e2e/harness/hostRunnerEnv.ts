// Environment variables the harness sets on the code-server it starts and the
// in-host runner reads (the extension host inherits the server's env).

/** Path of the mocha `json` report the runner writes. */
export const resultFileEnv = 'E2E_MOCHA_RESULT_FILE';

/** Optional mocha `grep` pattern. */
export const grepEnv = 'E2E_MOCHA_GREP';
