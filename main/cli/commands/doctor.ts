/** `bindery doctor`: git, data directory, database, interrupted work and disk use. */
import { encodeDoctorReport } from '../../core/codec.ts';
import { runDoctor } from '../../services/doctor.ts';
import type { CommandModule } from '../command.ts';
import { table } from '../output.ts';

/** Registers `doctor`. */
export const registerDoctor: CommandModule = (program, context) => {
  program
    .command('doctor')
    .description('check git, the data directory, the database and interrupted work; show disk use')
    .action(async () => {
      await context.load();
      // The doctor opens the core itself (not before the command), so a core that cannot open is reported, not fatal.
      const { checks, diskUse } = await runDoctor(context.dataDir, { core: () => context.bindery() });
      const failed = checks.filter((c) => !c.ok);
      context.output.result(encodeDoctorReport({ dataDir: context.dataDir, ok: failed.length === 0, checks, diskUse: { ...diskUse } }), () =>
        table(['CHECK', 'OK', 'DETAIL'], checks.map((c) => [c.name, c.ok ? 'ok' : 'FAIL', c.detail])),
      );
      if (failed.length > 0) {
        context.output.failed = true;
        context.output.note(`${failed.length} check(s) failed: ${failed.map((c) => c.name).join(', ')}.`);
      }
    });
};
