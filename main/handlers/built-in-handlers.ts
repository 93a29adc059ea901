/**
 * The built-in handlers of the reference: GitCheckoutHandler (git_worktree, falling back to
 * copy_on_write inside the SandboxManager) and FsDirectoryHandler (copy_on_write), and the
 * default handler used when a type has no handler or its handler fails to load.
 */
import { ValidationError } from '../../shared/errors.ts';
import type { BoundResource, SandboxStrategy } from '../../shared/model.ts';
import type { HandlerInput, ResourceHandler } from './handler.ts';

/** The fixed specifier of the built-in git-checkout handler. */
export const GIT_CHECKOUT_HANDLER = 'cleveragents.resource.handlers.git_checkout:GitCheckoutHandler';
/** The fixed specifier of the built-in fs-directory handler. */
export const FS_DIRECTORY_HANDLER = 'cleveragents.resource.handlers.fs_directory:FsDirectoryHandler';

async function provision(input: HandlerInput, fallback: SandboxStrategy): Promise<BoundResource> {
  const { resource, planId, slotName, sandboxManager } = input;
  const access = input.access ?? 'read_only';
  if (!resource.location) {
    throw new ValidationError(`Resource "${resource.name}" has no location: set its folder.`, { hints: [{ action: 'update-resource', name: resource.name }] });
  }
  const sandbox = await sandboxManager.getOrCreateSandbox({
    planId,
    resourceId: resource.id,
    originalPath: resource.location,
    sandboxStrategy: input.sandboxStrategy ?? resource.sandboxStrategy ?? fallback,
    access,
  });
  return { slotName, resourceId: resource.id, resourceType: resource.typeName, sandboxPath: sandbox.context.sandboxPath, access };
}

/** Resolves git-checkout resources with a git worktree of their current working state. */
export class GitCheckoutHandler implements ResourceHandler {
  resolve(input: HandlerInput): Promise<BoundResource> {
    return provision(input, 'git_worktree');
  }
}

/** Resolves fs-directory resources with a copy-on-write copy. */
export class FsDirectoryHandler implements ResourceHandler {
  resolve(input: HandlerInput): Promise<BoundResource> {
    return provision(input, 'copy_on_write');
  }
}

/** Delegates straight to the SandboxManager with the effective strategy (else `none`). */
export class DefaultHandler implements ResourceHandler {
  resolve(input: HandlerInput): Promise<BoundResource> {
    return provision(input, 'none');
  }
}
