import { RuleTester } from 'eslint';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import rule from '../../eslint-rules/engine-faces.mjs';

// The lint rule that keeps engine modules behind their faces (docs/ARCHITECTURE.md), run on
// the real engine tree: the paths below name real modules and files.
const engine = join(__dirname, '..', '..', 'src', 'main', 'engine');
RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

tester.run('engine-faces', rule, {
  valid: [
    { filename: join(engine, 'judge', 'loop.ts'), code: "import { openStore } from '../store';" },
    { filename: join(engine, 'judge', 'loop.ts'), code: "import { x } from './budget';" },
    { filename: join(engine, 'judge', 'cues', 'a.ts'), code: "import { x } from '../prompt';" },
    { filename: join(engine, 'runner', 'a.ts'), code: "import { EngineError } from '../errors';" },
    { filename: join(engine, 'engine.ts'), code: "import { createHandlers } from './api';" },
    {
      filename: join(engine, 'runner', 'a.ts'),
      code: "import { claimJob } from '../store/faces/jobs';",
    },
  ],
  invalid: [
    {
      filename: join(engine, 'runner', 'a.ts'),
      code: "import { claimJob } from '../store/faces/queue-internals';",
      errors: [{ messageId: 'deep' }],
    },
    {
      filename: join(engine, 'judge', 'loop.ts'),
      code: "import { saveJudgeRep } from '../store/judge-reps';",
      errors: [{ messageId: 'deep' }],
    },
    {
      filename: join(engine, 'engine.ts'),
      code: "export { loadJudgeRep } from './store/judge-reps';",
      errors: [{ messageId: 'deep' }],
    },
    {
      filename: join(engine, 'runner', 'a.ts'),
      code: "import { serveCommand } from '../../cli/serve';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: join(engine, 'reports', 'a.ts'),
      code: "import { x } from '../../../renderer/charts/axes';",
      errors: [{ messageId: 'upward' }],
    },
  ],
});
