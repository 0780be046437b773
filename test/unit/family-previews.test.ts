import { describe, expect, it } from 'vitest';
import { previewPrompt } from '../../src/main/engine/judge/preview';
import { listCueFamilies } from '../../src/main/engine/judge/cues/families/registry';
import { loadBuiltinSuite } from '../../src/main/engine/suites/builtin';
import { repConditionSchema } from '../../src/shared/rep-condition';

/** A representative placement name for each pattern a family may allow. */
const concrete: Record<string, string> = {
  'assistant-xN': 'assistant-x5',
  'assistant-at-K': 'assistant-at-2',
};

describe('the exact prompt of every built-in family × placement × item', () => {
  it('is previewable, with every cue span marking the family’s own text', () => {
    const suite = loadBuiltinSuite('cuelab-mini');
    let previews = 0;
    for (const { family } of listCueFamilies().filter((entry) => entry.origin === 'builtin')) {
      for (const allowed of family.placements) {
        const placement = concrete[allowed] ?? allowed;
        for (const item of suite.items) {
          for (const [direction, placebo] of [
            ['severity', false],
            ['leniency', false],
            ['leniency', true],
          ] as const) {
            const condition = repConditionSchema.parse({
              cue: { kind: 'family', family: family.id, ...(placebo ? { placebo } : {}) },
              direction,
              placement,
            });
            const preview = previewPrompt(item, suite.taxonomies, condition);
            const texts = placebo ? family.templates.placebo : family.templates[direction];
            const marked = preview.cueSpans.map((span) => {
              const text =
                span.location === 'system'
                  ? preview.system
                  : (preview.messages[span.location]?.content ?? '');
              return text.slice(span.start, span.end);
            });
            expect(marked.length, `${family.id} ${placement} ${item.id}`).toBeGreaterThan(0);
            // A marked span is one of the family's templates, line for line as the prompt numbers them.
            for (const span of marked) {
              const plain = span.replace(/\n\s*\d+ \| /g, '\n');
              expect(texts, `${family.id} ${placement} ${item.id}`).toContain(plain);
            }
            previews += 1;
          }
        }
      }
    }
    // 6 families: 5+5+5+5+6+1 placements × 56 items × 3 cues.
    expect(previews).toBe(27 * suite.items.length * 3);
  });
});
