/**
 * Whether the GNU build of a command-line tool is the one on the PATH: the engine's fast paths
 * (find's -printf, cp's --reflink) are GNU options. Asked once per tool and process; Linux only.
 */
import { execFile } from 'node:child_process';

const answers = new Map<string, Promise<boolean>>();

/** True when `command --version` names `banner` (e.g. 'GNU findutils'); false elsewhere than Linux. */
export function isGnuTool(command: 'find' | 'cp', banner: string): Promise<boolean> {
  let answer = answers.get(command);
  if (!answer) {
    answer =
      process.platform !== 'linux'
        ? Promise.resolve(false)
        : new Promise<boolean>((resolve) => {
            execFile(command, ['--version'], (error, stdout) =>
              resolve(!error && String(stdout).includes(banner)),
            );
          });
    answers.set(command, answer);
  }
  return answer;
}
