/**
 * The register dialog's rules as a reducer: the folder check suggests a type and a name, and
 * the suggestion fills those fields only until the user edits them, so typing is never undone.
 */
import type { FolderInspection } from '../../../shared/dto.ts';

/** Everything the register form holds. */
export interface RegisterForm {
  location: string;
  name: string;
  typeName: string;
  description: string;
  nameEdited: boolean;
  typeEdited: boolean;
  inspection: FolderInspection | null;
}

/** What can happen to the form. */
export type RegisterAction =
  | { kind: 'location'; value: string }
  | { kind: 'name'; value: string }
  | { kind: 'type'; value: string }
  | { kind: 'description'; value: string }
  | { kind: 'inspected'; inspection: FolderInspection | null };

/** An empty form, optionally with a folder already chosen (picker or drop). */
export function initialRegisterForm(location = ''): RegisterForm {
  return { location, name: '', typeName: 'fs-directory', description: '', nameEdited: false, typeEdited: false, inspection: null };
}

/** The next form state. */
export function registerReducer(form: RegisterForm, action: RegisterAction): RegisterForm {
  switch (action.kind) {
    case 'location':
      return { ...form, location: action.value, inspection: action.value === form.location ? form.inspection : null };
    case 'name':
      return { ...form, name: action.value, nameEdited: action.value !== '' };
    case 'type':
      return { ...form, typeName: action.value, typeEdited: true };
    case 'description':
      return { ...form, description: action.value };
    case 'inspected': {
      const inspection = action.inspection;
      if (!inspection) return { ...form, inspection: null };
      return {
        ...form,
        inspection,
        name: form.nameEdited ? form.name : inspection.suggestedName,
        typeName: form.typeEdited ? form.typeName : inspection.suggestedType,
      };
    }
  }
}

/** A one-line verdict on the chosen folder, with a tone for its colour. */
export function describeFolder(inspection: FolderInspection | null): { tone: 'ok' | 'warn' | 'bad'; text: string } | null {
  if (!inspection) return null;
  if (!inspection.exists) return { tone: 'bad', text: 'This folder does not exist. Check the path, or create the folder first.' };
  if (!inspection.isDirectory) return { tone: 'bad', text: 'This is a file, not a folder. Choose the folder that holds it.' };
  if (inspection.gitRoot === inspection.path) return { tone: 'ok', text: 'Git work tree root: suggested type git-checkout (sandboxes as git worktrees).' };
  if (inspection.gitRoot) {
    return { tone: 'warn', text: `Inside the git work tree ${inspection.gitRoot}, not at its root: register as fs-directory, or choose the root for git-checkout.` };
  }
  return { tone: 'ok', text: 'Plain folder: suggested type fs-directory (sandboxes as copies).' };
}

/** The last path segment of a folder path, for titles and proposed names. */
export function folderName(location: string): string {
  const trimmed = location.replace(/[\\/]+$/, '');
  const segments = trimmed.split(/[\\/]/);
  return segments[segments.length - 1] ?? '';
}
