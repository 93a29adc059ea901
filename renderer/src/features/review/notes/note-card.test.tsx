import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ReviewNote } from '../../../../../shared/review-dto.ts';
import { NoteCard } from './note-card.tsx';

const base: ReviewNote = {
  id: 'n1',
  planId: 'p1',
  sandboxId: 's1',
  resourceName: 'local/site',
  path: 'src/a.ts',
  side: 'new',
  fromLine: 10,
  toLine: 14,
  anchorText: '  for (const x of xs) total += x;',
  body: 'Use reduce',
  status: 'open',
  outdated: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  resolvedAt: null,
};

describe('NoteCard', () => {
  it('quotes the text an outdated note was written on, and only then', () => {
    const fresh = renderToStaticMarkup(<NoteCard note={base} />);
    expect(fresh).not.toContain('Outdated');
    expect(fresh).not.toContain('total += x');
    const outdated = renderToStaticMarkup(<NoteCard note={{ ...base, outdated: true }} />);
    expect(outdated).toContain('Outdated');
    expect(outdated).toMatch(/<pre><code>\s*for \(const x of xs\) total \+= x;<\/code><\/pre>/);
  });

  it('names its place in the panel, as a link to the lines, and offers Reopen once resolved', () => {
    const html = renderToStaticMarkup(<NoteCard note={{ ...base, status: 'resolved' }} inPanel onJump={() => undefined} />);
    expect(html).toContain('aria-label="Note on src/a.ts, lines 10-14 (sandbox)"');
    expect(html).toMatch(/<button[^>]*class="note-anchor is-link"[^>]*>src\/a.ts, lines 10-14 \(sandbox\)<\/button>/);
    expect(html).toContain('Reopen');
    expect(html).toContain('Resolved');
  });
});
