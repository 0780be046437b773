/**
 * The agent's file operations replayed onto a task's initial state (MCPMark
 * filesystem runs). The calls are those of the MCP filesystem server MCPMark runs
 * (`@modelcontextprotocol/server-filesystem`: write_file, edit_file, create_directory,
 * move_file, and read-only tools). Only calls whose result was not an error are applied, as
 * the server applied only those; anything that cannot be replayed exactly is a problem, never
 * a guess, so the item falls back to trajectory-only with the reason.
 */
import { posix } from 'node:path';
import type { AgentMessage } from '../../../../shared/trajectory';

/** A workspace in memory: files by relative path, and folders (which may be empty). */
export interface FileState {
  files: Map<string, Buffer>;
  folders: Set<string>;
}

/** The end state, or why the run cannot be replayed. */
export type ReplayOutcome =
  { state: FileState; root: string; applied: number } | { problem: string };

/** Tools of the filesystem server that change nothing. */
const readOnlyTools = new Set([
  'read_file',
  'read_text_file',
  'read_media_file',
  'read_multiple_files',
  'list_directory',
  'list_directory_with_sizes',
  'directory_tree',
  'search_files',
  'get_file_info',
  'list_allowed_directories',
]);

const changingTools = new Set(['write_file', 'edit_file', 'create_directory', 'move_file']);

interface Call {
  id: string;
  name: string;
  args: Record<string, unknown>;
  failed: boolean;
}

/** Replays `trajectory`'s file operations onto `initial` (relative paths → bytes). */
export function replayFileOperations(
  initial: ReadonlyMap<string, Buffer>,
  trajectory: readonly AgentMessage[],
): ReplayOutcome {
  const calls = collectCalls(trajectory);
  if (calls === undefined) return { problem: 'a file tool call has arguments that are not JSON' };
  const unknown = calls.find(
    (call) => !readOnlyTools.has(call.name) && !changingTools.has(call.name),
  );
  if (unknown) return { problem: `cannot replay tool ${unknown.name} (call ${unknown.id})` };
  const root = workspaceRoot(initial, calls, trajectory);
  if (root === undefined) return { problem: 'cannot tell which folder the agent worked in' };
  const state: FileState = { files: new Map(initial), folders: new Set() };
  for (const path of initial.keys()) addParents(state, path);
  let applied = 0;
  for (const call of calls) {
    if (!changingTools.has(call.name) || call.failed) continue;
    const problem = apply(state, root, call);
    if (problem) return { problem: `call ${call.id} (${call.name}): ${problem}` };
    applied += 1;
  }
  return { state, root, applied };
}

function collectCalls(trajectory: readonly AgentMessage[]): Call[] | undefined {
  const results = new Map<string, string>();
  for (const message of trajectory) {
    if (message.role === 'tool' && message.tool_call_id) {
      results.set(message.tool_call_id, message.content ?? '');
    }
  }
  const calls: Call[] = [];
  for (const message of trajectory) {
    for (const call of message.tool_calls ?? []) {
      let args: unknown;
      try {
        args = JSON.parse(call.function.arguments || '{}');
      } catch {
        return undefined;
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
      const result = results.get(call.id) ?? '';
      // The server answers a refused or failed call with "Error: …" (isError); nothing changed.
      const failed = /^\s*(error\b|access denied)/i.test(result);
      calls.push({
        id: call.id,
        name: call.function.name,
        args: args as Record<string, unknown>,
        failed,
      });
    }
  }
  return calls;
}

/**
 * The absolute folder the agent's paths are under: found where a path the agent used ends in a
 * file or folder of the initial state, else from `list_allowed_directories`' answer.
 */
function workspaceRoot(
  initial: ReadonlyMap<string, Buffer>,
  calls: readonly Call[],
  trajectory: readonly AgentMessage[],
): string | undefined {
  const known = new Set<string>();
  for (const path of initial.keys()) {
    const parts = path.split('/');
    for (let end = 1; end <= parts.length; end += 1) known.add(parts.slice(0, end).join('/'));
  }
  const longest = [...known].sort((a, b) => b.length - a.length);
  for (const call of calls) {
    for (const raw of pathArguments(call)) {
      const path = posix.normalize(raw).replace(/\/+$/, '');
      const match = longest.find((relative) => path.endsWith(`/${relative}`));
      if (match) return path.slice(0, path.length - match.length - 1) || '/';
    }
  }
  for (const call of calls) {
    if (call.name !== 'list_allowed_directories') continue;
    const answer = trajectory.find((message) => message.tool_call_id === call.id)?.content ?? '';
    const lines = answer.split('\n').filter((line) => line.trim().startsWith('/'));
    if (lines.length === 1) return posix.normalize(lines[0]!.trim()).replace(/\/+$/, '');
  }
  return undefined;
}

function pathArguments(call: Call): string[] {
  const out: string[] = [];
  for (const key of ['path', 'source', 'destination']) {
    const value = call.args[key];
    if (typeof value === 'string' && value.startsWith('/')) out.push(value);
  }
  const many = call.args.paths;
  if (Array.isArray(many)) {
    out.push(
      ...many.filter((path): path is string => typeof path === 'string' && path.startsWith('/')),
    );
  }
  return out;
}

/** `raw` relative to `root`; undefined when it is outside (the server would have refused it). */
function relativePath(root: string, raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0) return undefined;
  const absolute = raw.startsWith('/') ? posix.normalize(raw) : posix.join(root, raw);
  const relative = posix.relative(root, absolute);
  if (!relative || relative.startsWith('..') || posix.isAbsolute(relative)) return undefined;
  return relative;
}

function addParents(state: FileState, path: string): void {
  const parts = path.split('/');
  for (let end = 1; end < parts.length; end += 1) state.folders.add(parts.slice(0, end).join('/'));
}

function apply(state: FileState, root: string, call: Call): string | undefined {
  if (call.name === 'write_file') {
    const path = relativePath(root, call.args.path);
    if (!path || typeof call.args.content !== 'string')
      return 'needs a path inside the workspace and content';
    state.files.set(path, Buffer.from(call.args.content, 'utf8'));
    addParents(state, path);
    return undefined;
  }
  if (call.name === 'create_directory') {
    const path = relativePath(root, call.args.path);
    if (!path) return 'needs a path inside the workspace';
    state.folders.add(path);
    addParents(state, path);
    return undefined;
  }
  if (call.name === 'move_file') return move(state, root, call);
  return edit(state, root, call);
}

function move(state: FileState, root: string, call: Call): string | undefined {
  const source = relativePath(root, call.args.source);
  const destination = relativePath(root, call.args.destination);
  if (!source || !destination) return 'needs a source and destination inside the workspace';
  const file = state.files.get(source);
  if (file) {
    state.files.delete(source);
    state.files.set(destination, file);
    addParents(state, destination);
    return undefined;
  }
  if (!state.folders.has(source)) return `${source} is not in the replayed state`;
  const rename = (path: string) => destination + path.slice(source.length);
  for (const [path, bytes] of [...state.files]) {
    if (!path.startsWith(`${source}/`)) continue;
    state.files.delete(path);
    state.files.set(rename(path), bytes);
  }
  for (const folder of [...state.folders]) {
    if (folder !== source && !folder.startsWith(`${source}/`)) continue;
    state.folders.delete(folder);
    state.folders.add(rename(folder));
  }
  addParents(state, destination);
  return undefined;
}

/** edit_file: each edit's oldText replaced once, in order; dry runs change nothing. */
function edit(state: FileState, root: string, call: Call): string | undefined {
  if (call.args.dryRun === true) return undefined;
  const path = relativePath(root, call.args.path);
  const bytes = path ? state.files.get(path) : undefined;
  if (!path || !bytes) return 'the file is not in the replayed state';
  const edits = call.args.edits;
  if (!Array.isArray(edits)) return 'edits: expected a list';
  let text = bytes.toString('utf8').replace(/\r\n/g, '\n');
  for (const [index, change] of edits.entries()) {
    const { oldText, newText } = (change ?? {}) as { oldText?: unknown; newText?: unknown };
    if (typeof oldText !== 'string' || typeof newText !== 'string') {
      return `edits.${index}: needs oldText and newText`;
    }
    const needle = oldText.replace(/\r\n/g, '\n');
    const at = text.indexOf(needle);
    // The server also matches ignoring indentation; that cannot be redone byte-exactly here.
    if (at < 0) return `edits.${index}: oldText is not in the file exactly`;
    text = text.slice(0, at) + newText.replace(/\r\n/g, '\n') + text.slice(at + needle.length);
  }
  state.files.set(path, Buffer.from(text, 'utf8'));
  return undefined;
}
