/** `bindery resolve <tool> --project <p>`: how each slot of a tool binds in a project. */
import { BinderyError, ValidationError } from '../../../shared/errors.ts';
import type { BindingResult } from '../../../shared/model.ts';
import { encodeBindingResult, toWire } from '../../core/codec.ts';
import { collect, type CommandModule } from '../command.ts';
import { table } from '../output.ts';

/** Parses repeated `--param slot=resource` values. */
export function parseParams(values: string[] = []): Record<string, string> {
  const params: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0 || eq === value.length - 1) throw new BinderyError('usage', `--param takes slot=resource, not "${value}"`);
    params[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return params;
}

/** Human rendering of results; with `explain`, every candidate and the rule. */
export function renderBindings(results: BindingResult[], names: (id: string) => string, explain: boolean): string {
  const rows = results.map((r) => [
    r.slotName,
    r.bindingMode,
    r.access,
    r.error ? 'ERROR' : r.deferred ? '(deferred)' : r.resourceId ? names(r.resourceId) : '(unbound)',
    r.resourceType,
  ]);
  const lines = [table(['SLOT', 'MODE', 'ACCESS', 'RESOURCE', 'TYPE'], rows)];
  for (const r of results) {
    if (!explain && !r.error) continue;
    lines.push('', `${r.slotName}: ${r.error ?? r.explanation.summary}`, `  rule: ${r.explanation.rule}`);
    for (const c of explain ? r.explanation.candidates : []) {
      lines.push(`  ${c.chosen ? '*' : c.compatible ? '+' : '-'} ${c.resourceName}${c.alias ? ` (alias ${c.alias})` : ''}: ${c.reason}`);
    }
    if (r.explanation.fix) lines.push(`  fix: ${r.explanation.fix}`);
  }
  return lines.join('\n');
}

/** Registers `resolve`. */
export const registerResolve: CommandModule = (program, context) => {
  program
    .command('resolve <tool>')
    .description('show how each slot of a tool binds in a project')
    .requiredOption('--project <project>', 'the project whose linked resources are searched')
    .option('--param <slot=resource>', 'a parameter slot value (repeatable)', collect)
    .option('--explain', 'list every candidate and the rule that chose the winner')
    .action((toolName: string, options: { project: string; param?: string[]; explain?: boolean }) => {
      const { registry, bindings } = context.bindery();
      const tool = registry.showTool(toolName);
      const project = registry.findProject(options.project);
      const params = parseParams(options.param);
      const names = (id: string) => registry.showResource(id).name;
      try {
        const results = bindings.resolve(tool, project, params);
        context.output.result(results.map(encodeBindingResult), () => renderBindings(results, names, options.explain ?? false));
      } catch (error) {
        if (!(error instanceof ValidationError) || context.output.json) throw error;
        const results = (error.details as { results?: BindingResult[] } | undefined)?.results;
        if (!results) throw error;
        context.output.note(renderBindings(results, names, true));
        throw new ValidationError(error.message.split('\n')[0] as string, toWire(error.details));
      }
    });
};
