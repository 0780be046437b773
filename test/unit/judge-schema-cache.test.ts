import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseVerdictInput } from '../../src/main/engine/judge/verdict-parse';
import type { Readout } from '../../src/main/engine/contract/verdict';
import {
  buildVerdictSchema,
  verdictJsonSchema,
  verdictSchema,
} from '../../src/main/engine/judge/readouts';
import { judgeToolSpecs, submitVerdictTool } from '../../src/main/engine/judge/tools';
import { MemoryEnvironment } from '../helpers/memory-environment';

// The verdict and tool schemas are built once per readout shape and shared by every rep
//. The shared ones must equal a fresh build, differ where the shape differs, and
// be frozen so that no caller can change them for the others.
const binary: Readout = { kind: 'binary', dimension: 'task_success', instructions: 'Done?' };
const graded = (dimension: string): Readout => ({
  kind: 'graded',
  dimension,
  instructions: `Score ${dimension}.`,
});
const attribution = (names: string[]): Readout => ({
  kind: 'error_attribution',
  dimension: 'error_attribution',
  instructions: 'Mark each category.',
  taxonomy: {
    id: 'tax',
    name: 'Taxonomy',
    categories: names.map((name, index) => ({ id: `c${index}`, name, definition: name })),
  },
});

function freshJson(readout: Readout): Record<string, unknown> {
  const json = z.toJSONSchema(buildVerdictSchema(readout)) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

describe('shared verdict schemas', () => {
  const readouts = [binary, graded('helpfulness'), attribution(['Wrong tool', 'Gave up'])];

  it('equal a fresh build, for every readout kind', () => {
    for (const readout of readouts) {
      expect(verdictJsonSchema(readout)).toEqual(freshJson(readout));
      expect(verdictJsonSchema(readout)).toBe(verdictJsonSchema(readout));
    }
  });

  it('are one per shape: instructions do not matter, a dimension or category does', () => {
    expect(verdictSchema({ ...binary, instructions: 'Other words.' })).toBe(verdictSchema(binary));
    expect(verdictJsonSchema(graded('a'))).not.toBe(verdictJsonSchema(graded('b')));
    expect(JSON.stringify(verdictJsonSchema(graded('b')))).toContain('Score for b, 1 to 100.');
    const two = attribution(['Wrong tool', 'Gave up']);
    const renamed = attribution(['Wrong tool', 'Stopped early']);
    expect(verdictJsonSchema(renamed)).not.toBe(verdictJsonSchema(two));
    expect(verdictJsonSchema(renamed)).toEqual(freshJson(renamed));
  });

  it('are frozen all the way down', () => {
    const json = verdictJsonSchema(binary) as { properties: Record<string, { type?: string }> };
    expect(Object.isFrozen(json)).toBe(true);
    expect(() => {
      json.properties.verdict!.type = 'number';
    }).toThrow(TypeError);
    expect(verdictJsonSchema(binary)).toEqual(freshJson(binary));
  });

  it('still parse and reject verdicts as a fresh schema does', () => {
    const good = { verdict: 'pass', confidence: 0.8, rationale: 'Both files moved (line 3).' };
    expect(parseVerdictInput(binary, good)).toEqual({
      ok: true,
      verdict: { kind: 'binary', outcome: 'pass', confidence: 0.8, rationale: good.rationale },
    });
    const bad = { ...good, confidence: 2 };
    const problems = buildVerdictSchema(binary)
      .safeParse(bad)
      .error?.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);
    expect(parseVerdictInput(binary, bad)).toEqual({ ok: false, problems });
  });
});

describe('shared tool specs', () => {
  it('offer the same tools as before, in order, with the verdict schema last', () => {
    const specs = judgeToolSpecs(new MemoryEnvironment(), graded('helpfulness'));
    expect(specs.map((spec) => spec.name)).toEqual([
      'shell',
      'read_file',
      'list_dir',
      'read_trajectory',
      submitVerdictTool,
    ]);
    expect(specs.find((spec) => spec.name === 'list_dir')?.inputSchema).toEqual({
      type: 'object',
      properties: { path: { type: 'string', minLength: 1 } },
      required: ['path'],
      additionalProperties: false,
    });
    expect(specs.at(-1)?.inputSchema).toEqual(freshJson(graded('helpfulness')));
  });

  it('share frozen specs, in an array each prompt owns', () => {
    const first = judgeToolSpecs(new MemoryEnvironment(), binary);
    const second = judgeToolSpecs(new MemoryEnvironment(), binary);
    expect(second).not.toBe(first);
    first.forEach((spec, index) => expect(second[index]).toBe(spec));
    expect(first.every((spec) => Object.isFrozen(spec) && Object.isFrozen(spec.inputSchema))).toBe(
      true,
    );
    first.pop();
    expect(judgeToolSpecs(new MemoryEnvironment(), binary)).toHaveLength(second.length);
  });
});
