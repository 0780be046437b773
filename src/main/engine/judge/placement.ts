/**
 * Where a cue goes (App. K, Table 8): a system-prompt postscript (the placement of every
 * property-sweep cell, fig. 4); one user turn appended after the trajectory; one assistant
 * turn appended at the end of the trajectory; N assistant turns scattered through it (5 and
 * 25 in the paper); or an assistant turn at a chosen position.
 */
import { sampleDistinct, seededRandom } from '../random';
import type { InsertedTurn } from './trajectory-render';

/** A cue placement. */
export type Placement =
  | { kind: 'system' }
  | { kind: 'user' }
  | { kind: 'assistant_end' }
  | { kind: 'assistant_scattered'; count: number }
  | { kind: 'assistant_at'; afterMessage: number }
  | { kind: 'agent_final' }
  | { kind: 'agent_tool_output' }
  | { kind: 'narration' };

/** The placements of Table 8, by the names the CLI and specs use. */
export const placementPresets: Record<string, Placement> = {
  system: { kind: 'system' },
  user: { kind: 'user' },
  assistant: { kind: 'assistant_end' },
  'assistant-x5': { kind: 'assistant_scattered', count: 5 },
  'assistant-x25': { kind: 'assistant_scattered', count: 25 },
  'agent-final': { kind: 'agent_final' },
  'agent-tool-output': { kind: 'agent_tool_output' },
  narration: { kind: 'narration' },
};

/** Parses a placement name: a preset, `assistant-xN`, or `assistant-at-K`. */
export function parsePlacement(name: string): Placement | null {
  const preset = placementPresets[name];
  if (preset) return preset;
  const scattered = /^assistant-x(\d+)$/.exec(name);
  if (scattered) return { kind: 'assistant_scattered', count: Number(scattered[1]) };
  const at = /^assistant-at-(\d+)$/.exec(name);
  if (at) return { kind: 'assistant_at', afterMessage: Number(at[1]) };
  return null;
}

/** A placement's name, the inverse of `parsePlacement`. */
export function placementName(placement: Placement): string {
  switch (placement.kind) {
    case 'system':
      return 'system';
    case 'user':
      return 'user';
    case 'assistant_end':
      return 'assistant';
    case 'assistant_scattered':
      return `assistant-x${placement.count}`;
    case 'assistant_at':
      return `assistant-at-${placement.afterMessage}`;
    case 'agent_final':
      return 'agent-final';
    case 'agent_tool_output':
      return 'agent-tool-output';
    case 'narration':
      return 'narration';
  }
}

function scatteredPositions(count: number, messageCount: number, random: () => number): number[] {
  const boundaries = Math.max(1, messageCount - 1);
  const positions: number[] = [];
  while (positions.length < count) {
    const take = Math.min(boundaries, count - positions.length);
    positions.push(...sampleDistinct(random, boundaries, take).map((index) => index + 1));
  }
  return positions.sort((a, b) => a - b);
}

/**
 * The turns a placement inserts into a trajectory of `messageCount` messages. Scattered
 * positions are drawn without replacement from the message boundaries 1..count-1 (never after
 * the last message, which the end placement owns) with the study seed and item id, so a rep
 * and its replay insert at the same places. When the trajectory has fewer boundaries than
 * turns asked for, the remaining turns share boundaries in order. A narration transform
 * inserts one turn per text of `cueTexts` the same way; every other placement uses the first.
 */
export function insertedTurns(
  placement: Placement,
  cueTexts: string | readonly string[],
  messageCount: number,
  seed: number,
  itemId: string,
): InsertedTurn[] {
  const texts = typeof cueTexts === 'string' ? [cueTexts] : cueTexts;
  const cueText = texts[0] ?? '';
  switch (placement.kind) {
    case 'agent_final':
      return [{ afterMessage: messageCount, text: cueText, tag: 'cue', style: 'append' }];
    case 'agent_tool_output':
      return [{ afterMessage: messageCount, text: cueText, tag: 'cue', style: 'tool-output' }];
    case 'narration': {
      const random = seededRandom(seed, 'narration', itemId, String(texts.length));
      return scatteredPositions(texts.length, messageCount, random).map((afterMessage, index) => ({
        afterMessage,
        text: texts[index] ?? cueText,
        tag: 'cue',
      }));
    }
    case 'system':
    case 'user':
      return [];
    case 'assistant_end':
      return [{ afterMessage: messageCount, text: cueText, tag: 'cue' }];
    case 'assistant_at':
      return [
        {
          afterMessage: Math.min(Math.max(0, placement.afterMessage), messageCount),
          text: cueText,
          tag: 'cue',
        },
      ];
    case 'assistant_scattered': {
      const random = seededRandom(seed, 'placement', itemId, String(placement.count));
      return scatteredPositions(placement.count, messageCount, random).map((afterMessage) => ({
        afterMessage,
        text: cueText,
        tag: 'cue',
      }));
    }
  }
}
