/**
 * Shapes the API returns beyond the domain model (shared/model.ts): list rows, folder checks,
 * live statuses, validation reports. Plain data, so they cross IPC and HTTP unchanged.
 */
import type { Resource, ToolDefinition } from './model.ts';

/** A resource with the names of the projects that link it, for the resources table. */
export interface ResourceListItem extends Resource {
  projects: string[];
}

/** What the register dialog learns about a folder before anything is saved. */
export interface FolderInspection {
  /** Absolute path, symlinks resolved when the folder exists. */
  path: string;
  exists: boolean;
  isDirectory: boolean;
  /** Top of the git work tree containing the folder, or null outside git. */
  gitRoot: string | null;
  /** `git-checkout` for a work-tree root, else `fs-directory`. */
  suggestedType: string;
  /** A free `namespace/name` derived from the folder name, e.g. `local/my-app`. */
  suggestedName: string;
}

/** Live facts about a resource's folder, computed on demand (they cost a git call each). */
export interface ResourceStatus {
  resourceId: string;
  locationMissing: boolean;
  /** Current branch, `(detached)` on a detached HEAD, null when the folder is not a git root. */
  gitBranch: string | null;
  /** Changed plus untracked files, null when not a git root or git failed. */
  dirtyCount: number | null;
  /** Why git facts are missing, when they are. */
  problem: string | null;
}

/** One problem in a tool file, located at its line so an editor can mark it. */
export interface ToolFileIssue {
  file: string;
  line: number | null;
  column: number | null;
  field: string;
  message: string;
}

/** The outcome of checking a tool file without registering it. */
export interface ToolValidation {
  ok: boolean;
  /** The tools the file defines (empty when it does not parse). */
  tools: ToolDefinition[];
  issues: ToolFileIssue[];
}

/** A tool written back in its file format. */
export interface ToolExport {
  name: string;
  fileName: string;
  text: string;
}

/** One health check. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** Every health check and the overall verdict. */
export interface DoctorReport {
  dataDir: string;
  ok: boolean;
  checks: DoctorCheck[];
}

/** Which host serves the renderer. */
export type HostKind = 'electron' | 'web';

/** Facts for the About panel and diagnostics. */
export interface AppInfo {
  name: string;
  version: string;
  dataDir: string;
  host: HostKind;
  platform: string;
  schemaVersion: number;
}

/** What `removeResource` undid besides the row. */
export interface ResourceRemoval {
  resource: Resource;
  unlinkedFrom: string[];
  staticIn: string[];
}
