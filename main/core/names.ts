/**
 * Naming rules of the model. Each check returns null when the value is fine, or a sentence
 * that says what is wrong and what a good value looks like.
 */

const TYPE_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const MAX_NAME = 200;

/** Checks a resource type name: kebab-case, e.g. `git-checkout`. */
export function checkTypeName(name: string): string | null {
  if (TYPE_NAME.test(name) && name.length <= MAX_NAME) return null;
  return `Type name "${name}" is not kebab-case: use lower-case words joined by "-", e.g. "git-checkout".`;
}

/** Checks a resource name: `namespace/name`, e.g. `local/shared-config`. */
export function checkResourceName(name: string): string | null {
  const segments = name.split('/');
  if (segments.length >= 2 && name.length <= MAX_NAME && segments.every((s) => SEGMENT.test(s))) return null;
  return `Resource name "${name}" must look like "namespace/name" (letters, digits, ".", "_", "-"), e.g. "local/shared-config".`;
}

/** Checks a project or tool name: one segment of letters, digits, ".", "_", "-". */
export function checkPlainName(kind: 'project' | 'tool', name: string): string | null {
  if (SEGMENT.test(name) && name.length <= MAX_NAME) return null;
  return `The ${kind} name "${name}" may hold only letters, digits, ".", "_" and "-", and must start with a letter or digit.`;
}

/** Checks a slot name or a link alias, which are compared with each other. */
export function checkIdentifier(kind: 'slot name' | 'alias', value: string): string | null {
  if (IDENTIFIER.test(value) && value.length <= MAX_NAME) return null;
  return `The ${kind} "${value}" may hold only letters, digits, "_" and "-", and must not start with a digit.`;
}

/** The part of a resource name after its last `/`: the name slots are matched against. */
export function shortName(resourceName: string): string {
  const slash = resourceName.lastIndexOf('/');
  return slash === -1 ? resourceName : resourceName.slice(slash + 1);
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when the value has the shape of a ULID (resource, project, tool and plan ids). */
export function looksLikeId(value: string): boolean {
  return ULID.test(value);
}
