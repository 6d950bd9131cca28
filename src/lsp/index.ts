/** The ptolog language server as a library: start it on any connection. */

export { configuredFilter, configuredSettings } from './configured.js';
export { documentPath, EXPLAIN_COMMAND, startServer } from './server.js';
export type { FindingFilter, LspSettings, ServerOptions, SettingsFor } from './settings.js';
export { watchRulePaths } from './watch.js';
