// The entry of dist/ledger.js: what the extension needs from the domain once a ledger opens.
// A bundle of its own (esbuild.mjs) so activation never compiles sql.js, Git and the services.
// The error classes come along so that errors thrown in this bundle are recognised (instanceof)
// against the classes of this bundle, not only against the extension bundle's copies.
export { createServices } from '../../services';
export { LedgerError } from '../../core/errors';
export { StoreError } from '../../store/errors';
