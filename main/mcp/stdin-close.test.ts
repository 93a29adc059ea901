/**
 * `bindery mcp` driven as a pipe: requests written, then stdin closed (a batch client, a shell).
 * Every request gets its answer before the server goes, and stdout holds JSON-RPC lines only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPlan, spawnCli } from '../testing/cli-process.ts';

const TOOL = 'resource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n    binding: contextual\n';

function run(data: string, input: string): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(data, ['mcp']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    child.stdin.end(input);
  });
}

describe('bindery mcp when the client closes stdin', () => {
  it('answers every request already sent before it stops, on stdout as JSON-RPC only', async () => {
    const { data, planId, sandboxPath } = await cliPlan('one', TOOL);
    fs.writeFileSync(path.join(sandboxPath, 'agent.txt'), 'by the agent\n');

    const requests = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_changes', arguments: { plan: planId } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_diff', arguments: { plan: planId, path: 'agent.txt' } } },
      { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: `bindery://plans/${planId}` } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'list_projects', arguments: {} } },
    ];
    const result = await run(data, requests.map((request) => JSON.stringify(request)).join('\n') + '\n');
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n').filter(Boolean);
    const answers = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: { isError?: boolean; content?: Array<{ text: string }> } });
    for (const answer of answers) expect(answer.jsonrpc).toBe('2.0');
    expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(answers.find((answer) => answer.id === 3)?.result?.content?.[0]?.text).toContain('+by the agent');
  }, 90_000);
});
