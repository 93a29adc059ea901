/**
 * What the engine counted in this process (files read, full listings), for a test build's server
 * only: specs check that the app asks for what it shows and no more. Never used to decide.
 */
export { changeCounters, resetChangeCounters, type ChangeCounters } from '../sandbox/index.ts';
