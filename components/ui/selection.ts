'use client';
import { useCallback, useMemo, useState } from 'react';

/** Selected ids of a list; ids that leave the list (finished, replayed) drop out of `selected`. */
export function useSelection(visibleIds: string[]) {
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const selected = useMemo(() => visibleIds.filter((id) => picked.has(id)), [visibleIds, picked]);
  const toggle = useCallback((id: string) => {
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const allOn = visibleIds.length > 0 && selected.length === visibleIds.length;
  const toggleAll = useCallback(() => setPicked(allOn ? new Set() : new Set(visibleIds)), [allOn, visibleIds]);
  const clear = useCallback(() => setPicked(new Set()), []);
  return { selected, isOn: (id: string) => picked.has(id), toggle, toggleAll, allOn, clear };
}
