// `serialization._object_hook`, applied bottom-up like json's object_hook: a dict with exactly
// the keys `__potatoq__` and `v` and a known tag becomes the Python value when the decoder
// accepts `v`; otherwise it stays a plain dict (flagged here so the console can say why).
// One case escapes potatoq's try/except: `uuid.UUID(v)` with a non-string `v` raises
// AttributeError, and an unhashable tag raises TypeError; both make `loads` itself fail,
// so a worker cannot decode the payload at all (`crash`).
import type { JsonNode } from '@/lib/pyvalues/json';
import { constructTyped } from '@/lib/pyvalues/construct';
import { type PyVal, toPy } from '@/lib/pyvalues/pyval';
import type { ValueNote } from '@/lib/brokers/typed-value';

/** Why a dict that looks tagged reaches potatoq's workers as a plain dict. */
export type DictFlag = 'unknown-tag' | 'malformed-tag' | 'legacy-tag';

/** The flags in words, carried on the dict (`PyVal` `note`) to the console's typed value. */
export const TAG_NOTES: Record<DictFlag, ValueNote> = {
  'unknown-tag': {
    code: 'unknown-tag',
    label: 'unknown tag',
    why: 'A __potatoq__ tag this potatoq does not know (a newer producer?). Workers receive it as a plain dict.',
  },
  'malformed-tag': {
    code: 'malformed-tag',
    label: 'malformed tag',
    why: "A known tag whose value potatoq's decoder rejects. Workers receive it as a plain dict.",
  },
  'legacy-tag': {
    code: 'legacy-tag',
    label: 'written by an older potatoq',
    why: 'A {"__type__", "__value__"} value from an older potatoq. Today\'s workers receive it as a plain dict.',
  },
};

export interface TagDecode {
  value: PyVal;
  /** Python's exception text when `serialization.loads` would raise on this value. */
  crash: string | null;
  flags: Set<DictFlag>;
}

export const KNOWN_TAGS = new Set(['datetime', 'date', 'time', 'timedelta', 'uuid', 'decimal', 'bytes', 'set']);

/** `serialization.loads` after JSON parsing: JSON tree → Python value. */
export function decodeTags(node: JsonNode): TagDecode {
  const ctx: TagDecode = { value: { k: 'none' }, crash: null, flags: new Set() };
  ctx.value = toPy(node, (entries) => hook(entries, ctx));
  return ctx;
}

function hook(entries: Array<[string, PyVal]>, ctx: TagDecode): PyVal {
  if (entries.length !== 2) return { k: 'dict', entries };
  const tag = entries.find((e) => e[0] === '__potatoq__')?.[1];
  const v = entries.find((e) => e[0] === 'v')?.[1];
  if (tag === undefined || v === undefined) {
    if (entries.some((e) => e[0] === '__type__') && entries.some((e) => e[0] === '__value__')) {
      ctx.flags.add('legacy-tag');
      return { k: 'dict', entries, note: TAG_NOTES['legacy-tag'] };
    }
    return { k: 'dict', entries };
  }
  if (tag.k === 'list' || tag.k === 'dict' || tag.k === 'set') {
    ctx.crash ??= `unhashable type: '${tag.k}'`;
    ctx.flags.add('malformed-tag');
    return { k: 'dict', entries, note: TAG_NOTES['malformed-tag'] };
  }
  if (tag.k !== 'str' || !KNOWN_TAGS.has(tag.v)) {
    ctx.flags.add('unknown-tag');
    return { k: 'dict', entries, note: TAG_NOTES['unknown-tag'] };
  }
  const decoded = constructTyped(tag.v, v, ctx);
  if (decoded) return decoded;
  ctx.flags.add('malformed-tag');
  return { k: 'dict', entries, note: TAG_NOTES['malformed-tag'] };
}
