import 'server-only';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

// Reading kombu's messages without shipping their bodies. LRANGE and HGET return whole items, so
// a 10 MB message would cross the network and be parsed on every poll. This script runs next to
// the data: items up to `whole` bytes come back as they are; a larger one laid out as kombu
// writes it (`{"body": "<base64>", "content-encoding": ..., "headers": ..., "properties": ...}`,
// or `[{"body": ...}, exchange, routing_key]` in `unacked`) comes back with its body cut out
// (`{"body": ""...}`) plus the first `prefix` bytes; anything else only its first `head` bytes.
// Every item's size comes back too. A call stops after `budget` bytes of items (at least one), so
// no single call holds Redis for long.
const READ_ITEMS = `
local mode = ARGV[1]
local from = tonumber(ARGV[2])
local count = tonumber(ARGV[3])
local budget = tonumber(ARGV[4])
local whole = tonumber(ARGV[5])
local headMax = tonumber(ARGV[6])
local pre = tonumber(ARGV[7])
local out = {}
local used = 0
for i = 0, count - 1 do
  if i > 0 and used >= budget then break end
  local v, f
  if mode == 'l' then
    f = ''
    v = redis.call('LINDEX', KEYS[1], -(from + i + 1))
    if not v then break end
  else
    f = ARGV[8 + from + i]
    if not f then break end
    v = redis.call('HGET', KEYS[1], f)
  end
  if v then
    local n = #v
    used = used + n
    local kind, text, prefix = 'w', v, ''
    if n > whole then
      kind, text = 'p', string.sub(v, 1, headMax)
      local at = nil
      if string.sub(v, 1, 10) == '{"body": "' then at = 11 elseif string.sub(v, 1, 11) == '[{"body": "' then at = 12 end
      if at then
        local j = at
        while true do
          local q = string.find(v, '"', j, true)
          if not q then break end
          local b = q - 1
          while b >= at and string.byte(v, b) == 92 do b = b - 1 end
          if (q - 1 - b) % 2 == 0 then
            if n - q <= headMax then
              kind, text = 'h', string.sub(v, 1, at - 1) .. '"' .. string.sub(v, q + 1)
              prefix = string.sub(v, 1, pre)
            end
            break
          end
          j = q + 1
        end
      end
    end
    out[#out + 1] = {f, n, kind, text, prefix}
  else
    out[#out + 1] = {f, -1, 'x', '', ''}
  end
end
return out
`;

/** How much of each item one read takes (bytes). */
export interface ReadShape {
  /** Items up to this size come back whole. */
  whole: number;
  /** A larger item's envelope without its body, up to this size; else its first `head` bytes. */
  head: number;
  /** With a cut envelope: the item's first bytes, this many (the raw text a page shows). */
  prefix: number;
}

/** One item as read: `w` whole, `h` envelope without its body, `p` a prefix; `x` gone (hash). */
export interface RawItem {
  field: string;
  /** The whole item's size in bytes. */
  size: number;
  kind: 'w' | 'h' | 'p' | 'x';
  /** The whole item (exact bytes), the cut envelope, or the prefix. */
  text: Buffer;
  /** With `h`: the item's first `prefix` bytes. */
  prefix: Buffer;
}

/** What the reads of one adapter cost: script calls, item bytes Redis read, bytes sent back. */
export interface ReadStats {
  calls: number;
  touched: number;
  received: number;
  /** Characters handed to a JSON parser (headers, and bodies where decoded). */
  parsed: number;
}

export const newReadStats = (): ReadStats => ({ calls: 0, touched: 0, received: 0, parsed: 0 });

const SHA = createHash('sha1').update(READ_ITEMS).digest('hex');

/** EVALSHA, loading the script once a server answers NOSCRIPT (new, restarted or flushed). */
async function run(client: Redis, key: string, args: string[]): Promise<unknown> {
  try {
    return await client.callBuffer('EVALSHA', [SHA, '1', key, ...args]);
  } catch (e) {
    if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
    return client.callBuffer('EVAL', [READ_ITEMS, '1', key, ...args]);
  }
}

function toItems(reply: unknown, stats: ReadStats): RawItem[] {
  const rows = Array.isArray(reply) ? (reply as unknown[][]) : [];
  stats.calls += 1;
  return rows.map((r) => {
    const [f, n, kind, text, prefix] = r as [Buffer, number, Buffer, Buffer, Buffer];
    const item: RawItem = { field: f.toString('utf8'), size: Number(n), kind: kind.toString() as RawItem['kind'], text, prefix };
    if (item.size > 0) stats.touched += item.size;
    stats.received += text.length + prefix.length;
    return item;
  });
}

/** Items `from ..` of a list counted from its right end (0 = the next a worker takes). */
export async function readListItems(
  client: Redis,
  stats: ReadStats,
  key: string,
  from: number,
  count: number,
  budget: number,
  shape: ReadShape,
): Promise<RawItem[]> {
  const args = ['l', from, count, Math.max(1, budget), shape.whole, shape.head, shape.prefix].map(String);
  return toItems(await run(client, key, args), stats);
}

/** The entries of `fields` in a hash (kombu's `unacked`), `from` on; a field gone comes back `x`. */
export async function readHashItems(
  client: Redis,
  stats: ReadStats,
  key: string,
  fields: string[],
  budget: number,
  shape: ReadShape,
): Promise<RawItem[]> {
  if (!fields.length) return [];
  const args = ['h', 0, fields.length, Math.max(1, budget), shape.whole, shape.head, shape.prefix].map(String);
  return toItems(await run(client, key, [...args, ...fields]), stats);
}
