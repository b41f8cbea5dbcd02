import 'server-only';
import { getConfig } from '@/lib/config';
import { isConsoleError } from '@/lib/brokers/errors';
import { toConsoleError, withTimeout } from '@/lib/brokers/service';
import type { MovePreviewItem } from './schema';

/**
 * One preview item per distinct id: `read` it (bounded by the read timeout; null: `not <what>`
 * under `id`), then `fill` the item from what was read. A failure of either becomes the item's
 * problems (its fields, else its message under `id`); the other ids go on.
 */
export async function previewItems<T>(
  ids: string[],
  missing: string,
  read: (id: string) => Promise<T | null>,
  fill: (item: MovePreviewItem, value: T) => Promise<void>,
): Promise<MovePreviewItem[]> {
  const items: MovePreviewItem[] = [];
  for (const id of [...new Set(ids)]) {
    const item: MovePreviewItem = { id, source: null, job: null, problems: {}, notCarried: [], notes: [] };
    items.push(item);
    try {
      const value = await withTimeout('letter read', getConfig().timeouts.readMs, () => read(id));
      if (value === null) item.problems.id = missing;
      else await fill(item, value);
    } catch (e) {
      const err = isConsoleError(e) ? e : toConsoleError(e);
      item.problems = err.fields && Object.keys(err.fields).length ? { ...err.fields } : { id: err.message };
    }
  }
  return items;
}
