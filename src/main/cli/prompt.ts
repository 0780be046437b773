import { parseArgs } from 'node:util';
import type { PromptPreview } from '../../shared/lab-api';
import { createEngine } from '../engine/engine';
import { previewPrompt } from '../engine/judge/preview';
import { workspaceForProcess } from '../engine/workspace';
import { exitCodes, type CliCommand } from './command';
import {
  conditionFromFlags,
  conditionOptions,
  conditionUsage,
  itemFromFlags,
} from './condition-flags';

/** `cuelab prompt`: the exact prompt one rep would send, with the cue marked. */
export const promptCommand: CliCommand = {
  name: 'prompt',
  // Not yet on LabApi: it opens the workspace here (issue 13 follow-up).
  local: true,
  summary: 'Print the exact messages and tools a judge rep would send, with the cue marked',
  usage: `Usage: cuelab prompt --suite S --item ID [condition flags] [--json] [--workspace DIR]

Prints the system prompt, every message and every tool definition that one judge rep of the
item would send, exactly. The cue is marked ⟦cue⟧ … ⟦/cue⟧ (--json: its offsets in cueSpans).

${conditionUsage}`,
  run(args, io) {
    const { values } = parseArgs({
      args,
      options: conditionOptions,
      strict: true,
      allowPositionals: false,
    });
    const condition = conditionFromFlags(values);
    const engine = createEngine(workspaceForProcess(values.workspace));
    try {
      const { item, taxonomies } = itemFromFlags(engine.store, values);
      const preview = previewPrompt(item, taxonomies, condition);
      io.out(values.json ? JSON.stringify(preview, null, 2) : formatPreview(preview));
      return Promise.resolve(exitCodes.ok);
    } finally {
      engine.close();
    }
  },
};

/** A preview as text, cue spans wrapped in ⟦cue⟧ … ⟦/cue⟧. */
export function formatPreview(preview: PromptPreview): string {
  const mark = (text: string, location: 'system' | number) => {
    const spans = preview.cueSpans
      .filter((span) => span.location === location)
      .sort((a, b) => b.start - a.start);
    let marked = text;
    for (const span of spans) {
      marked = `${marked.slice(0, span.start)}⟦cue⟧${marked.slice(span.start, span.end)}⟦/cue⟧${marked.slice(span.end)}`;
    }
    return marked;
  };
  const out = [`=== system (${preview.backend} environment) ===`, mark(preview.system, 'system')];
  preview.messages.forEach((message, index) => {
    out.push('', `=== message ${index + 1}: ${message.role} ===`, mark(message.content, index));
  });
  out.push('', '=== tools ===');
  for (const tool of preview.tools)
    out.push(`${tool.name}: ${tool.description}`, `  ${JSON.stringify(tool.inputSchema)}`);
  out.push(
    '',
    preview.cue
      ? `cue: ${preview.cue.label} [${preview.cue.provenance}${preview.cue.citation ? `, ${preview.cue.citation}` : ''}]`
      : 'cue: none (uncued control)',
  );
  return out.join('\n');
}
