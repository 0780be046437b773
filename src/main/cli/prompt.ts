import { parseArgs } from 'node:util';
import type { PromptPreview } from '../../shared/lab-api';
import { existsSync } from 'node:fs';
import { exitCodes, UsageError, type CliCommand } from './command';
import { conditionFromFlags, conditionOptions, conditionUsage } from './condition-flags';
import { openLab, unwrap } from './connection';
import { fileForEngine } from './files';

/** `cuelab prompt`: the exact prompt one rep would send, with the cue marked. */
export const promptCommand: CliCommand = {
  name: 'prompt',
  summary: 'Print the exact messages and tools a judge rep would send, with the cue marked',
  usage: `Usage: cuelab prompt --suite S --item ID [condition flags] [--json] [--workspace DIR]

Prints the system prompt, every message and every tool definition that one judge rep of the
item would send, exactly. The cue is marked ⟦cue⟧ … ⟦/cue⟧ (--json: its offsets in cueSpans).

${conditionUsage}`,
  async run(args, io, context) {
    const { values } = parseArgs({
      args,
      options: conditionOptions,
      strict: true,
      allowPositionals: false,
    });
    const condition = conditionFromFlags(values);
    if (!values.suite) throw new UsageError('name the suite with --suite');
    if (!values.item) throw new UsageError('name the item with --item');
    const session = openLab(context, values.workspace);
    try {
      // A suite file on this machine goes to the engine by path; else it names a suite there.
      const suite =
        values.suite.endsWith('.json') && existsSync(values.suite)
          ? { suitePath: await fileForEngine(session, values.suite) }
          : { suiteId: values.suite };
      const preview = unwrap(
        await session.api.previewItemPrompt({ ...suite, itemId: values.item, condition }),
      );
      io.out(values.json ? JSON.stringify(preview, null, 2) : formatPreview(preview));
      return exitCodes.ok;
    } finally {
      await session.close();
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
