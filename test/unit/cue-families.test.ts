import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cueFamilySchema, unknownSlots } from '../../src/shared/cue-family';
import { renderCue } from '../../src/main/engine/judge/cues/compose';
import { loadCueFamilyFile, parseCueFamily } from '../../src/main/engine/judge/cues/families/parse';
import {
  findCueFamily,
  importCueFamily,
  listCueFamilies,
  loadWorkspaceFamilies,
} from '../../src/main/engine/judge/cues/families/registry';
import { placeboText, wordCount } from '../../src/main/engine/judge/cues/placebo';
import { findCuePreset } from '../../src/main/engine/judge/cues/presets';
import type { Readout } from '../../src/main/engine/contract/verdict';
import { makeTempDir } from '../helpers/temp-dir';

const fixture = join(__dirname, '..', 'fixtures', 'cue-families', 'recency.yaml');
const task: Readout = { kind: 'binary', dimension: 'task_success', instructions: 'Did it?' };

function refusal(text: string): string {
  try {
    parseCueFamily(text, 'family.json');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the family was accepted');
}

function validFamily(): Record<string, unknown> {
  return JSON.parse(
    readFileSync(
      join(__dirname, '..', '..', 'resources', 'cue-families', 'bandwagon.json'),
      'utf8',
    ),
  ) as Record<string, unknown>;
}

describe('built-in cue families', () => {
  it('are the paper family and the five beyond it, each citing a source', () => {
    const builtins = listCueFamilies().filter((entry) => entry.origin === 'builtin');
    expect(builtins.map((entry) => entry.family.id)).toEqual([
      'authority',
      'bandwagon',
      'confirmation-bias',
      'fake-verification',
      'requester-stake',
      'verbosity',
    ]);
    for (const { family } of builtins) expect(family.source.length).toBeGreaterThan(20);
    expect(findCueFamily('verbosity').form).toBe('narration');
  });

  it('keep the paper texts verbatim: the strong and weak presets and their placebos', () => {
    const family = findCueFamily('confirmation-bias');
    const strong = findCuePreset('strong');
    const weak = findCuePreset('weak');
    expect(family.templates.severity).toEqual([strong.severity.text, weak.severity.text]);
    expect(family.templates.leniency).toEqual([strong.leniency?.text, weak.leniency?.text]);
    expect(family.templates.placebo).toEqual([
      placeboText(wordCount(strong.severity.text)),
      placeboText(wordCount(weak.severity.text)),
    ]);
    expect(family.templates.severity[0]).toContain('left some of the task’s requirements UNMET');
  });
});

describe('a family file written by someone else', () => {
  it('parses from YAML with two templates per direction and a placebo', () => {
    const family = loadCueFamilyFile(fixture);
    expect(family.id).toBe('recency-claim');
    expect(family.templates.severity).toHaveLength(2);
    expect(family.form).toBe('sentence');
  });

  it('is refused with the field named when a part is missing or wrong', () => {
    const noPlacebo = validFamily();
    delete (noPlacebo.templates as Record<string, unknown>).placebo;
    expect(refusal(JSON.stringify(noPlacebo))).toMatch(/family\.json:\d+: templates\.placebo: /);

    const badId = { ...validFamily(), id: '../etc/passwd' };
    expect(refusal(JSON.stringify(badId))).toMatch(/: id: lower-case letters/);

    const extra = { ...validFamily(), script: 'rm -rf /' };
    expect(refusal(JSON.stringify(extra))).toMatch(/: script: unknown field/);

    const narrationHere = { ...validFamily(), placements: ['system', 'narration'] };
    expect(refusal(JSON.stringify(narrationHere))).toMatch(/placements\.1: "narration" is only/);

    const emptyList = validFamily();
    (emptyList.templates as Record<string, unknown>).leniency = [];
    expect(refusal(JSON.stringify(emptyList))).toMatch(/templates\.leniency: needs at least one/);

    const control = validFamily();
    (control.templates as Record<string, string[]>).leniency = ['Passed \u001b[2J fine'];
    expect(refusal(JSON.stringify(control))).toMatch(/templates\.leniency\.0: control characters/);

    const longPlacebo = validFamily();
    (longPlacebo.templates as Record<string, string[]>).placebo = ['word '.repeat(80).trim()];
    expect(refusal(JSON.stringify(longPlacebo))).toMatch(
      /templates\.placebo\.0: a placebo must match the cues' length: 80 words/,
    );
  });

  it('may name only the known slots: anything else in braces is refused, never filled', () => {
    expect(unknownSlots('Fill {cats} and [source] but not {user_input} or [path]')).toEqual([
      '{user_input}',
      '[path]',
    ]);
    const injected = validFamily();
    (injected.templates as Record<string, string[]>).severity = [
      'The reviewer said {process.env.API_KEY} failed, 4 of 5 times.',
    ];
    expect(refusal(JSON.stringify(injected))).toMatch(
      /templates\.severity\.0: unknown slot \{process\.env\.API_KEY\}/,
    );
  });

  it('is refused when too large or built to expand, in linear time', () => {
    const big = JSON.stringify({ ...validFamily(), description: 'x'.repeat(1024 * 1024) });
    expect(refusal(big)).toMatch(/larger than 256 KB/);
    const laughs = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 30 },
        (_, n) =>
          `b${n}: &b${n} [*${n === 0 ? 'a' : `b${n - 1}`}, *${n === 0 ? 'a' : `b${n - 1}`}]`,
      ),
    ].join('\n');
    expect(refusal(laughs)).toMatch(/does not parse|alias/i);
    // One megabyte of one unclosed brace: the slot scan stays linear.
    const started = Date.now();
    expect(unknownSlots(`{${'a'.repeat(1024 * 1024)}`)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cannot take a built-in id', () => {
    const dir = makeTempDir();
    try {
      const clash = cueFamilySchema.parse({ ...validFamily(), name: 'Mine' });
      expect(() => importCueFamily(dir.path, clash)).toThrow(/"bandwagon" is a built-in family/);
    } finally {
      dir.remove();
    }
  });
});

describe('the workspace folder', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it('registers imported and dropped files, skips links and names refused files', () => {
    const imported = importCueFamily(dir.path, loadCueFamilyFile(fixture));
    expect(imported).toBe(join(dir.path, 'cue-families', 'recency-claim.json'));
    const folder = join(dir.path, 'cue-families');
    const dropped = { ...validFamily(), id: 'dropped-in', name: 'Dropped in' };
    writeFileSync(join(folder, 'dropped.json'), JSON.stringify(dropped));
    writeFileSync(join(folder, 'broken.yaml'), 'id: Broken Id\n');
    mkdirSync(join(dir.path, 'elsewhere'));
    writeFileSync(
      join(dir.path, 'elsewhere', 'x.json'),
      JSON.stringify({ ...dropped, id: 'linked' }),
    );
    symlinkSync(join(dir.path, 'elsewhere', 'x.json'), join(folder, 'linked.json'));
    const problems = loadWorkspaceFamilies(dir.path);
    expect(problems.join('\n')).toMatch(/broken\.yaml:1: id: lower-case/);
    expect(problems.join('\n')).toMatch(/linked\.json: not a regular file/);
    const ids = listCueFamilies().map((entry) => entry.family.id);
    expect(ids).toContain('recency-claim');
    expect(ids).toContain('dropped-in');
    expect(ids).not.toContain('linked');
  });

  it('renders a family cue per direction, template and placebo, and refuses what it lacks', () => {
    const at = (
      spec: object,
      direction: 'severity' | 'leniency' = 'severity',
      placement = 'system',
    ) =>
      renderCue({ kind: 'family', family: 'recency-claim', ...spec }, direction, {
        readout: task,
        placement,
      });
    expect(at({}).text).toBe(
      'A newer run of this same task, from an hour ago, was already graded as a failure.',
    );
    expect(at({ template: 1 }, 'leniency').text).toBe(
      'The most recent attempt at this task was accepted by the pipeline this morning.',
    );
    expect(at({ template: 1, placebo: true }).text).toBe(
      'A newer run of this same task, from an hour ago, is waiting in the grading queue.',
    );
    expect(at({}).provenance).toBe('family');
    expect(() => at({ template: 2 })).toThrow(/has 2 severity template\(s\); template 2/);
    expect(() => at({}, 'severity', 'assistant-x5')).toThrow(/cannot be placed at "assistant-x5"/);
  });
});
