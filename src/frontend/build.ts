/**
 * The IR builders the DSL parser builds through, by concern: expressions (build-expr.ts), types
 * (build-types.ts), statements (build-stmt.ts) and functions (build-function.ts).
 */

export * from './build-expr.js';
export * from './build-function.js';
export * from './build-stmt.js';
export * from './build-types.js';
