import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SandboxStrategy } from '../../../../shared/model.ts';
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
});
