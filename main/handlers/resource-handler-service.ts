/**
 * ResourceHandlerService: the reference's pipeline from BindingResult to BoundResource. Looks up
 * the resource and its type (refusing a resource whose type is not registered), picks the effective
 * strategy (resource, then type, then the default of new types, never `none` by default),
 * loads the type's handler (or the default handler when there is none or it fails to load, with
 * the failure recorded on the sandbox) and lets it provision through the SandboxManager.
 */
import { BinderyError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import type { AccessMode, BindingResult, BoundResource, Resource, ResourceTypeSpec, SandboxStrategy } from '../../shared/model.ts';
import { DEFAULT_TYPE_STRATEGY } from '../core/strategy-defaults.ts';
import type { ProvisionProgress } from '../sandbox/index.ts';
import { DefaultHandler } from './built-in-handlers.ts';
import type { ResourceHandler, SandboxProvider, SandboxRequest } from './handler.ts';
import { resolveHandler } from './resolve-handler.ts';

/** What the service is built from (the reference's constructor, plus where handlers load from). */
export interface ResourceHandlerServiceOptions {
  sandboxManager: SandboxProvider;
  resourceLookup: (id: string) => Resource;
  typeLookup: (name: string) => ResourceTypeSpec;
  /** `<data dir>/handlers`, the only folder custom handlers load from. */
  handlersDir?: string;
  /** Replaces resolveHandler (tests register handler classes written inline). */
  loadHandler?: (specifier: string) => Promise<ResourceHandler>;
}

/** Per-call options: cancellation and progress of provisioning. */
export interface ResolveBindingOptions {
  signal?: AbortSignal;
  onProgress?: (slotName: string, progress: ProvisionProgress) => void;
  /** The access the shared sandbox needs when several slots bind this resource. */
  sandboxAccess?: AccessMode;
}

/**
 * The strategy a resource gets: its own override, else its type's default, else the default of new
 * types (a copy): working on the original in place is only ever chosen, never fallen into.
 */
export function effectiveStrategy(resource: Pick<Resource, 'sandboxStrategy'>, type: Pick<ResourceTypeSpec, 'sandboxStrategy'> | null): SandboxStrategy {
  return resource.sandboxStrategy ?? type?.sandboxStrategy ?? DEFAULT_TYPE_STRATEGY;
}

/** The access a sandbox shared by two slots needs: the wider one (read_only with write_only needs both). */
export function widerAccess(a: AccessMode, b: AccessMode): AccessMode {
  return a === b ? a : 'read_write';
}

/** Chains lookup, strategy, handler and SandboxManager for bindings. */
export class ResourceHandlerService {
  private readonly defaultHandler = new DefaultHandler();

  constructor(private readonly options: ResourceHandlerServiceOptions) {}

  /** Provisions the sandbox of one bound slot and returns where it is. */
  async resolveBinding(binding: BindingResult, planId: string, options: ResolveBindingOptions = {}): Promise<BoundResource> {
    if (binding.error) throw new ValidationError(`Slot "${binding.slotName}" is not bound: ${binding.error}`, { slotName: binding.slotName });
    if (binding.deferred) throw deferredError([binding.slotName]);
    if (!binding.resourceId) {
      throw new ValidationError(`Slot "${binding.slotName}" is optional and unbound: there is nothing to provision for it.`, { slotName: binding.slotName });
    }
    const resource = this.options.resourceLookup(binding.resourceId);
    const type = this.lookupType(resource);
    const strategy = effectiveStrategy(resource, type);
    const { handler, failure } = await this.handlerFor(type);
    const provider = this.provider(binding, resource, type, failure, options);
    const name = failure || !type.handler ? 'the default handler' : `handler ${type.handler}`;
    let bound: BoundResource;
    try {
      bound = await handler.resolve({ resource, planId, slotName: binding.slotName, sandboxManager: provider, access: binding.access, sandboxStrategy: strategy });
    } catch (error) {
      if (error instanceof BinderyError) throw error;
      throw new BinderyError('internal', `${name} failed while provisioning slot "${binding.slotName}" (${resource.name}): ${(error as Error).message}`, {
        slotName: binding.slotName,
        handler: type.handler ?? null,
      });
    }
    if (typeof bound?.sandboxPath !== 'string' || bound.sandboxPath === '') {
      throw new ValidationError(`${name} returned no sandboxPath for slot "${binding.slotName}": a handler must return a BoundResource with the sandbox path.`, {
        slotName: binding.slotName,
      });
    }
    return {
      slotName: bound.slotName ?? binding.slotName,
      resourceId: bound.resourceId ?? resource.id,
      resourceType: bound.resourceType ?? resource.typeName,
      sandboxPath: bound.sandboxPath,
      access: bound.access ?? binding.access,
    };
  }

  /**
   * Provisions every bound slot, in slot order, and returns them by slot name. Deferred slots
   * are refused first (all named at once); optional unbound slots are left out. Two slots of one
   * resource share its sandbox with the wider access.
   */
  async resolveBindings(bindings: BindingResult[], planId: string, options: Omit<ResolveBindingOptions, 'sandboxAccess'> = {}): Promise<Record<string, BoundResource>> {
    const deferred = bindings.filter((b) => b.deferred).map((b) => b.slotName);
    if (deferred.length > 0) throw deferredError(deferred);
    const failed = bindings.filter((b) => b.error);
    if (failed.length > 0) {
      throw new ValidationError(`Slots ${failed.map((b) => `"${b.slotName}"`).join(', ')} are not bound: ${failed.map((b) => b.error).join(' ')}`, {
        slots: failed.map((b) => b.slotName),
      });
    }
    const access = new Map<string, AccessMode>();
    for (const b of bindings) {
      if (b.resourceId) access.set(b.resourceId, access.has(b.resourceId) ? widerAccess(access.get(b.resourceId)!, b.access) : b.access);
    }
    const result: Record<string, BoundResource> = {};
    for (const binding of bindings) {
      if (!binding.resourceId) continue;
      result[binding.slotName] = await this.resolveBinding(binding, planId, { ...options, sandboxAccess: access.get(binding.resourceId) });
    }
    return result;
  }

  /**
   * The SandboxManager as this slot's handler sees it: requests get the slot's (or the shared
   * sandbox's wider) access, the slot name, the handler and any load failure, so a handler
   * written against the reference's protocol needs to pass none of them.
   */
  private provider(binding: BindingResult, resource: Resource, type: ResourceTypeSpec, failure: string | null, options: ResolveBindingOptions): SandboxProvider {
    const sandboxAccess = options.sandboxAccess ? widerAccess(options.sandboxAccess, binding.access) : binding.access;
    return {
      getOrCreateSandbox: (request: SandboxRequest) =>
        this.options.sandboxManager.getOrCreateSandbox({
          ...request,
          access: request.access ? widerAccess(request.access, sandboxAccess) : sandboxAccess,
          slotName: binding.slotName,
          resourceName: resource.name,
          handler: type.handler ?? null,
          handlerFailure: failure,
          signal: request.signal ?? options.signal,
          onProgress: request.onProgress ?? ((progress) => options.onProgress?.(binding.slotName, progress)),
        }),
    };
  }

  /**
   * The resource's type. One that is not registered (a database edited by hand, say) is refused:
   * its strategy and handler are unknown, and guessing could let a tool work on the original in place.
   */
  private lookupType(resource: Resource): ResourceTypeSpec {
    try {
      return this.options.typeLookup(resource.typeName);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new ValidationError(
        `Resource ${resource.name} has type ${resource.typeName}, which is not registered: add the type or change the resource's type.`,
        { resourceId: resource.id, typeName: resource.typeName },
      );
    }
  }

  private async handlerFor(type: ResourceTypeSpec): Promise<{ handler: ResourceHandler; failure: string | null }> {
    if (!type.handler) return { handler: this.defaultHandler, failure: null };
    try {
      const load = this.options.loadHandler ?? ((spec: string) => resolveHandler(spec, { handlersDir: this.options.handlersDir }));
      return { handler: await load(type.handler), failure: null };
    } catch (error) {
      return { handler: this.defaultHandler, failure: `handler ${type.handler} failed to load: ${(error as Error).message}; default used` };
    }
  }
}

/** The error for parameter slots that have no value yet, naming every one and how to supply it. */
export function deferredError(slots: string[]): ValidationError {
  const list = slots.map((s) => `"${s}"`).join(', ');
  return new ValidationError(
    `Parameter slot${slots.length > 1 ? 's' : ''} ${list} ${slots.length > 1 ? 'have' : 'has'} no value: choose a resource for ${slots.length > 1 ? 'each' : 'it'} before provisioning.`,
    { deferredSlots: slots, hints: [{ action: 'give-params', slots }] },
  );
}
