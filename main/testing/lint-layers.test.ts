// The layer rules of DESIGN 3.1 as eslint.config.js states them: each case lints one import line
// as if it sat in the named file, so a rule that stops refusing (or starts refusing) fails here.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './child-process.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function refusals(file: string, line: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${line}\nexport const used = x;\n`, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rules', () => {
  it.each([
    ['main/sandbox/commit/commit.ts', "import { x } from '../../registry/database.ts';", /may not import registry/],
    ['main/sandbox/commit/commit.test.ts', "import { x } from '../../services/plan-service.ts';", /may not import/],
    ['main/sandbox/changes/detect.ts', "import { x } from '../provision/layout.ts';", /through its index\.ts/],
    ['main/sandbox/commit/journal/apply.ts', "import { x } from '../../fs/pool.ts';", /through its index\.ts/],
    ['main/registry/sandboxes.ts', "import { x } from '../sandbox/index.ts';", /main\/registry may not import sandbox/],
    ['main/services/plan-service.ts', "import { x } from '../sandbox/commit/commit.ts';", /main\/sandbox\/index\.ts/],
    ['main/cli/commands/plans.ts', "import { x } from '../../sandbox/index.ts';", /hosts/],
    ['main/web/server.ts', "import { x } from '../registry/database.ts';", /hosts/],
    ['main/git/simple-runner.ts', "import { x } from '../sandbox/index.ts';", /main\/git may not import/],
    ['main/core/codec.ts', "import { x } from 'node:fs';", /free of I\/O/],
    ['renderer/src/app/app.tsx', "import { x } from '../../../main/services/api.ts';", /shared\/ only/],
    ['main/services/doctor.ts', "import { x } from 'simple-git';", /main\/git/],
    ['main/cli/main.ts', "import { x } from 'electron';", /electron/],
    // One case for each rule not shown above, so every layer's refusal is held by a test.
    ['main/sandbox/provision/layout.ts', "import { x } from '../../handlers/handler.ts';", /main\/sandbox .* may not import/],
    ['main/sandbox/sandbox-manager.ts', "import { x } from '../cli/main.ts';", /main\/sandbox .* may not import/],
    ['main/sandbox/index.ts', "import { x } from './commit/commit.ts';", /through its index\.ts/],
    ['main/registry/plans.ts', "import { x } from '../services/plan-service.ts';", /main\/registry may not import/],
    ['main/mcp/tools.ts', "import { x } from '../sandbox/index.ts';", /hosts/],
    ['main/electron/main.ts', "import { x } from '../registry/database.ts';", /hosts/],
    ['main/web/server.ts', "import { x } from '../git/index.ts';", /hosts/],
    ['main/cli/commands/plans.ts', "import { x } from '../../handlers/handler.ts';", /hosts/],
    ['main/handlers/handler.ts', "import { x } from '../sandbox/provision/layout.ts';", /main\/sandbox\/index\.ts/],
    ['main/handlers/handler.ts', "import { x } from '../cli/main.ts';", /main\/handlers and main\/services may not import/],
    ['main/core/codec.ts', "import { x } from '../registry/database.ts';", /main\/core and shared may not import/],
    ['shared/dto.ts', "import { x } from '../main/services/api.ts';", /main\/core and shared may not import/],
    ['shared/contract.ts', "import { x } from 'better-sqlite3';", /free of I\/O/],
    ['renderer/src/app/app.tsx', "import { x } from 'node:fs';", /shared\/ only/],
    ['main/registry/database.ts', "import { x } from 'simple-git';", /main\/git/],
    ['main/services/doctor.ts', "import { x } from 'electron';", /electron/],
  ])('%s refuses %s', async (file, line, reason) => {
    const messages = await refusals(file, line);
    expect(messages.some((m) => reason.test(m)), messages.join('\n')).toBe(true);
  });

  it.each([
    ['main/sandbox/changes/detect.ts', "import { x } from '../fs/index.ts';"],
    ['main/sandbox/commit/commit.ts', "import { x } from './journal/apply.ts';"],
    ['main/sandbox/commit/commit.test.ts', "import { x } from '../../testing/sandbox/harness.ts';"],
    ['main/services/plan-service.ts', "import { x } from '../sandbox/index.ts';"],
    ['main/cli/commands/plans.ts', "import { x } from '../../services/plan-service.ts';"],
    ['main/git/simple-runner.ts', "import { x } from 'simple-git';"],
    ['main/electron/main.ts', "import { x } from 'electron';"],
    ['main/electron/main.ts', "import { x } from '../services/bindery.ts';"],
    ['main/cli/commands/plans.test.ts', "import { x } from '../../sandbox/index.ts';"],
    ['main/sandbox/index.ts', "import { x } from './commit/index.ts';"],
    ['main/registry/sandbox-store.ts', "import { x } from '../../shared/dto.ts';"],
    ['renderer/src/app/app.tsx', "import { x } from '../../../shared/dto.ts';"],
  ])('%s allows %s', async (file, line) => {
    expect(await refusals(file, line)).toEqual([]);
  });
});
