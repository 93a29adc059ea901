/**
 * The ResourceHandler protocol of `reference/resource_handlers.md`, async in TypeScript: a
 * handler turns a resource into a BoundResource by asking the SandboxManager for a sandbox.
 */
import type { AccessMode, BoundResource, Resource, SandboxStrategy } from '../../shared/model.ts';
import type { HandlerSandbox } from '../../shared/dto.ts';
import type { SandboxRequest } from '../sandbox/index.ts';

export type { SandboxRequest };

/** The part of SandboxManager a handler uses. */
export interface SandboxProvider {
  /** Idempotent per (plan, resource): a second slot of the same resource shares the sandbox. */
  getOrCreateSandbox(request: SandboxRequest): Promise<HandlerSandbox>;
}

/** The keyword arguments of `ResourceHandler.resolve`, as in the reference. */
export interface HandlerInput {
  resource: Resource;
  planId: string;
  slotName: string;
  sandboxManager: SandboxProvider;
  access?: AccessMode;
  /**
   * The effective strategy (resource override, else type default, else none), computed by
   * ResourceHandlerService. Handlers written against the reference may ignore it.
   */
  sandboxStrategy?: SandboxStrategy;
}

/** A handler: provisions a sandbox for one slot's resource and says where it is. */
export interface ResourceHandler {
  resolve(input: HandlerInput): Promise<BoundResource>;
}

/** A handler class as modules export it (instantiated once and cached). */
export type ResourceHandlerClass = new () => ResourceHandler;
