/**
 * A prompt cache for the fake Anthropic route that behaves like the real one as far as a bill
 * can tell: the prompt is read as blocks in the API's prefix order (tools, system, messages),
 * each `cache_control` block ends a prefix, a prefix seen before (same bytes up to that block)
 * is read from the cache, and the prefixes after it are written. Tokens are counted as
 * characters / 4, so the test can compute the price the engine must store.
 */

/** What one request cost in cache terms, and which prefix it read. */
export interface FakeCacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** The prompt text read from the cache ('' when none). */
  readText: string;
}

type Block = { cache_control?: unknown } & Record<string, unknown>;

const tokens = (text: string) => Math.ceil(text.length / 4);

function blocksOf(body: Record<string, unknown>): Block[] {
  const blocks: Block[] = [];
  for (const tool of (body.tools as Block[] | undefined) ?? []) blocks.push(tool);
  const system = body.system;
  if (typeof system === 'string') blocks.push({ type: 'text', text: system });
  else for (const block of (system as Block[] | undefined) ?? []) blocks.push(block);
  for (const message of (body.messages as { role: string; content: unknown }[]) ?? []) {
    const content =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : (message.content as Block[]);
    content.forEach((block, index) =>
      blocks.push({ ...block, role: index === 0 ? message.role : undefined }),
    );
  }
  return blocks;
}

/** Serialises a block without its cache marker (the marker is not part of the cached bytes). */
function text(block: Block): string {
  const { cache_control: _marker, ...rest } = block;
  return JSON.stringify(rest);
}

/** A cache shared by every request of one fake server. */
export function createFakePromptCache() {
  const stored = new Set<string>();
  return {
    /** Looks the request up, stores its new prefixes and reports its usage. */
    use(body: Record<string, unknown>): FakeCacheUsage {
      const blocks = blocksOf(body);
      let prefix = '';
      const ends: string[] = [];
      for (const block of blocks) {
        prefix += text(block);
        if (block.cache_control) ends.push(prefix);
      }
      const total = tokens(prefix);
      const hit = ends.filter((end) => stored.has(end)).at(-1) ?? '';
      const last = ends.at(-1) ?? '';
      const written = last.length > hit.length ? tokens(last) - tokens(hit) : 0;
      for (const end of ends) stored.add(end);
      return {
        input_tokens: total - tokens(hit) - written,
        cache_creation_input_tokens: written,
        cache_read_input_tokens: tokens(hit),
        readText: hit,
      };
    },
  };
}
