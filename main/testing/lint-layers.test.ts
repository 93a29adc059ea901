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
  ])('%s allows %s', async (file, line) => {
    expect(await refusals(file, line)).toEqual([]);
  });
});
