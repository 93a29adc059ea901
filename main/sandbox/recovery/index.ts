/** The recovery room's face: what other folders may import from it. */
export { noteRecovered, recoverSandboxes } from './recovery.ts';
export type { RecoveryReport } from './recovery.ts';
