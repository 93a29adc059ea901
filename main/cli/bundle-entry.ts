/**
 * The entry of the bundled CLI (out/cli/bindery.cjs). `bindery --version` answers here; main() and
 * the command it runs are only evaluated when needed (start-up time, bench/cli-startup.ts).
 */
import { binderyVersion } from './version.ts';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${binderyVersion()}\n`);
} else {
  void import('./main.ts')
    .then(({ main }) => main(argv))
    .then((code) => {
      process.exitCode = code;
    });
}
