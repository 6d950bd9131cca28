/** The independent oracle of `ptolog verify`: an abstract machine over Ascend's non-coherent GM cache. */

export { type Effect, effectOf } from './effects.js';
export { DEVICE_KINDS, formatRace, kernelRaces, moduleRaces, type Race, type Step } from './run.js';
