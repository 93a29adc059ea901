/** `bindery types ...`: list, show, add, update, remove resource types. */
import { encodeType } from '../../core/codec.ts';
import { inPlaceWarning } from '../../core/strategy-defaults.ts';
import type { ResourceTypeSpec } from '../../../shared/model.ts';
import { parseList, parseStrategy, type CommandModule } from '../command.ts';
import { fields, table } from '../output.ts';

interface TypeOptions {
  parentTypes?: string;
  handler?: string;
  strategy?: string;
  description?: string;
}

const describe = (type: ResourceTypeSpec): string =>
  fields([
    ['name', type.name],
    ['description', type.description],
    ['parent types', type.parentTypes.join(', ')],
    ['handler', type.handler],
    ['sandbox strategy', type.sandboxStrategy],
    ['built in', type.builtIn ? 'yes' : 'no'],
  ]);

/** Registers the `types` command group. */
export const registerTypes: CommandModule = (program, context) => {
  const types = program.command('types').description('resource types and their parent types');
  const registry = () => context.bindery().registry;
  const out = context.output;
  // Strategy none is chosen on purpose only: say what it means every time it is set.
  const warnInPlace = (type: ResourceTypeSpec) => {
    if (type.sandboxStrategy === 'none') out.note(inPlaceWarning(`type ${type.name}`));
  };

  types
    .command('list')
    .description('list resource types')
    .action(() => {
      const list = registry().listTypes();
      out.result(list.map(encodeType), () =>
        table(
          ['NAME', 'STRATEGY', 'PARENT TYPES', 'HANDLER', 'BUILT IN'],
          list.map((t) => [t.name, t.sandboxStrategy, t.parentTypes.join(', '), t.handler, t.builtIn ? 'yes' : '']),
        ),
      );
    });

  types
    .command('show <name>')
    .description('show one resource type')
    .action((name: string) => {
      const type = registry().showType(name);
      out.result(encodeType(type), () => describe(type));
    });

  const withTypeOptions = (command: ReturnType<typeof types.command>) =>
    command
      .option('--parent-types <a,b>', 'comma-separated parent types (sub-typing)')
      .option('--handler <module:Export>', 'handler module in the handlers folder of the data directory')
      .option('--strategy <strategy>', 'default sandbox strategy: git_worktree, copy_on_write (the default for a new type) or none (in place: no sandbox)')
      .option('--description <text>', 'what this type is for');

  withTypeOptions(types.command('add <name>').description('add a resource type')).action((name: string, options: TypeOptions) => {
    const type = registry().addType({
      name,
      description: options.description,
      parentTypes: parseList(options.parentTypes),
      handler: options.handler,
      sandboxStrategy: parseStrategy(options.strategy),
    });
    warnInPlace(type);
    out.result(encodeType(type), () => `Added type ${type.name}.\n${describe(type)}`);
  });

  withTypeOptions(types.command('update <name>').description('change a resource type')).action((name: string, options: TypeOptions) => {
    const type = registry().updateType(name, {
      description: options.description,
      parentTypes: parseList(options.parentTypes),
      handler: options.handler,
      sandboxStrategy: parseStrategy(options.strategy),
    });
    if (options.strategy !== undefined) warnInPlace(type);
    out.result(encodeType(type), () => `Updated type ${type.name}.\n${describe(type)}`);
  });

  types
    .command('remove <name>')
    .description('remove a custom resource type nothing uses')
    .action((name: string) => {
      const type = registry().removeType(name);
      out.result(encodeType(type), () => `Removed type ${type.name}.`);
    });
};
