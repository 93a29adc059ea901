import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../shared/errors.ts';
import { pickSandbox } from './sandbox-ref.ts';

const sandbox = (id: string, resourceName: string, slotNames: string[]) => ({ id, resourceId: `R-${id}`, resourceName, slotNames });

const all = [sandbox('S1', 'local/docs', ['docs']), sandbox('S2', 'team/docs', ['notes']), sandbox('S3', 'local/app', ['app', 'docs2'])];

function refusal(ref: string | undefined, sandboxes = all): ValidationError | NotFoundError {
  try {
    pickSandbox('P1', sandboxes, ref);
  } catch (error) {
    return error as ValidationError;
  }
  throw new Error('expected a refusal');
}

describe('pickSandbox', () => {
  it('finds a sandbox by id, resource id, name, short name or slot', () => {
    expect(pickSandbox('P1', all, 'S2').id).toBe('S2');
    expect(pickSandbox('P1', all, 'R-S3').id).toBe('S3');
    expect(pickSandbox('P1', all, 'team/docs').id).toBe('S2');
    expect(pickSandbox('P1', all, 'app').id).toBe('S3');
    expect(pickSandbox('P1', all, 'notes').id).toBe('S2');
    expect(pickSandbox('P1', [all[2]!], undefined).id).toBe('S3');
  });

  it('refuses a tie instead of taking the first match, naming each candidate by resource name', () => {
    const error = refusal('docs');
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('"docs" names several sandboxes of plan P1: say which one, by resource name (local/docs (slots docs), team/docs (slots notes)).');
    expect(error.details).toMatchObject({ resources: ['local/docs', 'team/docs'], candidates: [{ sandboxId: 'S1' }, { sandboxId: 'S2' }] });
  });

  it('prefers an exact sandbox id to a name that happens to match another', () => {
    expect(pickSandbox('P1', [...all, sandbox('docs', 'x/other', [])], 'docs').id).toBe('docs');
  });

  it('takes a full resource name even when it is also the short name or a slot of another sandbox', () => {
    const named = [sandbox('S1', 'docs', ['a']), sandbox('S2', 'team/docs', ['b']), sandbox('S3', 'local/app', ['local/app'])];
    expect(pickSandbox('P1', named, 'docs').id).toBe('S1');
    expect(pickSandbox('P1', named, 'team/docs').id).toBe('S2');
    expect(pickSandbox('P1', [...named, sandbox('S4', 'x/y', ['local/app'])], 'local/app').id).toBe('S3');
  });

  it('asks which one when a plan has several and none is named, and says when none matches', () => {
    expect(refusal(undefined)).toBeInstanceOf(ValidationError);
    expect(refusal(undefined).message).toMatch(/^Plan P1 has 3 sandboxes: say which one, by resource name/);
    expect(refusal('nope')).toBeInstanceOf(NotFoundError);
    expect(refusal('nope').message).toMatch(/^Plan P1 has no sandbox for "nope": use one of local\/docs/);
  });
});
