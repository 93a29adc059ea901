/** `bindery doctor`: git, data directory and database health. */
import { runDoctor } from '../../services/doctor.ts';
import type { CommandModule } from '../command.ts';
import { table } from '../output.ts';

/** Registers `doctor`. */
export const registerDoctor: CommandModule = (program, context) => {
  program
    .command('doctor')
    .description('check git, the data directory and the database')
    .action(async () => {
      const checks = await runDoctor(context.dataDir);
      const failed = checks.filter((c) => !c.ok);
      context.output.result({ data_dir: context.dataDir, ok: failed.length === 0, checks }, () =>
        table(['CHECK', 'OK', 'DETAIL'], checks.map((c) => [c.name, c.ok ? 'ok' : 'FAIL', c.detail])),
      );
      if (failed.length > 0) {
        context.output.failed = true;
        context.output.note(`${failed.length} check(s) failed: ${failed.map((c) => c.name).join(', ')}.`);
      }
    });
};
