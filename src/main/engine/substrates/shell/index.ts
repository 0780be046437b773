/** The shell substrate: commands run in the agent's final container (never on the host). */
import { z } from 'zod';
import { shellName } from '../../../../shared/substrates/shell';
import { defineTool } from '../../contract';
import type { Substrate } from '../substrate';

const shellTool = defineTool({
  name: shellName,
  description: "Run a shell command in the agent's final environment and return its output.",
  input: z.object({ command: z.string().min(1) }).strict(),
  run: async ({ command }, { environment, limits, signal }) => {
    const result = await environment.exec(command, limits, signal);
    const parts = [
      `exit code: ${result.exitCode ?? 'killed'}${result.timedOut ? ' (timed out)' : ''}`,
    ];
    if (result.stdout) parts.push(`stdout:\n${result.stdout}`);
    if (result.stderr) parts.push(`stderr:\n${result.stderr}`);
    if (result.truncated) parts.push(`[output truncated at ${limits.maxOutputBytes} bytes]`);
    return { content: parts.join('\n'), isError: false };
  },
});

/** `shell`, offered when the environment runs commands (the Docker backend). */
export const shellSubstrate: Substrate = {
  name: shellName,
  tools: [shellTool],
  servedBy: (environment) => environment.capabilities.shell,
};
