import { reply, type FakeHandler } from './fake-model-server';

/**
 * A deterministic fake judge for runner tests: it lists one directory, then passes the item
 * unless the cue (text containing `trigger`) is anywhere in its prompt, in which case it fails
 * it. So every uncued majority is PASS and every severity-cued rep flips.
 */
export function deferentialJudge(trigger = 'UNMET'): FakeHandler {
  return (request) => {
    const messages = request.body.messages as { role: string; content: unknown }[];
    const sawTool = JSON.stringify(messages.at(-1)?.content ?? '').includes('tool_result');
    if (!sawTool) return reply.toolCall('list_dir', { path: '.' });
    const cued = JSON.stringify(request.body).includes(trigger);
    return reply.toolCall('submit_verdict', {
      verdict: cued ? 'fail' : 'pass',
      confidence: 0.8,
      rationale: cued ? 'The pre-screen says requirements are unmet.' : 'The files are in place.',
    });
  };
}
