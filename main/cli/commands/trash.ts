/** `bindery trash ...`: discarded sandbox changes, recoverable until they expire. */
import { toWire } from '../../core/codec.ts';
import { CHANGE_KIND_VALUES, type TrashItem } from '../../../shared/dto.ts';
import type { CommandModule } from '../command.ts';
import { table } from '../output.ts';

function counts(entry: TrashItem): string {
  const c = entry.counts;
  const parts = CHANGE_KIND_VALUES.filter((k) => c[k] > 0).map((k) => `${c[k]} ${k.replace('_', ' ')}`);
  if (c.ignored) parts.push(`${c.ignored} ignored file(s)`);
  return parts.join(', ') || 'no changes';
}

/** Registers the `trash` command group. */
export const registerTrash: CommandModule = (program, context) => {
  const trash = program.command('trash').description('discarded sandboxes, kept for a number of days and restorable');
  const service = () => context.bindery().plans;
  const out = context.output;

  trash
    .command('list')
    .description('list what is in the trash')
    .action(async () => {
      const entries = await service().listTrash();
      out.result(toWire(entries), () =>
        table(
          ['ID', 'PLAN', 'RESOURCE', 'CHANGES', 'DISCARDED', 'EXPIRES'],
          entries.map((e) => [e.id, e.planId, e.resourceName, counts(e), e.createdAt, e.expiresAt]),
          'The trash is empty.',
        ),
      );
    });

  trash
    .command('restore <id>')
    .description('put a discarded sandbox back, with its changes')
    .action(async (id: string) => {
      const sandbox = await service().restoreTrash(id);
      out.result(toWire(sandbox), () => `Restored the sandbox of ${sandbox.resourceName} at ${sandbox.path} (plan ${sandbox.planId}).`);
    });

  trash
    .command('purge')
    .description('delete expired entries for good')
    .option('--all', 'delete every entry, expired or not')
    .action(async (options: { all?: boolean }) => {
      const purged = await service().purgeTrash({ all: options.all ?? false });
      out.result(toWire(purged), () => (purged.length ? `Purged ${purged.length} entr${purged.length === 1 ? 'y' : 'ies'}.` : 'Nothing to purge.'));
    });
};
