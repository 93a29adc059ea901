import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AgentBadges } from './agent-badges.tsx';

describe('AgentBadges', () => {
  it('shows nothing on a plan a person made', () => {
    expect(renderToStaticMarkup(<AgentBadges plan={{ createdBy: 'person', reviewRequestedAt: null }} />)).toBe('');
  });

  it('marks a plan an agent made, and when it asked for review', () => {
    const made = renderToStaticMarkup(<AgentBadges plan={{ createdBy: 'agent', reviewRequestedAt: null }} />);
    expect(made).toContain('made by an agent');
    expect(made).not.toContain('asked for review');
    const asked = renderToStaticMarkup(<AgentBadges plan={{ createdBy: 'agent', reviewRequestedAt: new Date().toISOString() }} />);
    expect(asked).toContain('made by an agent');
    expect(asked).toContain('asked for review');
  });
});
