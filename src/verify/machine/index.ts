/** The independent oracle of `ptolog verify`: an abstract machine over Ascend's non-coherent GM cache. */
export { moduleRaces, kernelRaces, formatRace, DEVICE_KINDS, type Race, type Step } from './run.js';
export { effectOf, type Effect } from './effects.js';
