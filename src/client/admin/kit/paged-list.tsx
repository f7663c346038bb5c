// A merchant list, a page at a time (docs/api.md, "Lists": ?limit=&starting_after=): the pages seen are kept as the
// cursors that opened them, so "Previous" goes back exactly.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '../../ui/button.js';
import { useAnnounce } from '../../ui/live-region.js';

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

export const PAGE_SIZE = 25;

/**
 * One page of a list. `key` names the list and its filters: a new key starts again at the first page.
 * `fetchPage` gets the cursor (the id after which the page starts) or undefined for the first page.
 */
export function usePagedList<T>(
  key: readonly unknown[],
  fetchPage: (startingAfter: number | undefined) => Promise<Page<T>>,
  idOf: (item: T) => number,
) {
  const keyText = JSON.stringify(key);
  const [cursors, setCursors] = useState<{ key: string; stack: (number | undefined)[] }>({
    key: keyText,
    stack: [undefined],
  });
  const stack = cursors.key === keyText ? cursors.stack : [undefined];
  const cursor = stack[stack.length - 1];
  const query = useQuery({
    queryKey: [...key, { starting_after: cursor ?? null }],
    queryFn: () => fetchPage(cursor),
    placeholderData: keepPreviousData,
  });
  const items = query.data?.data ?? [];
  const last = items[items.length - 1];
  return {
    query,
    items,
    pageNumber: stack.length,
    hasPrevious: stack.length > 1,
    hasNext: Boolean(query.data?.has_more && last !== undefined),
    next: () => {
      if (last !== undefined) setCursors({ key: keyText, stack: [...stack, idOf(last)] });
    },
    previous: () => setCursors({ key: keyText, stack: stack.slice(0, -1) }),
  };
}

/** Previous and next buttons under a list; the new page is announced. */
export function Pager(props: {
  label: string;
  list: {
    pageNumber: number;
    hasPrevious: boolean;
    hasNext: boolean;
    next: () => void;
    previous: () => void;
  };
}) {
  const { list } = props;
  const announce = useAnnounce();
  const [moved, setMoved] = useState(false);
  useEffect(() => {
    if (moved) announce(`${props.label}, page ${list.pageNumber}`);
  }, [moved, list.pageNumber, props.label, announce]);
  if (!list.hasPrevious && !list.hasNext) return null;
  return (
    <nav className="admin-pager" aria-label={`${props.label} pages`}>
      <Button
        variant="secondary"
        disabled={!list.hasPrevious}
        onClick={() => {
          setMoved(true);
          list.previous();
        }}
      >
        Previous page
      </Button>
      <span>Page {list.pageNumber}</span>
      <Button
        variant="secondary"
        disabled={!list.hasNext}
        onClick={() => {
          setMoved(true);
          list.next();
        }}
      >
        Next page
      </Button>
    </nav>
  );
}
