/**
 * The CLI's own hints on service errors: the services name the action in the app's words and put
 * the choices in `details` (which sandbox, which paths, `hints`), and the CLI appends the flag or
 * command that makes the choice on its command line.
 */
import { BinderyError } from '../../shared/errors.ts';
import { errorHints, type ErrorHint } from '../../shared/error-hints.ts';

/** The error with the command-line way to act on it appended, where there is one; else unchanged. */
export function withCliHint(error: unknown): unknown {
  if (!(error instanceof BinderyError)) return error;
  const lines = errorHints(error.details).map(cliHint).filter((line) => line !== '');
  if (namesSandboxes(error.details)) lines.push('Choose one with --resource <resource name>.');
  if (lines.length === 0) return error;
  // A message that lists paths line by line gets its hint on a line of its own.
  const separator = error.message.includes('\n') ? '\n' : ' ';
  return new BinderyError(error.code, `${error.message}${separator}${[...new Set(lines)].join(' ')}`, error.details);
}

/** The command-line text of one hint. */
export function cliHint(hint: ErrorHint): string {
  switch (hint.action) {
    case 'resolve': {
      const example = hint.paths[0] === undefined ? '' : ` (e.g. --resolve ${shellWord(hint.paths[0])}=${hint.choices[0] ?? 'ours'})`;
      return `Settle each with --resolve <path>=${hint.choices.join('|')}${example}.`;
    }
    case 'discard-anyway':
      return 'Discard it anyway with "bindery plans discard <plan> --force".';
    case 'remove-anyway':
      return 'Remove it anyway with --force.';
    case 'replace-tools':
      return 'Import with --replace to update registered tools.';
    case 'commit-without-git':
      return 'Commit again without --git-commit.';
    case 'list-changes':
      return `List them with "bindery plans changes ${hint.plan === undefined ? '<plan>' : shellWord(hint.plan)}".`;
    case 'link-resource':
      return `Link one with "bindery projects link ${shellWord(hint.project)} <resource>".`;
    case 'set-alias':
      return `Set the alias with "bindery projects link ${shellWord(hint.project)} <resource> --alias ${shellWord(hint.alias)}".`;
    case 'list-plans':
      return 'See "bindery plans list".';
    case 'list-projects':
      return 'See "bindery projects list".';
    case 'list-resources':
      return 'See "bindery resources list".';
    case 'list-trash':
      return 'See "bindery trash list".';
    case 'import-tool':
      return 'Import one with "bindery tools import <file>".';
    case 'give-params':
      return `Give ${hint.slots.map((slot) => `--param ${shellWord(slot)}=<resource name or id>`).join(' ')}.`;
    case 'add-type':
      return `Add a type with "bindery types add ${shellWord(hint.type)}".`;
    case 'add-resource':
      return `Register it with "bindery resources add ${shellWord(hint.name)} --type ${shellWord(hint.type)} --location <dir>".`;
    case 'update-resource':
      return `Change it with "bindery resources update ${hint.name === undefined ? '<resource>' : shellWord(hint.name)} --location <dir>".`;
    case 'move-data-dir':
      return 'Choose another data folder with --data-dir or BINDERY_HOME.';
    default:
      return ''; // an action of a newer core: its message alone still says what to do
  }
}

function namesSandboxes(details: unknown): boolean {
  return typeof details === 'object' && details !== null && Array.isArray((details as { candidates?: unknown }).candidates);
}

// A value as it would be typed in a shell: quoted when it holds anything but plain path characters.
function shellWord(value: string): string {
  return /^[\w./@:+-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
