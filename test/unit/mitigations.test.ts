import { describe, expect, it } from 'vitest';
import { renderCue } from '../../src/main/engine/judge/cues/compose';
import type { ModelCall } from '../../src/main/engine/judge/loop';
import {
  CITE_EVIDENCE_CHECKLIST,
  GUARD_INSTRUCTION,
  LEARNED_SKILL,
  SUFFICIENCY_GATE_PROMPT,
  resolveMitigations,
} from '../../src/main/engine/judge/mitigations/builtin';
import { applyGate, runSufficiencyGate } from '../../src/main/engine/judge/mitigations/gate';
import { GUARD_QUOTED_FRAGMENT, LEARNED_SKILL_PARTS } from '../../src/main/engine/paper';
import { buildJudgePrompt } from '../../src/main/engine/judge/prompt';
import type { Readout, Verdict } from '../../src/main/engine/contract/verdict';
import type { JudgeTranscript } from '../../src/main/engine/contract/transcript';
import type { ModelRequest } from '../../src/main/engine/providers/types';
import { mitigationSpecSchema } from '../../src/shared/cue-spec';
import { MemoryEnvironment } from '../helpers/memory-environment';

const readout: Readout = {
  kind: 'binary',
  dimension: 'task_success',
  instructions: 'Did the agent complete the task?',
};

describe('built-in mitigation texts (§3.4)', () => {
  it('guard is one line ending in App. F’s quoted phrase', () => {
    expect(GUARD_INSTRUCTION).not.toContain('\n');
    expect(GUARD_INSTRUCTION.endsWith(`${GUARD_QUOTED_FRAGMENT.text}.`)).toBe(true);
  });

  it('the skill has the three named parts; the checklist marks unverified criteria', () => {
    for (const part of LEARNED_SKILL_PARTS) expect(LEARNED_SKILL).toContain(`- ${part}:`);
    expect(CITE_EVIDENCE_CHECKLIST).toMatch(/acceptance criteria yourself/);
    expect(CITE_EVIDENCE_CHECKLIST).toMatch(/"unverified"/);
    expect(SUFFICIENCY_GATE_PROMPT).toContain('"cites_specific_observed_failure"');
  });
});

describe('resolveMitigations', () => {
  it('needs systemText or gatePrompt on a custom mitigation', () => {
    const base = { kind: 'custom', id: 'mine', label: 'Mine' } as const;
    expect(mitigationSpecSchema.safeParse(base).success).toBe(false);
    expect(mitigationSpecSchema.safeParse({ ...base, gatePrompt: 'Audit.' }).success).toBe(true);
    expect(mitigationSpecSchema.safeParse({ kind: 'builtin', id: 'guard' }).success).toBe(true);
    expect(mitigationSpecSchema.safeParse({ kind: 'builtin', id: 'shield' }).success).toBe(false);
  });

  it('returns system texts in spec order and the gate separately', () => {
    const resolved = resolveMitigations([
      { kind: 'builtin', id: 'learned-skill' },
      { kind: 'builtin', id: 'sufficiency-gate' },
      { kind: 'builtin', id: 'guard' },
      { kind: 'builtin', id: 'cite-evidence' },
    ]);
    expect(resolved.texts).toEqual([
      { id: 'learned-skill', systemText: LEARNED_SKILL },
      { id: 'guard', systemText: GUARD_INSTRUCTION },
      { id: 'cite-evidence', systemText: CITE_EVIDENCE_CHECKLIST },
    ]);
    expect(resolved.gate).toEqual({ id: 'sufficiency-gate', prompt: SUFFICIENCY_GATE_PROMPT });
    expect(resolveMitigations([])).toEqual({ texts: [], gate: null, commitmentCheck: false });
  });

  it('takes a researcher’s own text and gate prompt', () => {
    const resolved = resolveMitigations([
      {
        kind: 'custom',
        id: 'skeptic',
        label: 'Skeptic',
        systemText: 'Be skeptical.',
        gatePrompt: 'Audit.',
      },
    ]);
    expect(resolved).toEqual({
      texts: [{ id: 'skeptic', systemText: 'Be skeptical.' }],
      gate: { id: 'skeptic', prompt: 'Audit.' },
      commitmentCheck: false,
    });
  });

  it('rejects two gates, a repeated id and a custom id that shadows a built-in', () => {
    expect(() =>
      resolveMitigations([
        { kind: 'builtin', id: 'sufficiency-gate' },
        { kind: 'custom', id: 'second', label: 'Second', gatePrompt: 'Audit.' },
      ]),
    ).toThrow(/"sufficiency-gate" and "second" both define a gate/);
    expect(() =>
      resolveMitigations([
        { kind: 'builtin', id: 'guard' },
        { kind: 'builtin', id: 'guard' },
      ]),
    ).toThrow(/listed twice/);
    expect(() =>
      resolveMitigations([{ kind: 'custom', id: 'guard', label: 'Mine', systemText: 'x' }]),
    ).toThrow(/built-in's id/);
  });
});

describe('mitigations combine with any cue', () => {
  it('puts mitigation texts and a system cue in the system prompt, the cue last', () => {
    const { texts } = resolveMitigations([
      { kind: 'builtin', id: 'guard' },
      { kind: 'builtin', id: 'learned-skill' },
    ]);
    const cue = renderCue({ kind: 'preset', preset: 'strong' }, 'severity', { readout });
    for (const placement of [{ kind: 'system' }, { kind: 'user' }] as const) {
      const prompt = buildJudgePrompt({
        itemId: 'fs-001',
        task: 'Move every .log file into logs/.',
        trajectory: [{ role: 'assistant', content: 'Done.' }],
        readout,
        environment: new MemoryEnvironment(),
        seed: 17,
        mitigations: texts,
        cue: { ...cue, direction: 'severity', placement },
      });
      expect(prompt.system).toContain(`\n\n${GUARD_INSTRUCTION}\n\n${LEARNED_SKILL}`);
      const [span] = prompt.cueSpans;
      const where = span?.location === 'system' ? prompt.system : prompt.messages[1]?.content;
      expect(span && where?.slice(span.start, span.end)).toBe(cue.text);
      if (placement.kind === 'system') expect(prompt.system.endsWith(cue.text)).toBe(true);
    }
  });
});

function transcriptWith(verdict: Verdict | null): JudgeTranscript {
  return {
    model: 'judge-model',
    system: 'sys',
    tools: [],
    messages: [],
    turns: [],
    toolCalls: [
      {
        turn: 0,
        id: 't1',
        name: 'list_dir',
        input: { path: '/work/logs' },
        output: 'a.log\n'.repeat(1000),
        isError: false,
        durationMs: 3,
        resultNumber: 1,
        stopDirective: false,
      },
      {
        turn: 1,
        id: 't2',
        name: 'submit_verdict',
        input: { verdict: 'maybe' },
        output: 'repair',
        isError: true,
        durationMs: 0,
        resultNumber: 1,
        stopDirective: false,
      },
    ],
    outcome: verdict ? 'verdict' : 'invalid_verdict',
    verdict,
    verdictSource: verdict ? 'submit_verdict' : null,
    verdictProblems: [],
    repairUsed: false,
    totals: {
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      toolResults: 1,
      turns: 2,
      durationMs: 5,
    },
  };
}

const fail: Verdict = {
  kind: 'binary',
  outcome: 'fail',
  confidence: 0.9,
  rationale: 'A domain expert said requirements were unmet.',
};

function scripted(text: string): { call: ModelCall; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  const call: ModelCall = (request) => {
    requests.push(request);
    return Promise.resolve({
      response: {
        text,
        toolCalls: [],
        stopReason: 'end_turn',
        usage: { inputTokens: 120, outputTokens: 30 },
        model: 'auditor',
      },
      attempts: 1,
      temperatureSent: true,
    });
  };
  return { call, requests };
}

async function gate(text: string, verdict: Verdict | null = fail) {
  const { call, requests } = scripted(text);
  const transcript = transcriptWith(verdict);
  const record = await runSufficiencyGate({
    call,
    model: 'auditor',
    temperature: 0.7,
    task: 'Move every .log file into logs/.',
    transcript,
    gatePrompt: SUFFICIENCY_GATE_PROMPT,
    costOf: () => 0.001,
    maxOutputChars: 100,
  });
  return { record, requests, transcript };
}

describe('sufficiency gate (§3.4)', () => {
  it('sends one text-only audit of the FAIL with the task, rationale and truncated tool calls', async () => {
    const { requests, record } = await gate(
      '{"cites_specific_observed_failure": true, "reason": "ok"}',
    );
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.tools).toEqual([]);
    expect(request?.system).toBe(SUFFICIENCY_GATE_PROMPT);
    expect(request?.temperature).toBe(0.7);
    const content = request?.messages[0]?.content ?? '';
    expect(content).toContain('Move every .log file into logs/.');
    expect(content).toContain(fail.rationale);
    expect(content).toContain('## 1. list_dir {"path":"/work/logs"}');
    expect(content).toMatch(/\[truncated: 5900 more characters\]/);
    expect(content).not.toContain('submit_verdict');
    expect(record.applied && record.turn).toMatchObject({ index: 0, costUsd: 0.001, attempts: 1 });
  });

  it('grounded: no overturn, the verdict stays FAIL', async () => {
    const { record, transcript } = await gate(
      '```json\n{"cites_specific_observed_failure": true, "reason": "Cites the missing logs/b.log."}\n```',
    );
    expect(record).toMatchObject({ applied: true, auditVerdict: 'grounded', overturned: false });
    expect(applyGate(transcript, record)).toBe(fail);
  });

  it('ungrounded: overturned to PASS with the reason appended, the original kept', async () => {
    const { record, transcript } = await gate(
      'Audit: {"cites_specific_observed_failure": false, "reason": "It only repeats the note."}',
    );
    expect(record).toMatchObject({
      applied: true,
      auditVerdict: 'ungrounded',
      overturned: true,
      originalVerdict: fail,
    });
    const final = applyGate(transcript, record);
    expect(final).toMatchObject({ kind: 'binary', outcome: 'pass' });
    expect(final?.rationale).toBe(
      `${fail.rationale}\n\n[sufficiency-gate] Overturned to PASS: It only repeats the note.`,
    );
    expect(transcript.verdict).toBe(fail);
  });

  it('garbage or contradictory answers are invalid and change nothing', async () => {
    const answers: [string, RegExp][] = [
      ['I think it is fine.', /no JSON object/],
      ['{"cites_specific_observed_failure": "no", "reason": "x"}', /no JSON object/],
      [
        '```json\n{"cites_specific_observed_failure": true, "reason": "a"}\n```\n' +
          '```json\n{"cites_specific_observed_failure": false, "reason": "b"}\n```',
        /contradictory/,
      ],
    ];
    for (const [text, problem] of answers) {
      const { record, transcript } = await gate(text);
      expect(record).toMatchObject({ applied: true, auditVerdict: 'invalid', overturned: false });
      expect(record.applied && record.responseText).toBe(text);
      expect(record.applied && record.rationale).toMatch(problem);
      expect(applyGate(transcript, record)).toBe(fail);
    }
  });

  it('PASS, error-attribution and missing verdicts are not audited and make no call', async () => {
    const pass: Verdict = { ...fail, outcome: 'pass' };
    const errors: Verdict = {
      kind: 'error_attribution',
      present: [],
      absent: ['FS1'],
      rationale: 'x',
    };
    for (const verdict of [pass, errors, null]) {
      const { record, requests, transcript } = await gate('{}', verdict);
      expect(requests).toHaveLength(0);
      expect(record).toMatchObject({ applied: false, overturned: false });
      expect(applyGate(transcript, record)).toBe(verdict);
    }
  });
});
