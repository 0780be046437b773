/**
 * The small readers behind `cuelab suite import`: visible tool-output cuts, Terminal-Bench's
 * keystroke lines, JSON error lines, the zip reader's refusals, and the three chat dialects.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  cutToolOutput,
  renderTrajectory,
  trajectoryPage,
} from '../../src/main/engine/judge/trajectory-render';
import { jsonErrorOffset } from '../../src/main/engine/suites/import/json-position';
import { convertMessages } from '../../src/main/engine/suites/import/messages';
import { sweBenchImage } from '../../src/main/engine/suites/import/swe-bench';
import { pythonStrings } from '../../src/main/engine/suites/import/terminal-bench';
import { readZip } from '../../src/main/engine/suites/import/zip';
import { readTomlScalars } from '../../src/main/engine/suites/import/toml';

describe('cutting long tool outputs', () => {
  it('keeps head and tail and says what was cut and how to change it', () => {
    const text = `${'a'.repeat(3000)}MIDDLE${'z'.repeat(3000)}`;
    const cut = cutToolOutput(text, 1000);
    expect(cut.startsWith('a'.repeat(600))).toBe(true);
    expect(cut.endsWith('z'.repeat(400))).toBe(true);
    expect(cut).not.toContain('MIDDLE');
    expect(cut).toContain(
      `[... ${text.length - 1000} characters of this tool output cut by CueLab (limit 1000`,
    );
    expect(cutToolOutput(text, null)).toBe(text);
    expect(cutToolOutput('short', 1000)).toBe('short');
  });

  it('cuts only tool results, never the agent or the task', () => {
    const long = 'x'.repeat(5000);
    const rendered = renderTrajectory(
      [
        { role: 'user', content: long },
        {
          role: 'assistant',
          content: long,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'bash', arguments: '{}' } }],
        },
        { role: 'tool', content: long, tool_call_id: 'c' },
      ],
      [],
      { toolOutputLimit: 500 },
    );
    const text = rendered.lines.join('\n');
    expect(text.split('cut by CueLab')).toHaveLength(2);
    expect(text).toContain(long); // user and assistant turns are whole
  });
});

describe('reading a cut tool output whole', () => {
  const pane = Array.from({ length: 300 }, (_, index) => `pane line ${index} ${'.'.repeat(40)}`);
  const oneLine = `${'q'.repeat(2500)}END`;
  const rendered = renderTrajectory(
    [
      { role: 'user', content: 'task' },
      {
        role: 'assistant',
        content: 'run',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{}' } }],
      },
      { role: 'tool', content: pane.join('\n'), tool_call_id: 'c1' },
      { role: 'tool', content: oneLine, tool_call_id: 'c2' },
    ],
    [],
    { toolOutputLimit: 500 },
  );
  const served = [...rendered.lines, ...rendered.pages];
  const ranges = [...rendered.lines.join('\n').matchAll(/whole output is lines (\d+)-(\d+)/g)].map(
    (match) => [Number(match[1]), Number(match[2])] as const,
  );

  it('names, in each cut, the lines after the trajectory that hold the whole output', () => {
    expect(ranges).toHaveLength(2);
    const [first, second] = ranges;
    expect(first![0]).toBeGreaterThan(rendered.lines.length);
    expect(served.slice(first![0] - 1, first![1])).toEqual(pane);
    // A one-line output is paged in pieces that join back to it.
    expect(served.slice(second![0] - 1, second![1]).join('')).toBe(oneLine);
    expect(rendered.pages[0]).toBe('### whole tool output (c1)');
  });

  it('serves a page of the whole output, and says where to read on when a page is full', () => {
    const [first] = ranges;
    const page = trajectoryPage(served, first![0] + 150, first![0] + 150);
    expect(page).toContain('pane line 150');
    const wide = Array.from({ length: 100 }, () => 'w'.repeat(1000));
    const capped = trajectoryPage(wide, 1, 100);
    expect(capped).toContain('read on with start_line=41');
    expect(capped).not.toContain(' 41 | ');
    expect(trajectoryPage(wide, 90, 100)).not.toContain('read on');
  });
});

describe('Terminal-Bench keystroke lines', () => {
  it('decodes Python list literals with both quote kinds and escapes', () => {
    expect(pythonStrings(`['ls -la', 'Enter']`)).toEqual(['ls -la', 'Enter']);
    expect(pythonStrings(`["source x && echo 'OK'", 'Enter']`)).toEqual([
      "source x && echo 'OK'",
      'Enter',
    ]);
    expect(pythonStrings(`['it\\'s \\x41\\n', 'C-d']`)).toEqual(["it's A\n", 'C-d']);
    expect(() => pythonStrings(`['open`)).toThrow(/not closed/);
    expect(() => pythonStrings('ls')).toThrow(/list of keystrokes/);
  });
});

describe('JSON error positions', () => {
  it('finds the first character that is not JSON', () => {
    expect(jsonErrorOffset('{"a": [1, 2]}')).toBeUndefined();
    const text = '{\n  "messages": [\n    oops\n]}';
    expect(jsonErrorOffset(text)).toBe(text.indexOf('oops'));
    expect(jsonErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonErrorOffset('[1] 2')).toBe(4);
  });
});

describe('the zip reader', () => {
  function zipOf(name: string, content: Buffer, method: 0 | 8): Buffer {
    const data = method === 8 ? deflateRawSync(content) : content;
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(0, 42);
    const directoryOffset = local.length + nameBytes.length + data.length;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(central.length + nameBytes.length, 12);
    end.writeUInt32LE(directoryOffset, 16);
    return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
  }

  it('reads stored and deflated entries', () => {
    for (const method of [0, 8] as const) {
      const [entry] = readZip(zipOf('header.json', Buffer.from('{"a":1}'), method));
      expect(entry?.name).toBe('header.json');
      expect(entry?.read().toString()).toBe('{"a":1}');
    }
  });

  it('refuses what is not a zip, and an entry that inflates past its stated size', () => {
    expect(() => readZip(Buffer.from('not a zip at all, just some text here'))).toThrow(
      /not a zip archive/,
    );
    const bomb = zipOf('samples/1.json', Buffer.alloc(100_000), 8);
    bomb.writeUInt32LE(10, bomb.length - 22 - 46 - 'samples/1.json'.length + 24); // claim 10 bytes
    const [entry] = readZip(bomb);
    expect(() => entry?.read()).toThrow(/cannot be inflated/);
  });
});

describe('chat dialects', () => {
  it('reads OpenAI Responses items as tool calls and results', () => {
    const messages = convertMessages(
      [
        { role: 'user', content: 'do it' },
        { type: 'reasoning', summary: [] },
        { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
        { type: 'function_call_output', call_id: 'c1', output: 'hello' },
      ],
      'messages.json',
    );
    expect(messages).toEqual([
      { role: 'user', content: 'do it' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a"}' },
          },
        ],
      },
      { role: 'tool', content: 'hello', tool_call_id: 'c1' },
    ]);
  });

  it("unwraps an MCP server's whole CallToolResult, marking the calls it flagged failed", () => {
    // Shaped as real MCPMark runs hold them: a text block whose text is the CallToolResult
    // (postgres-mcp), a list of text blocks, and a chat-dialect tool message (Supabase's server).
    const result = (text: string, isError: boolean) =>
      JSON.stringify({ meta: null, content: [{ type: 'text', text }], isError });
    const wrapped = (text: string) => JSON.stringify({ type: 'text', text });
    const messages = convertMessages(
      [
        { role: 'user', content: 'do it' },
        { type: 'function_call', call_id: 'c1', name: 'execute_sql', arguments: '{}' },
        {
          type: 'function_call_output',
          call_id: 'c1',
          output: wrapped(result('No results', false)),
        },
        { type: 'function_call', call_id: 'c2', name: 'execute_sql', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c2', output: wrapped(result('bad SQL', true)) },
        { type: 'function_call', call_id: 'c3', name: 'push_files', arguments: '{}' },
        {
          type: 'function_call_output',
          call_id: 'c3',
          output: JSON.stringify([{ type: 'text', text: 'pushed' }]),
        },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c4', function: { name: 'q' } }] },
        { role: 'tool', tool_call_id: 'c4', content: result('Error: denied', true) },
        { role: 'tool', tool_call_id: 'c5', content: '{"content": [], "note": "plain JSON"}' },
      ],
      'messages.json',
    );
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'No results',
      'Error: bad SQL',
      'pushed',
      'Error: denied',
      '{"content": [], "note": "plain JSON"}',
    ]);
  });

  it('names the message whose role is unknown', () => {
    expect(() => convertMessages([{ role: 'robot', content: 'x' }], 'm.json')).toThrow(
      /m\.json: messages\.0: role: "robot"/,
    );
  });

  it('names SWE-bench images as the harness publishes them', () => {
    expect(sweBenchImage('astropy__astropy-12907')).toBe(
      'swebench/sweb.eval.x86_64.astropy_1776_astropy-12907:latest',
    );
  });
});

describe('the task.toml reader', () => {
  it('reads scalars under their tables and skips what it does not read', () => {
    const values = readTomlScalars(
      [
        'version = "1.0"',
        '[environment]',
        'docker_image = "alexgshaw/a:20251031" # prebuilt',
        "workdir = 'C:\\literal'",
        'cpus = 1_0',
        'allow_internet = false',
        'mcp_servers = []',
        '[[steps]]',
        'name = "not read"',
        '[verifier.env]',
        'KEY = "a\\"b"',
      ].join('\n'),
    );
    expect(Object.fromEntries(values)).toEqual({
      version: '1.0',
      'environment.docker_image': 'alexgshaw/a:20251031',
      'environment.workdir': 'C:\\literal',
      'environment.cpus': 10,
      'environment.allow_internet': false,
      'verifier.env.KEY': 'a"b',
    });
  });
});
