/** What part of the set a list covers when it is not all of it: a text search bounded to the
 *  newest rows, or the adapter's own words (`Page.window`). Plain text, never markup. */
export function ListScope({ pages, noun }: { pages: Array<{ searchedNewest?: number; window?: string }> | undefined; noun: string }) {
  // The newest page says what the latest read covered.
  const last = pages?.[pages.length - 1];
  const searched = pages?.find((p) => p.searchedNewest !== undefined)?.searchedNewest;
  const notes = [
    searched !== undefined
      ? `This search looks at no more than the newest ${searched.toLocaleString('en-US')} ${noun}: older ones may not be listed.`
      : null,
    last?.window ?? null,
  ];
  return <ScopeNote notes={notes} testId="list-scope" />;
}

/** Notes on what part of the set a view covers (the adapter's words), in the list's scope style;
 *  nothing when there are none. Plain text, never markup. */
export function ScopeNote({ notes, testId }: { notes: Array<string | null | undefined>; testId: string }) {
  const shown = notes.filter((x): x is string => !!x);
  if (shown.length === 0) return null;
  return (
    <div
      role="note"
      data-testid={testId}
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
    >
      {shown.map((n) => (
        <p key={n} className="break-words">
          {n}
        </p>
      ))}
    </div>
  );
}
