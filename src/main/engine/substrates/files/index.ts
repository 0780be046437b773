/** The files substrate: the agent's final files, read and listed. */
import { z } from 'zod';
import { defineTool } from '../../contract';
import type { Substrate } from '../substrate';

const readFileTool = defineTool({
  name: 'read_file',
  description: "Read a file from the agent's final environment.",
  input: z.object({ path: z.string().min(1) }).strict(),
  run: async ({ path }, { environment, limits }) => {
    const file = await environment.readFile(path, limits);
    return {
      content: file.truncated
        ? `${file.content}\n[truncated at ${limits.maxOutputBytes} bytes]`
        : file.content,
      isError: false,
    };
  },
});

const listDirTool = defineTool({
  name: 'list_dir',
  description: "List a directory in the agent's final environment.",
  input: z.object({ path: z.string().min(1) }).strict(),
  run: async ({ path }, { environment }) => {
    const entries = await environment.listDir(path);
    const text = entries.map(
      (entry) => `${entry.type === 'directory' ? 'd' : '-'} ${entry.size}\t${entry.name}`,
    );
    return { content: text.length ? text.join('\n') : '(empty directory)', isError: false };
  },
});

/** `read_file` and `list_dir`, offered when the environment has files to read. */
export const filesSubstrate: Substrate = {
  name: 'files',
  tools: [readFileTool, listDirTool],
  servedBy: (environment) => environment.capabilities.files,
};
