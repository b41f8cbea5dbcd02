import type { BrokerModel } from '@/lib/brokers/schema';

// The Results page's words: the system's own (its declared `results`), never another system's
// statuses. Without a declaration the page names none.

export interface ResultsWords {
  /** Under the title: what the list is. */
  does: string;
  /** The status box's placeholder. */
  placeholder: string;
  /** Under the filter: what is shown and which statuses the filter takes; null without a declaration. */
  note: string | null;
}

export function resultsWords(decl: BrokerModel['results'] | undefined, status: string | undefined): ResultsWords {
  if (!decl) return { does: 'Stored results, as this system keeps them.', placeholder: 'a status', note: null };
  return {
    does: decl.does,
    placeholder: decl.statuses[0] ? `e.g. ${decl.statuses[0]}` : decl.all,
    note: `${status ? `Only ${status}; ` : `Showing ${decl.all}; `}a status is one of ${decl.statuses.join(', ')}.`,
  };
}
