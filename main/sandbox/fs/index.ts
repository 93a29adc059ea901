/**
 * The engine's file-system helpers, its one public face to the other rooms: names that are not
 * UTF-8 kept exactly (paths), tree listings (walk, scan) and the one concurrency pool.
 */
export { decodeName, displayPath, encodeName, hasEscapes, inRoot } from './paths.ts';
export { isGnuTool } from './gnu-tool.ts';
export { balance, DEFAULT_CONCURRENCY, forEachLimit, STOP } from './pool.ts';
export { scanChangedSince, scanTree, specialKindOf, type ChangedScanOptions, type ScanEntry, type ScanOptions, type SpecialKind } from './scan.ts';
export { listTree, walkSync, type WalkEntry, type WalkKind, type WalkOptions } from './walk.ts';

