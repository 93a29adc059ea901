/** Why "Request changes" cannot run the tool now (kept apart from the button so it tests without a transport). */

/** The reason the tool cannot be asked for changes now, or null when it can. */
export function requestBlocker(open: number, command: string | null | undefined, running: boolean): string | null {
  if (!command) return 'This tool has no run command, so Bindery cannot run it again with your notes.';
  if (running) return "The tool's command is running now: wait for it to finish, or stop it.";
  if (open === 0) return 'No open notes: write a note on a line, a file or the plan first.';
  return null;
}
