/** The ptolog language server as a library: start it on any connection. */
export { startServer, documentPath, EXPLAIN_COMMAND } from './server.js';
export { watchRulePaths } from './watch.js';
export type { LspSettings, SettingsFor, FindingFilter, ServerOptions } from './settings.js';
export { configuredSettings, configuredFilter } from './configured.js';
