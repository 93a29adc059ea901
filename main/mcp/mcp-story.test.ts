/**
 * `bindery mcp` as an agent meets it: the real CLI spawned as a process, driven by the official
 * SDK's Client over stdio, on real git repositories and folders (issue 24, items 1 and 4).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
// ajv is the validator the MCP SDK itself depends on (a production dependency through it).
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, writeFiles } from '../testing/fixtures.ts';
import { REPO_ROOT } from '../testing/child-process.ts';
import { CLI_ENV, cliArgs, runCli } from '../testing/cli-process.ts';
import { agentRefusal } from '../services/agent-service.ts';

const MIXED = fs.readFileSync(path.join(REPO_ROOT, 'main/testing/reference/mixed.yaml'), 'utf8');
const TOOLS = [
  'list_resources',
  'list_projects',
  'list_tools',
  'resolve_tool',
  'create_plan',
  'list_plans',
  'show_plan',
  'list_changes',
  'get_diff',
  'ready_for_review',
  'list_notes',
  'answer_note',
  'commit_plan',
  'commit_sandbox',
  'undo_commit',
  'discard_plan',
  'discard_sandbox',
];

interface Slot {
  slot_name: string;
  resource_name: string;
  sandbox_path: string;
  access: string;
  strategy: string;
}
interface AgentPlan {
  plan_id: string;
  created_by: string;
  agent_may_commit: boolean;
  review_requested_at: string | null;
  slots: Slot[];
}

// The suite's folders outlive single tests (the fixtures' tempDir removes its folders after each).
const kept: string[] = [];
function keptDir(prefix = 'bindery-mcp-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  kept.push(dir);
  return dir;
}

function gitRepo(files: Record<string, string>): string {
  const dir = keptDir('bindery-mcp-repo-');
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/** The reference's mixed tool over a git repo (contextual, read_write), a config folder (static, read_only) and an output folder. */
async function seeded() {
  const data = keptDir('bindery-mcp-');
  const repo = gitRepo({ 'src/app.ts': 'export const a = 1;\n', 'README.md': '# app\n' });
  const config = keptDir();
  writeFiles(config, { 'settings.json': '{"x":1}\n' });
  const output = keptDir();
  const other = gitRepo({ 'README.md': '# other\n' });
  const toolFile = path.join(keptDir(), 'mixed.yaml');
  fs.writeFileSync(toolFile, MIXED);
  const steps = [
    ['resources', 'add', 'local/app', '--type', 'git-checkout', '--location', repo],
    ['resources', 'add', 'local/shared-config', '--type', 'fs-directory', '--location', config],
    ['resources', 'add', 'local/out', '--type', 'fs-directory', '--location', output],
    ['resources', 'add', 'local/other', '--type', 'git-checkout', '--location', other],
    ['projects', 'add', 'demo'],
    ['projects', 'link', 'demo', 'local/app'],
    ['projects', 'add', 'elsewhere'],
    ['projects', 'link', 'elsewhere', 'local/other', '--alias', 'repo'],
    ['tools', 'import', toolFile],
  ];
  for (const args of steps) expect((await runCli(data, args)).code, args.join(' ')).toBe(0);
  return { data, repo, output };
}

/** Starts `bindery mcp` as a process and connects the SDK's client to it. */
async function connect(data: string, extra: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs(data, ['mcp', ...extra]),
    env: CLI_ENV as Record<string, string>,
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'bindery-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

async function ok<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await call(client, name, args);
  expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
  return JSON.parse(text(result)) as T;
}

async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError, `${name} should fail: ${text(result)}`).toBe(true);
  return text(result);
}

describe('bindery mcp', () => {
  let setup: Awaited<ReturnType<typeof seeded>>;
  let client: Client;

  beforeAll(async () => {
    setup = await seeded();
    client = await connect(setup.data);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    for (const dir of kept.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists every tool with an input schema that is a valid JSON Schema object', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    const ajv = new Ajv({ strict: true, strictRequired: false });
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    }
    const diff = tools.find((t) => t.name === 'get_diff');
    expect(diff?.inputSchema.required).toEqual(['plan', 'path']);
  });

  it('resolves, creates a plan, sees a change and its diff, is refused a commit until the project allows agents', async () => {
    const { data, repo } = setup;
    const resolved = await ok<Array<{ slot_name: string; explanation: { summary: string; rule: string } }>>(client, 'resolve_tool', {
      tool: 'mixed',
      project: 'demo',
      params: { output: 'local/out' },
    });
    expect(resolved.map((r) => r.slot_name)).toEqual(['repo', 'config', 'output']);
    expect(resolved[0]?.explanation.summary).toContain('local/app');

    const plan = await ok<AgentPlan>(client, 'create_plan', { tool: 'mixed', project: 'demo', params: { output: 'local/out' } });
    expect(plan.created_by).toBe('agent');
    expect(plan.agent_may_commit).toBe(false);
    const slot = (name: string) => plan.slots.find((s) => s.slot_name === name) as Slot;
    expect(slot('repo')).toMatchObject({ access: 'read_write', resource_name: 'local/app' });
    expect(slot('config')).toMatchObject({ access: 'read_only', strategy: 'copy_on_write' });
    // Read-only stays read-only: the sandbox has no write bits.
    expect(fs.statSync(path.join(slot('config').sandbox_path, 'settings.json')).mode & 0o222).toBe(0);
    expect(slot('repo').sandbox_path).not.toBe(repo);
    expect(fs.existsSync(path.join(slot('repo').sandbox_path, 'src/app.ts'))).toBe(true);

    fs.writeFileSync(path.join(slot('repo').sandbox_path, 'agent.txt'), 'made by the agent\n');
    const changes = await ok<Array<{ resource_name: string; changes: Array<{ path: string; kind: string }> }>>(client, 'list_changes', { plan: plan.plan_id });
    const app = changes.find((c) => c.resource_name === 'local/app');
    expect(app?.changes).toEqual([expect.objectContaining({ path: 'agent.txt', kind: 'added' })]);
    const diffs = await ok<Array<{ patch: string }>>(client, 'get_diff', { plan: plan.plan_id, sandbox: 'repo', path: 'agent.txt' });
    expect(diffs[0]?.patch).toContain('+made by the agent');

    const summary = await client.readResource({ uri: `bindery://plans/${plan.plan_id}` });
    expect(JSON.parse((summary.contents[0] as { text: string }).text)).toMatchObject({ plan_id: plan.plan_id, created_by: 'agent' });
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(`bindery://plans/${plan.plan_id}`);

    const refusal = agentRefusal('demo');
    expect(await refused(client, 'commit_plan', { plan: plan.plan_id })).toBe(refusal);
    expect(await refused(client, 'commit_sandbox', { plan: plan.plan_id, sandbox: 'repo' })).toBe(refusal);
    expect(await refused(client, 'discard_plan', { plan: plan.plan_id, confirm: true })).toBe(refusal);
    expect(await refused(client, 'undo_commit', { plan: plan.plan_id, sandbox: 'repo' })).toBe(refusal);
    expect(fs.existsSync(path.join(repo, 'agent.txt'))).toBe(false);

    const ready = await ok<{ review_requested_at: string | null; created_by: string }>(client, 'ready_for_review', { plan: plan.plan_id, message: 'added agent.txt' });
    expect(ready.review_requested_at).not.toBeNull();
    const activity = await runCli(data, ['--json', 'plans', 'show', plan.plan_id]);
    expect(activity.json<{ created_by: string; review_requested_at: string }>()).toMatchObject({ created_by: 'agent', review_requested_at: ready.review_requested_at });

    // The person turns the setting on with the CLI (another process); the running server sees it.
    expect((await runCli(data, ['projects', 'update', 'demo', '--agent-may-commit'])).code).toBe(0);
    const committed = await ok<Array<{ committed: boolean; resource_name: string }>>(client, 'commit_plan', { plan: plan.plan_id });
    expect(committed.find((c) => c.resource_name === 'local/app')?.committed).toBe(true);
    expect(fs.readFileSync(path.join(repo, 'agent.txt'), 'utf8')).toBe('made by the agent\n');
    expect((await runCli(data, ['projects', 'update', 'demo', '--no-agent-may-commit'])).code).toBe(0);
    expect(await refused(client, 'undo_commit', { plan: plan.plan_id, sandbox: 'repo' })).toBe(refusal);
  }, 120_000);

  it('answers bad input with a clear error, changes nothing and stays up', async () => {
    const { data, repo } = setup;
    const before = (await runCli(data, ['--json', 'plans', 'list'])).stdout;
    const plan = (JSON.parse(before) as Array<{ plan_id: string }>)[0]?.plan_id ?? 'NONE';

    expect(await refused(client, 'no_such_tool', {})).toMatch(/no_such_tool not found/);
    expect(await refused(client, 'resolve_tool', { tool: 5, project: 'demo' })).toMatch(/Invalid arguments for tool resolve_tool/);
    expect(await refused(client, 'create_plan', { tool: 'mixed', project: 'demo', surprise: true })).toMatch(/surprise/);
    expect(await refused(client, 'get_diff', { plan, sandbox: 'repo', path: '../../etc/passwd' })).toMatch(/relative path inside the sandbox/);
    expect(await refused(client, 'get_diff', { plan, sandbox: 'repo', path: '/etc/passwd' })).toMatch(/relative path inside the sandbox/);
    expect(await refused(client, 'list_changes', { plan, project: 'elsewhere' })).toMatch(/belongs to project "demo", not "elsewhere"/);
    expect(await refused(client, 'show_plan', { plan: 'NOPE-NOT-A-PLAN' })).toMatch(/There is no plan/);
    expect(await refused(client, 'create_plan', { tool: 'mixed', project: 'nowhere' })).toMatch(/There is no project "nowhere"/);

    expect((await runCli(data, ['--json', 'plans', 'list'])).stdout).toBe(before);
    expect(fs.readdirSync(repo).sort()).toEqual(['.git', 'README.md', 'agent.txt', 'src']);
    expect((await ok<unknown[]>(client, 'list_projects')).length).toBe(2);
  }, 60_000);

  it("reads the person's open notes and answers one, resolving it with the reply appended", async () => {
    const { data } = setup;
    const plan = await ok<AgentPlan>(client, 'create_plan', { tool: 'mixed', project: 'demo', params: { output: 'local/out' } });
    const repo = plan.slots.find((s) => s.slot_name === 'repo') as Slot;
    fs.writeFileSync(path.join(repo.sandbox_path, 'src/app.ts'), 'export const a = 2;\n');
    const person = ['--json', 'plans', 'notes', 'add', plan.plan_id, '--resource', 'repo', '--path', 'src/app.ts', '--lines', 'new:1', '-m', 'a should stay 1'];
    const added = (await runCli(data, person)).json<{ id: string }>();
    await runCli(data, ['plans', 'notes', 'add', plan.plan_id, '-m', 'also update the README']);

    const open = await ok<Array<{ id: string; body: string; path: string | null; side: string | null; from_line: number | null; anchor_text: string | null; outdated: boolean }>>(client, 'list_notes', { plan: plan.plan_id });
    expect(open.map((n) => [n.body, n.path, n.side, n.from_line, n.anchor_text, n.outdated])).toEqual([
      ['a should stay 1', 'src/app.ts', 'new', 1, 'export const a = 2;', false],
      ['also update the README', null, null, null, null, false],
    ]);
    const answered = await ok<{ status: string; body: string }>(client, 'answer_note', { plan: plan.plan_id, note: added.id, reply: 'Put a back to 1.' });
    expect(answered).toMatchObject({ status: 'resolved', body: 'a should stay 1\n\nReply from the agent: Put a back to 1.' });
    expect((await ok<Array<{ body: string }>>(client, 'list_notes', { plan: plan.plan_id })).map((n) => n.body)).toEqual(['also update the README']);
    expect((await ok<unknown[]>(client, 'list_notes', { plan: plan.plan_id, status: 'resolved' })).length).toBe(1);
    expect(await refused(client, 'answer_note', { plan: plan.plan_id, note: 'NOPE', reply: 'x' })).toMatch(/has no review note "NOPE": use an id list_notes gives/);
    expect(await refused(client, 'list_notes', { plan: plan.plan_id, project: 'elsewhere' })).toMatch(/belongs to project "demo", not "elsewhere"/);
  }, 60_000);

  it('keeps a server started with --project inside that project', async () => {
    const { data } = setup;
    const plan = (JSON.parse((await runCli(data, ['--json', 'plans', 'list'])).stdout) as Array<{ plan_id: string }>)[0]?.plan_id as string;
    const scoped = await connect(data, ['--project', 'elsewhere']);
    try {
      expect(await refused(scoped, 'show_plan', { plan })).toMatch(/outside this MCP server's project "elsewhere"/);
      expect(await refused(scoped, 'commit_plan', { plan })).toMatch(/outside this MCP server's project/);
      expect(await refused(scoped, 'resolve_tool', { tool: 'mixed', project: 'demo' })).toMatch(/outside/);
      expect((await ok<Array<{ name: string }>>(scoped, 'list_projects')).map((p) => p.name)).toEqual(['elsewhere']);
      expect((await ok<unknown[]>(scoped, 'list_plans')).length).toBe(0);
      // A limit counts the project's plans, not plans of others filtered out afterwards.
      const mine = await ok<AgentPlan>(scoped, 'create_plan', { tool: 'mixed', project: 'elsewhere', params: { output: 'local/out' } });
      await ok<AgentPlan>(client, 'create_plan', { tool: 'mixed', project: 'demo', params: { output: 'local/out' } });
      expect((await ok<Array<{ id: string }>>(scoped, 'list_plans', { limit: 1 })).map((p) => p.id)).toEqual([mine.plan_id]);
    } finally {
      await scoped.close();
    }
  }, 60_000);
});
