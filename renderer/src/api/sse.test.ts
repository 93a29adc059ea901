import { describe, expect, it } from 'vitest';
import { SseParser } from './sse.ts';

describe('SseParser', () => {
  it('parses named events with JSON data', () => {
    const parser = new SseParser();
    expect(parser.push('event: registryChanged\ndata: {"a":1}\n\n')).toEqual([{ event: 'registryChanged', data: '{"a":1}' }]);
  });

  it('joins multi-line data, skips comments, defaults the name to message', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\n\ndata: one\ndata: two\n\n')).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });

  it('handles chunks cut anywhere, including between \\r and \\n', () => {
    const parser = new SseParser();
    const whole = 'event: progress\r\ndata: {"done":1}\r\n\r\nevent: x\ndata: y\n\n';
    const out = [];
    for (const char of whole) out.push(...parser.push(char));
    expect(out).toEqual([
      { event: 'progress', data: '{"done":1}' },
      { event: 'x', data: 'y' },
    ]);
  });

  it('drops an event without data', () => {
    expect(new SseParser().push('event: lonely\n\n')).toEqual([]);
  });
});
