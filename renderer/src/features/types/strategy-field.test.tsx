import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SandboxStrategy } from '../../../../shared/model.ts';
import { StrategySelect } from '../resources/strategy-select.tsx';
import { NEW_TYPE_STRATEGY, StrategyField } from './strategy-field.tsx';

const render = (value: SandboxStrategy) => renderToStaticMarkup(<StrategyField value={value} onChange={() => {}} disabled={false} />);
const WARNING = 'changes the original folder in place';

describe('StrategyField', () => {
  it('starts a new type on copy on write, with no in-place warning', () => {
    expect(NEW_TYPE_STRATEGY).toBe('copy_on_write');
    const html = render(NEW_TYPE_STRATEGY);
    expect(html).toMatch(/<option value="copy_on_write" selected="">/);
    expect(html).not.toContain(WARNING);
  });

  it('warns next to the choice when a type works in place (strategy none)', () => {
    const html = render('none');
    expect(html).toMatch(/<option value="none" selected="">/);
    expect(html).toContain(WARNING);
    expect(html).toContain('role="alert"');
  });

  it('warns beside a resource whose strategy, its own or its type default, is none', () => {
    const select = (value: SandboxStrategy | '', typeDefault: SandboxStrategy) =>
      renderToStaticMarkup(<StrategySelect value={value} onChange={() => {}} typeDefault={typeDefault} error={null} />);
    expect(select('none', 'copy_on_write')).toContain('a tool on this resource changes the original folder in place');
    expect(select('', 'none')).toContain(WARNING);
    expect(select('', 'copy_on_write')).not.toContain(WARNING);
  });
});
