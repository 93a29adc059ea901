import { describe, expect, it } from 'vitest';
import { checkIdentifier, checkPlainName, checkResourceName, checkTypeName, looksLikeId, shortName } from './names.ts';

describe('names', () => {
  it.each(['git-checkout', 'fs-directory', 'a', 'x1-y2'])('accepts type name %s', (name) => expect(checkTypeName(name)).toBeNull());
  it.each(['Git', 'git_checkout', '-a', 'a-', 'a--b', ''])('refuses type name %j', (name) => expect(checkTypeName(name)).toMatch(/kebab-case/));

  it.each(['local/shared-config', 'team/sub/app', 'a/b.c_d'])('accepts resource name %s', (name) => expect(checkResourceName(name)).toBeNull());
  it.each(['plain', '/abs', 'a/', 'a//b', 'a/b c', 'a/../b'])('refuses resource name %j', (name) =>
    expect(checkResourceName(name)).toMatch(/namespace\/name/),
  );

  it('short name is the part after the last slash', () => {
    expect(shortName('local/shared-config')).toBe('shared-config');
    expect(shortName('team/sub/app')).toBe('app');
  });

  it('checks project names and identifiers', () => {
    expect(checkPlainName('project', 'demo-1')).toBeNull();
    expect(checkPlainName('project', 'de mo')).toMatch(/may hold only/);
    expect(checkIdentifier('alias', 'config_dir')).toBeNull();
    expect(checkIdentifier('alias', '1x')).toMatch(/must not start with a digit/);
  });

  it('recognises ULIDs', () => {
    expect(looksLikeId('01HGZ6Y1Q7M8K9T0V2W3X4Y5Z6')).toBe(true);
    expect(looksLikeId('local/app')).toBe(false);
  });
});
