/** `bindery tools ...`: import, list, show, export, remove tool definitions. */
import fs from 'node:fs/promises';
import { BinderyError } from '../../../shared/errors.ts';
import type { Tool } from '../../../shared/model.ts';
import { encodeTool } from '../../core/codec.ts';
import type { CommandModule } from '../command.ts';
import { fields, table } from '../output.ts';

const describe = (tool: Tool): string =>
  `${fields([
    ['name', tool.name],
    ['id', tool.id],
    ['description', tool.description],
    ['run', tool.run],
  ])}\n\n${table(
    ['SLOT', 'TYPE', 'ACCESS', 'BINDING', 'STATIC RESOURCE', 'REQUIRED'],
    tool.resourceSlots.map((s) => [s.name, s.resourceType, s.access, s.binding, s.staticResource, s.required ? 'yes' : 'no']),
    'No resource slots.',
  )}`;

/** Registers the `tools` command group. */
export const registerTools: CommandModule = (program, context) => {
  const tools = program.command('tools').description('tool definitions and their resource slots');
  const registry = () => context.bindery().registry;
  const out = context.output;

  tools
    .command('import <file>')
    .description('register the tools in a YAML or JSON file ("-" reads standard input)')
    .option('--replace', 'update tools that are already registered')
    .option('--name <name>', 'tool name for a single-tool file without "name:" read from standard input')
    .action(async (file: string, options: { replace?: boolean; name?: string }) => {
      const text = file === '-' ? await context.readStdin() : await readToolFile(file);
      const source = file === '-' ? (options.name ? `${options.name}.yaml` : '<stdin>') : file;
      const imported = await registry().importTools(text, source, { replace: options.replace });
      out.result(imported.map(encodeTool), () => imported.map((t) => `Registered tool ${t.name} (${t.resourceSlots.length} slot(s)).`).join('\n'));
    });

  tools
    .command('list')
    .description('list tools')
    .action(() => {
      const list = registry().listTools();
      out.result(list.map(encodeTool), () =>
        table(
          ['NAME', 'SLOTS', 'RUN', 'DESCRIPTION'],
          list.map((t) => [t.name, t.resourceSlots.map((s) => `${s.name}:${s.binding}`).join(' '), t.run ? 'yes' : '', t.description]),
          'No tools yet. Import one: bindery tools import tool.yaml',
        ),
      );
    });

  tools
    .command('show <name>')
    .description('show a tool and its slots')
    .action((name: string) => {
      const tool = registry().showTool(name);
      out.result(encodeTool(tool), () => describe(tool));
    });

  tools
    .command('export <name>')
    .description('print the tool in its file format (YAML)')
    .action(async (name: string) => {
      const text = await registry().exportTool(name);
      if (out.json) out.result({ name, yaml: text }, () => text);
      else out.raw(text);
    });

  tools
    .command('remove <name>')
    .description('unregister a tool')
    .action((name: string) => {
      const tool = registry().removeTool(name);
      out.result(encodeTool(tool), () => `Removed tool ${tool.name}.`);
    });
};

async function readToolFile(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code})`;
    throw new BinderyError('validation_error', `Tool file ${file} ${why}: give the path of a YAML or JSON file, or "-" for standard input.`);
  }
}
