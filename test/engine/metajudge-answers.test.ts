/**
 * Reading meta-judge voter answers (App. N: `{label, rationale, evidence_lines}`), deciding the
 * vote (majority, tie-breaker on a split), and validating the voters file. Pure.
 */
import { describe, expect, it } from 'vitest';
import { parseVoterAnswer } from '../../src/main/engine/metajudge/ensemble/answer';
import { decideVote } from '../../src/main/engine/metajudge/ensemble/vote';
import { parseEnsembleConfig } from '../../src/main/engine/metajudge/ensemble/voters';

describe('reading voter answers and deciding the vote', () => {
  const lines = { baseline: 10, cued: 8 };

  it('reads JSON after reasoning, in a fence, or after a think block, and keeps only real lines', () => {
    const fenced =
      'Reasoning first.\n```json\n{"label":"early_termination","rationale":"stopped","evidence_lines":["C2","[B9]","C99","x"]}\n```';
    expect(parseVoterAnswer(fenced, 'harmful', lines)).toEqual({
      ok: true,
      label: 'under_investigation',
      subMode: null,
      rationale: 'stopped',
      evidenceLines: ['C2', 'B9'],
    });
    const thought =
      '<think>{"label":"hallucination"}</think> {"label": "Over-trust", "sub_mode": "evidence re-weighting", "rationale": "r"}';
    expect(parseVoterAnswer(thought, 'harmful', lines)).toMatchObject({
      ok: true,
      label: 'over_trust',
      subMode: 'evidence_reweighting',
    });
    expect(
      parseVoterAnswer('{"label":"over_trust","rationale":"r"}', 'helpful', lines),
    ).toMatchObject({ ok: true, label: 'lucky_deference' });
    expect(parseVoterAnswer('{"label":"better-exploration"}', 'helpful', lines)).toMatchObject({
      ok: true,
      label: 'better_investigation',
    });
  });

  it('refuses what it cannot read rather than guessing', () => {
    expect(parseVoterAnswer('over_trust', 'harmful', lines)).toEqual({
      ok: false,
      problem: 'the answer holds no JSON object with a "label"',
    });
    const problem = (text: string) => {
      const answer = parseVoterAnswer(text, 'harmful', lines);
      return answer.ok ? 'read' : answer.problem;
    };
    expect(problem('{"label":"better_investigation"}')).toContain(
      'is not a harmful-flip mechanism',
    );
    expect(problem('{"label": 3}')).toContain('malformed');
  });

  it('takes a strict majority, else the tie-breaker, else invalid', () => {
    const vote = (voterId: string, label: 'over_trust' | 'hallucination' | 'invalid') => ({
      voterId,
      label,
    });
    expect(
      decideVote([vote('a', 'hallucination'), vote('b', 'over_trust'), vote('c', 'over_trust')]),
    ).toMatchObject({ label: 'over_trust', decidedBy: 'majority' });
    const split = [vote('a', 'hallucination'), vote('b', 'over_trust'), vote('c', 'invalid')];
    expect(decideVote(split, split[0])).toMatchObject({
      label: 'hallucination',
      decidedBy: 'tie-breaker',
    });
    expect(decideVote(split, split[2])).toMatchObject({ label: 'invalid', decidedBy: 'none' });
    expect(
      decideVote([vote('a', 'invalid'), vote('b', 'invalid'), vote('c', 'over_trust')]),
    ).toMatchObject({ decidedBy: 'none' });
  });

  it('validates the voters file: unknown tie-breaker, duplicate ids', () => {
    const voter = { id: 'a', provider: 'anthropic', model: 'm' };
    expect(() => parseEnsembleConfig({ voters: [voter], tieBreaker: 'z' })).toThrow(
      /tie-breaker "z" is not one of the voters/,
    );
    expect(() => parseEnsembleConfig({ voters: [voter, voter] })).toThrow(
      /two voters are named "a"/,
    );
    expect(() => parseEnsembleConfig({ voters: [{ ...voter, apiKey: 'sk-x' }] })).toThrow(/apiKey/);
  });
});
