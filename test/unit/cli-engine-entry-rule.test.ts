import { RuleTester } from 'eslint';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import rule from '../../eslint-rules/cli-engine-entry.mjs';

// The lint rule that keeps the CLI on LabApi: from src/main/cli only the engine
// entry, the machine entry and the api face reach the engine, types included. Real paths of
// the real tree.
const cli = join(__dirname, '..', '..', 'src', 'main', 'cli');
RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});

tester.run('cli-engine-entry', rule, {
  valid: [
    { filename: join(cli, 'status.ts'), code: "import { createEngine } from '../engine/engine';" },
    {
      filename: join(cli, 'status.ts'),
      code: "import { createInProcessClient } from '../engine/api';",
    },
    { filename: join(cli, 'status.ts'), code: "import type { Engine } from '../engine/engine';" },
    { filename: join(cli, 'judge.ts'), code: "import { toolBudget } from '../engine/machine';" },
    { filename: join(cli, 'status.ts'), code: "import { unwrap } from './connection';" },
    { filename: join(cli, 'status.ts'), code: "import { z } from '../../shared/lab-api';" },
    {
      filename: join(cli, 'legacy.ts'),
      code: "import { openStore } from '../engine/store';",
      options: [{ pending: ['legacy.ts'] }],
    },
  ],
  invalid: [
    {
      filename: join(cli, 'status.ts'),
      code: "import type { Store } from '../engine/store';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: join(cli, 'condition-flags.ts'),
      code: "import { type Store, type StoreRow } from '../engine/store/database';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: join(cli, 'status.ts'),
      code: "import { listStudies } from '../engine/store';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: join(cli, 'status.ts'),
      code: "import { createInProcessClient } from '../engine/api/in-process-client';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: join(cli, 'status.ts'),
      code: "import { type Store, openStore } from '../engine/store';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: join(cli, 'status.ts'),
      code: "export { EngineError } from '../engine/errors';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: join(cli, 'status.ts'),
      code: "const loaded = import('../engine/metajudge');",
      errors: [{ messageId: 'internal' }],
    },
  ],
});
