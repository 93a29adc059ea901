/** Resource types: add, update and remove, with names, parents (no cycles), handler and strategy checked. */
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import type { ResourceTypeSpec, SandboxStrategy } from '../../shared/model.ts';
import { checkTypeName } from '../core/names.ts';
import { DEFAULT_TYPE_STRATEGY } from '../core/strategy-defaults.ts';
import { assertValidParents, TypeGraph } from '../core/type-graph.ts';
import * as types from '../registry/resource-types.ts';
import { checkStrategy, dedupe, describeDependents, type RegistryContext } from './registry-common.ts';

/** Fields accepted when adding a type. */
export interface TypeInput {
  name: string;
  description?: string;
  parentTypes?: string[];
  handler?: string | null;
  sandboxStrategy?: SandboxStrategy;
}

const HANDLER_SPEC = /^[A-Za-z0-9_.@/-]+:[A-Za-z_$][A-Za-z0-9_$]*$/;

/** One type, or NotFoundError listing the known ones. */
export function showType({ db }: RegistryContext, name: string): ResourceTypeSpec {
  const type = types.getType(db, name);
  if (!type) {
    const known = types.listTypes(db).map((t) => t.name);
    throw new NotFoundError(`There is no resource type "${name}". Known types: ${known.join(', ')}.`, { name, known });
  }
  return type;
}

/** Adds a custom type after checking its name, parents (no cycles), handler and strategy (default copy_on_write). */
export function addType(context: RegistryContext, input: TypeInput): ResourceTypeSpec {
  const problem = checkTypeName(input.name);
  if (problem) throw new ValidationError(problem, { field: 'name' });
  if (types.getType(context.db, input.name)) throw new ConflictError(`Resource type "${input.name}" already exists: use update to change it.`, { field: 'name' });
  const stamp = context.stamp();
  return writeType(context, {
    name: input.name,
    description: input.description ?? '',
    parentTypes: dedupe(input.parentTypes ?? []),
    handler: checkHandler(input.handler ?? null),
    sandboxStrategy: checkStrategy(input.sandboxStrategy ?? DEFAULT_TYPE_STRATEGY),
    builtIn: false,
    createdAt: stamp,
    updatedAt: stamp,
  });
}

/** Changes a type; built-ins accept new parent types and description only. */
export function updateType(context: RegistryContext, name: string, patch: Partial<Omit<TypeInput, 'name'>>): ResourceTypeSpec {
  const current = showType(context, name);
  if (current.builtIn && (patch.handler !== undefined || patch.sandboxStrategy !== undefined)) {
    throw new ValidationError(
      `"${name}" is built in: its handler and sandbox strategy are fixed. Change parent types or the description, or set a strategy per resource.`,
    );
  }
  return writeType(context, {
    ...current,
    description: patch.description ?? current.description,
    parentTypes: patch.parentTypes ? dedupe(patch.parentTypes) : current.parentTypes,
    handler: patch.handler !== undefined ? checkHandler(patch.handler) : current.handler,
    sandboxStrategy: patch.sandboxStrategy ? checkStrategy(patch.sandboxStrategy) : current.sandboxStrategy,
    updatedAt: context.stamp(),
  });
}

/** Removes a custom type nothing refers to. */
export function removeType(context: RegistryContext, name: string): ResourceTypeSpec {
  const type = showType(context, name);
  if (type.builtIn) throw new ValidationError(`"${name}" is built in and cannot be removed.`);
  const dependents = types.typeDependents(context.db, name);
  const uses = describeDependents({
    resources: dependents.resources,
    'sub-types': dependents.subTypes,
    tools: dependents.tools,
  });
  if (uses) throw new ConflictError(`Resource type "${name}" is still used by ${uses}. Change or remove those first.`, dependents);
  types.deleteType(context.db, name);
  context.emit('types');
  return type;
}

/** The hierarchy of every type as it is saved now. */
export function typeGraph({ db }: RegistryContext): TypeGraph {
  return new TypeGraph(types.listTypes(db));
}

function writeType(context: RegistryContext, type: ResourceTypeSpec): ResourceTypeSpec {
  context.db
    .transaction(() => {
      assertValidParents(typeGraph(context), type);
      types.saveType(context.db, type);
    })
    .immediate();
  context.emit('types');
  return showType(context, type.name);
}

function checkHandler(handler: string | null): string | null {
  if (handler === null || handler === '') return null;
  if (HANDLER_SPEC.test(handler)) return handler;
  throw new ValidationError(`Handler "${handler}" must look like "module:Export", e.g. "my-handler.js:MyHandler".`, { field: 'handler' });
}
