/** The provision room's face: what other folders may import from it. */
export { makeFoldersWritable, makeReadOnly } from './access.ts';
export { copyTree } from './copy-tree.ts';
export type { ProvisionProgress } from './copy-tree.ts';
export { baseRefFor } from './git-worktree.ts';
export { META_SUFFIX, assertDeletable, isSandboxDepth, isStrictlyInside, layoutFor, metaDir, readMarker, sandboxPathFor, writeMarker } from './layout.ts';
export type { SandboxLayout } from './layout.ts';
export { createSandbox, shareSandbox } from './provision-sandbox.ts';
export type { SandboxRequest } from './provision-sandbox.ts';
export { removeSandboxFiles, removeWorktreeSandbox } from './provision.ts';
export { finishSparse, hasHoles, writeSkippingZeros } from './sparse-copy.ts';
