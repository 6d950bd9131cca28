/**
 * Random program generation (fast-check arbitraries), IR constructors and non-canonical
 * respellings, for property tests, `verify` and benchmarks.
 */
export * from './arb.js';
export * as build from './build.js';
export { arbRespelling, type Respelling, respell } from './respell.js';
