/**
 * `resolveHandler("module:Export")`: the built-in handlers by their fixed specifiers, or a
 * custom handler class from an ES module inside `<data dir>/handlers/` (realpath containment:
 * nothing outside that folder is ever imported). Loaded handlers are cached for the process
 * lifetime; `clearHandlerCache()` resets the cache (and changed files load afresh).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { NotFoundError, UnsafePathError, ValidationError } from '../../shared/errors.ts';
import { isStrictlyInside } from '../sandbox/index.ts';
import { FS_DIRECTORY_HANDLER, FsDirectoryHandler, GIT_CHECKOUT_HANDLER, GitCheckoutHandler } from './built-in-handlers.ts';
import type { ResourceHandler, ResourceHandlerClass } from './handler.ts';

/** The built-in handler classes by their fixed specifiers. */
export const BUILT_IN_HANDLERS: Readonly<Record<string, ResourceHandlerClass>> = {
  [GIT_CHECKOUT_HANDLER]: GitCheckoutHandler,
  [FS_DIRECTORY_HANDLER]: FsDirectoryHandler,
};

/** The module prefix of the reference's handler package; custom modules may keep it. */
export const REFERENCE_PREFIX = 'cleveragents.resource.handlers.';

/** File extensions a custom handler module may have (ES modules). */
export const HANDLER_EXTENSIONS = ['.mjs', '.js'] as const;

/** Where custom handlers may come from. */
export interface ResolveHandlerOptions {
  /** `<data dir>/handlers`: the only folder custom handler modules are loaded from. */
  handlersDir?: string;
}

const cache = new Map<string, ResourceHandler>();

/** Loads (or returns the cached) handler for a `module:Export` specifier. */
export async function resolveHandler(specifier: string, options: ResolveHandlerOptions = {}): Promise<ResourceHandler> {
  const key = `${options.handlersDir ?? ''}\0${specifier}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const handler = await load(specifier, options);
  cache.set(key, handler);
  return handler;
}

/** Forgets every loaded handler. */
export function clearHandlerCache(): void {
  cache.clear();
}

async function load(specifier: string, options: ResolveHandlerOptions): Promise<ResourceHandler> {
  const builtIn = BUILT_IN_HANDLERS[specifier];
  if (builtIn) return new builtIn();
  const { module, exportName } = parseSpecifier(specifier, options);
  if (!options.handlersDir) throw refused(specifier, options, 'custom handlers need a data directory, and none was given');
  const file = await locateModule(specifier, module, options.handlersDir, options);
  const stat = await fs.stat(file);
  // The mtime in the URL makes a changed file load afresh after clearHandlerCache().
  const url = `${pathToFileURL(file).href}?mtime=${stat.mtimeMs}`;
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new ValidationError(`Handler module ${file} failed to load: ${(error as Error).message}. Fix the module and try again.`, {
      specifier,
      file,
    });
  }
  return instantiate(specifier, file, exportName, namespace[exportName]);
}

function parseSpecifier(specifier: string, options: ResolveHandlerOptions): { module: string; exportName: string } {
  const colon = specifier.lastIndexOf(':');
  const module = colon > 0 ? specifier.slice(0, colon) : '';
  const exportName = colon > 0 ? specifier.slice(colon + 1) : '';
  if (!module || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(exportName)) {
    throw refused(specifier, options, 'it is not of the form "module:Export"');
  }
  if (path.isAbsolute(module) || /^[A-Za-z]:/.test(module) || module.startsWith('node:') || module.includes('\\')) {
    throw refused(specifier, options, 'absolute paths and Node built-in modules are not handler modules');
  }
  return { module, exportName };
}

/** The candidate files of a module: a file name as written, or a reference-style dotted name. */
function candidates(module: string): string[] {
  if (HANDLER_EXTENSIONS.some((ext) => module.endsWith(ext))) return [module];
  if (!/^[A-Za-z0-9_.-]+$/.test(module)) return [];
  const dotted = (module.startsWith(REFERENCE_PREFIX) ? module.slice(REFERENCE_PREFIX.length) : module).split('.').join('/');
  return HANDLER_EXTENSIONS.map((ext) => `${dotted}${ext}`);
}

async function locateModule(specifier: string, module: string, handlersDir: string, options: ResolveHandlerOptions): Promise<string> {
  const files = candidates(module);
  if (files.length === 0) throw refused(specifier, options, `"${module}" is neither a built-in handler nor a .mjs/.js file name`);
  const root = await fs.realpath(handlersDir).catch(() => null);
  if (root === null) {
    throw new NotFoundError(`Handler "${specifier}" was not found: the handlers folder ${handlersDir} does not exist. Create it and put the module there.`, {
      specifier,
      handlersDir,
    });
  }
  for (const file of files) {
    const real = await fs.realpath(path.resolve(root, file)).catch(() => null);
    if (real === null) continue;
    if (!isStrictlyInside(root, real)) {
      throw new UnsafePathError(
        `Handler "${specifier}" resolves to ${real}, outside the handlers folder ${root}. ${allowed(options)}`,
        { specifier, resolved: real, handlersDir: root },
      );
    }
    return real;
  }
  throw new NotFoundError(`Handler "${specifier}" was not found: no ${files.join(' or ')} in ${root}. ${allowed(options)}`, {
    specifier,
    handlersDir: root,
    tried: files,
  });
}

function instantiate(specifier: string, file: string, exportName: string, exported: unknown): ResourceHandler {
  let handler: unknown = exported;
  if (typeof exported === 'function') {
    try {
      handler = new (exported as new () => unknown)();
    } catch (error) {
      throw new ValidationError(`Handler ${exportName} in ${file} could not be constructed: ${(error as Error).message}.`, { specifier, file });
    }
  }
  if (exported === undefined) {
    throw new NotFoundError(`Module ${file} has no export named "${exportName}": export the handler class under that name.`, { specifier, file });
  }
  if (typeof (handler as { resolve?: unknown } | null)?.resolve !== 'function') {
    throw new ValidationError(`Export "${exportName}" of ${file} is not a handler: it needs a resolve({ resource, planId, slotName, sandboxManager, access }) method.`, {
      specifier,
      file,
    });
  }
  return handler as ResourceHandler;
}

function allowed(options: ResolveHandlerOptions): string {
  const where = options.handlersDir ? `an ES module (.mjs or .js) inside ${options.handlersDir}` : 'an ES module in the handlers folder of the data directory';
  return `Allowed handlers: the built-in ${Object.keys(BUILT_IN_HANDLERS).join(' and ')}, or ${where}, written "<file>:<ExportName>" (e.g. "my-handler.mjs:MyHandler") or "${REFERENCE_PREFIX}<module>:<ExportName>".`;
}

function refused(specifier: string, options: ResolveHandlerOptions, why: string): ValidationError {
  return new ValidationError(`Handler "${specifier}" is refused: ${why}. ${allowed(options)}`, { specifier });
}
