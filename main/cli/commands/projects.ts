/** `bindery projects ...`: create projects and link resources with aliases. */
import { encodeProject } from '../../core/codec.ts';
import type { ProjectDetail } from '../../../shared/model.ts';
import type { CommandModule } from '../command.ts';
import { fields, table } from '../output.ts';

const describe = (project: ProjectDetail): string =>
  `${fields([
    ['name', project.name],
    ['id', project.id],
    ['description', project.description],
    ['agents may commit', project.agentMayCommit ? 'yes' : 'no'],
  ])}\n\n${table(
    ['RESOURCE', 'ALIAS', 'TYPE', 'LOCATION'],
    project.links.map((l) => [l.resource.name, l.alias, l.resource.typeName, l.resource.location]),
    `No linked resources. Link one: bindery projects link ${project.name} <resource> [--alias name]`,
  )}`;

/** Registers the `projects` command group. */
export const registerProjects: CommandModule = (program, context) => {
  const projects = program.command('projects').description('projects and the resources they link');
  const registry = () => context.bindery().registry;
  const out = context.output;

  projects
    .command('add <name>')
    .description('create a project')
    .option('--description <text>', 'what it is')
    .action((name: string, options: { description?: string }) => {
      const project = registry().addProject({ name, description: options.description });
      out.result(encodeProject(project), () => `Created project ${project.name}.`);
    });

  projects
    .command('list')
    .description('list projects')
    .action(() => {
      const list = registry().listProjects().map((p) => registry().showProject(p.id));
      out.result(list.map(encodeProject), () =>
        table(
          ['NAME', 'RESOURCES', 'DESCRIPTION'],
          list.map((p) => [p.name, p.links.length, p.description]),
          'No projects yet. Create one: bindery projects add <name>',
        ),
      );
    });

  projects
    .command('show <name>')
    .description('show a project and its links')
    .action((name: string) => {
      const project = registry().showProject(name);
      out.result(encodeProject(project), () => describe(project));
    });

  projects
    .command('update <name>')
    .description('rename or describe a project, or let agents (bindery mcp) commit, undo and discard its plans')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'what it is')
    .option('--agent-may-commit', 'let agents commit, undo and discard plans of this project')
    .option('--no-agent-may-commit', 'keep committing, undoing and discarding with the person (the default)')
    .action((name: string, options: { name?: string; description?: string; agentMayCommit?: boolean }) => {
      const project = registry().updateProject(name, options);
      const agents = options.agentMayCommit === undefined ? '' : ` Agents ${project.agentMayCommit ? 'may now' : 'may no longer'} commit, undo and discard its plans.`;
      out.result(encodeProject(project), () => `Updated project ${project.name}.${agents}`);
    });

  projects
    .command('remove <name>')
    .description('delete a project (its resources stay registered)')
    .action((name: string) => {
      const project = registry().removeProject(name);
      out.result(encodeProject(project), () => `Removed project ${project.name} and its ${project.links.length} link(s).`);
    });

  projects
    .command('link <project> <resource>')
    .description('link a resource, or change its alias')
    .option('--alias <alias>', 'the name slots match in this project')
    .action((projectName: string, resource: string, options: { alias?: string }) => {
      const project = registry().link(projectName, resource, options.alias ?? null);
      out.result(encodeProject(project), () => `Linked ${resource} to ${project.name}${options.alias ? ` as ${options.alias}` : ''}.`);
    });

  projects
    .command('unlink <project> <resource>')
    .description('unlink a resource')
    .action((projectName: string, resource: string) => {
      const project = registry().unlink(projectName, resource);
      out.result(encodeProject(project), () => `Unlinked ${resource} from ${project.name}.`);
    });
};
