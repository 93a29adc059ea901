/** `bindery resources ...`: register, list, show, update, remove resources. */
import { encodeRegistration, encodeResource, encodeResourceItem, encodeResourceRemoval } from '../../core/codec.ts';
import { inPlaceWarning } from '../../core/strategy-defaults.ts';
import type { Resource } from '../../../shared/model.ts';
import { parseStrategy, type CommandModule } from '../command.ts';
import { fields, table } from '../output.ts';

interface ResourceOptions {
  type?: string;
  location?: string;
  strategy?: string;
  description?: string;
  name?: string;
}

const describe = (resource: Resource, projects: string[] = []): string =>
  fields([
    ['name', resource.name],
    ['id', resource.id],
    ['type', resource.typeName],
    ['location', resource.location],
    ['sandbox strategy', resource.sandboxStrategy ?? '(type default)'],
    ['description', resource.description],
    ['projects', projects.join(', ')],
  ]);

/** Registers the `resources` command group. */
export const registerResources: CommandModule = (program, context) => {
  const resources = program.command('resources').description('registered folders: git checkouts, directories, custom types');
  const registry = () => context.bindery().registry;
  const out = context.output;

  resources
    .command('add <name>')
    .description('register a folder as namespace/name')
    .requiredOption('--type <type>', 'resource type, e.g. git-checkout or fs-directory')
    .requiredOption('--location <path>', 'the folder')
    .option('--strategy <strategy>', 'override the type’s sandbox strategy')
    .option('--description <text>', 'what it is')
    .action(async (name: string, options: ResourceOptions) => {
      const { resource, warning } = await registry().register({
        name,
        typeName: options.type as string,
        location: options.location as string,
        sandboxStrategy: parseStrategy(options.strategy),
        description: options.description,
      });
      if (options.strategy === 'none') out.note(inPlaceWarning(`resource ${resource.name}`));
      if (warning) out.note(`Warning: ${warning}`);
      out.result(encodeRegistration(resource, warning), () => `Registered ${resource.name} (${resource.id}).\n${describe(resource)}`);
    });

  resources
    .command('list')
    .description('list resources')
    .option('--type <type>', 'only this type')
    .action((options: ResourceOptions) => {
      const byResource = registry().projectsByResource();
      const list = registry()
        .listResources()
        .filter((r) => !options.type || r.typeName === options.type);
      out.result(
        list.map((r) => encodeResourceItem(r, byResource.get(r.id) ?? [])),
        () =>
          table(
            ['NAME', 'TYPE', 'STRATEGY', 'PROJECTS', 'LOCATION'],
            list.map((r) => [r.name, r.typeName, r.sandboxStrategy ?? '', (byResource.get(r.id) ?? []).join(', '), r.location]),
            'No resources yet. Register one: bindery resources add local/my-app --type git-checkout --location <dir>',
          ),
      );
    });

  resources
    .command('show <name-or-id>')
    .description('show one resource')
    .action((ref: string) => {
      const resource = registry().showResource(ref);
      const projects = registry().projectsByResource().get(resource.id) ?? [];
      out.result(encodeResourceItem(resource, projects), () => describe(resource, projects));
    });

  resources
    .command('update <name-or-id>')
    .description('change a resource')
    .option('--name <name>', 'new namespace/name')
    .option('--type <type>', 'new type')
    .option('--location <path>', 'new folder')
    .option('--strategy <strategy>', 'sandbox strategy override ("default" clears it)')
    .option('--description <text>', 'what it is')
    .action(async (ref: string, options: ResourceOptions) => {
      const resource = await registry().updateResource(ref, {
        name: options.name,
        typeName: options.type,
        location: options.location,
        sandboxStrategy: options.strategy === 'default' ? null : parseStrategy(options.strategy),
        description: options.description,
      });
      if (options.strategy === 'none') out.note(inPlaceWarning(`resource ${resource.name}`));
      out.result(encodeResource(resource), () => `Updated ${resource.name}.\n${describe(resource)}`);
    });

  resources
    .command('remove <name-or-id>')
    .description('unregister a resource (its files are not touched)')
    .option('--force', 'also when projects link it or tools name it')
    .action((ref: string, options: { force?: boolean }) => {
      const removed = registry().removeResource(ref, { force: options.force });
      out.result(
        encodeResourceRemoval(removed),
        () =>
          [
            `Removed ${removed.resource.name}; its files at ${removed.resource.location} are untouched.`,
            removed.unlinkedFrom.length ? `Unlinked from: ${removed.unlinkedFrom.join(', ')}.` : '',
            removed.staticIn.length ? `Tools that name it statically will fail to bind: ${removed.staticIn.join(', ')}.` : '',
          ]
            .filter(Boolean)
            .join('\n'),
      );
    });
};
