/**
 * Replaying an MCPMark agent's file operations (file-replay.ts): what each filesystem-server
 * call does to the state, failed calls skipped, and anything not exactly replayable refused.
 */
import { describe, expect, it } from 'vitest';
import { replayFileOperations } from '../../src/main/engine/suites/import/file-replay';
import type { AgentMessage } from '../../src/shared/trajectory';

const root = '/srv/work/project';

/** One assistant turn per call, each answered by `results[i]` (default "ok"). */
function run(calls: [string, Record<string, unknown>][], results: string[] = []): AgentMessage[] {
  return calls.flatMap(([name, args], index): AgentMessage[] => [
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: `c${index}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
      ],
    },
    { role: 'tool', tool_call_id: `c${index}`, content: results[index] ?? 'ok' },
  ]);
}

const initial = new Map([
  ['README.md', Buffer.from('# Title\r\nold line\r\n')],
  ['docs/a.txt', Buffer.from('a')],
  ['docs/b.txt', Buffer.from('b')],
]);

function text(state: Map<string, Buffer>, path: string): string | undefined {
  return state.get(path)?.toString('utf8');
}

describe('replaying file operations', () => {
  it('applies writes, edits, moves of files and folders, and new folders', () => {
    const outcome = replayFileOperations(
      initial,
      run([
        ['read_text_file', { path: `${root}/README.md` }],
        [
          'edit_file',
          { path: `${root}/README.md`, edits: [{ oldText: 'old line', newText: 'new line' }] },
        ],
        [
          'edit_file',
          { path: `${root}/README.md`, edits: [{ oldText: 'Title', newText: 'X' }], dryRun: true },
        ],
        ['write_file', { path: `${root}/out/report.txt`, content: 'done\n' }],
        ['move_file', { source: `${root}/docs`, destination: `${root}/archive/docs` }],
        ['create_directory', { path: `${root}/empty/inner` }],
      ]),
    );
    if ('problem' in outcome) throw new Error(outcome.problem);
    expect(outcome.root).toBe(root);
    expect(outcome.applied).toBe(5);
    expect(text(outcome.state.files, 'README.md')).toBe('# Title\nnew line\n');
    expect(text(outcome.state.files, 'out/report.txt')).toBe('done\n');
    expect([...outcome.state.files.keys()].sort()).toEqual([
      'README.md',
      'archive/docs/a.txt',
      'archive/docs/b.txt',
      'out/report.txt',
    ]);
    expect(outcome.state.folders.has('empty/inner')).toBe(true);
    expect(outcome.state.folders.has('docs')).toBe(false);
  });

  it('skips calls the server answered with an error, as they changed nothing', () => {
    const outcome = replayFileOperations(
      initial,
      run(
        [
          ['list_directory', { path: `${root}/docs` }],
          ['write_file', { path: `${root}/../escape.txt`, content: 'x' }],
          ['move_file', { source: `${root}/docs/a.txt`, destination: `${root}/docs/b.txt` }],
        ],
        [
          '[FILE] a.txt',
          'Error: Access denied - path outside allowed directories',
          'Error: Destination exists',
        ],
      ),
    );
    if ('problem' in outcome) throw new Error(outcome.problem);
    expect(outcome.applied).toBe(0);
    expect([...outcome.state.files.keys()].sort()).toEqual([...initial.keys()].sort());
  });

  it('refuses what it cannot redo exactly: unknown tools, inexact edits, an unknown root', () => {
    expect(
      replayFileOperations(initial, run([['delete_everything', { path: `${root}/x` }]])),
    ).toEqual({
      problem: 'cannot replay tool delete_everything (call c0)',
    });
    const inexact = replayFileOperations(
      initial,
      run([
        [
          'edit_file',
          { path: `${root}/README.md`, edits: [{ oldText: '  old line', newText: 'x' }] },
        ],
      ]),
    );
    expect(inexact).toEqual({
      problem: 'call c0 (edit_file): edits.0: oldText is not in the file exactly',
    });
    expect(
      replayFileOperations(
        initial,
        run([['write_file', { path: '/elsewhere/n.txt', content: '' }]]),
      ),
    ).toEqual({
      problem: 'cannot tell which folder the agent worked in',
    });
  });

  it('finds the root from list_allowed_directories when no path names a known file', () => {
    const outcome = replayFileOperations(
      initial,
      run(
        [
          ['list_allowed_directories', {}],
          ['write_file', { path: `${root}/new.txt`, content: 'n' }],
        ],
        [`Allowed directories:\n${root}`],
      ),
    );
    if ('problem' in outcome) throw new Error(outcome.problem);
    expect(text(outcome.state.files, 'new.txt')).toBe('n');
  });
});
