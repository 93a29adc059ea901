/**
 * The entry of the bundled CLI (out/cli/bindery.js). `bindery --version` answers here, before any
 * other code loads; everything else loads main() on demand (start-up time, bench/cli-startup.ts).
 */
import { binderyVersion } from './version.ts';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${binderyVersion()}\n`);
} else {
  const { main } = await import('./main.ts');
  process.exitCode = await main(argv);
}
