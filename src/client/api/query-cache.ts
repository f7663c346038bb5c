/**
 * The page's cache of server state: one entry per key with its data, its error and whether a fetch is running.
 * In-house instead of TanStack Query (docs/architecture.md): the page needs a handful of its features and the first
 * load has a budget. Concurrent fetches of a key share one request; data is kept `gcTimeMs` after its last reader
 * leaves; a cached answer is fresh until invalidated (the cart changes only through this page's own calls).
 */
export interface QuerySnapshot<T> {
  data: T | undefined;
  /** the last fetch's failure, null once a fetch is running again without data or one succeeded */
  error: unknown;
  isFetching: boolean;
}

export interface QueryCache {
  readonly gcTimeMs: number;
  getData<T>(key: string): T | undefined;
  setData<T>(key: string, data: T): void;
  /** Applies `update` to the cached data; nothing happens when there is none. */
  updateData<T>(key: string, update: (data: T) => T): void;
  getSnapshot<T>(key: string): QuerySnapshot<T>;
  /** Fetches now (sharing a fetch already running) and caches the answer; rejects with the fetch's error. */
  fetch<T>(key: string, fetcher: () => Promise<T>): Promise<T>;
  /** Fetches when there is no data or it was invalidated, unless a fetch is running; never rejects. */
  ensure<T>(key: string, fetcher: () => Promise<T>): Promise<void>;
  /** Marks the data stale and fetches again when someone reads it; resolves when that fetch settled. */
  invalidate(key: string): Promise<void>;
  subscribe(key: string, listener: () => void): () => void;
}

interface Entry {
  snapshot: QuerySnapshot<unknown>;
  fetcher: (() => Promise<unknown>) | null;
  running: Promise<unknown> | null;
  /** counts fetches, so an answer overtaken by a newer fetch is dropped */
  generation: number;
  stale: boolean;
  listeners: Set<() => void>;
  gcTimer: ReturnType<typeof setTimeout> | null;
}

const EMPTY: QuerySnapshot<never> = Object.freeze({ data: undefined, error: null, isFetching: false });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * `next`, reusing the parts of `previous` that are deeply equal (the whole of it when nothing changed), so an
 * answer equal to the cached one changes no reference and re-runs no effect.
 */
export function replaceEqualDeep<T>(previous: unknown, next: T): T {
  if (previous === next) return next;
  const arrays = Array.isArray(previous) && Array.isArray(next);
  if (!arrays && !(isPlainObject(previous) && isPlainObject(next))) return next;
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const keys = Object.keys(after);
  const copy: Record<string, unknown> = arrays ? (new Array(keys.length) as never) : {};
  let same = Object.keys(before).length === keys.length;
  for (const key of keys) {
    const value = replaceEqualDeep(before[key], after[key]);
    copy[key] = value;
    if (value !== before[key] || !(key in before)) same = false;
  }
  return same ? (previous as T) : (copy as T);
}

export function createQueryCache(options: { gcTimeMs: number }): QueryCache {
  const entries = new Map<string, Entry>();

  const entryOf = (key: string): Entry => {
    let entry = entries.get(key);
    if (!entry) {
      entry = {
        snapshot: EMPTY,
        fetcher: null,
        running: null,
        generation: 0,
        stale: false,
        listeners: new Set(),
        gcTimer: null,
      };
      entries.set(key, entry);
      scheduleGc(key, entry);
    }
    return entry;
  };

  function scheduleGc(key: string, entry: Entry): void {
    if (entry.gcTimer !== null) clearTimeout(entry.gcTimer);
    entry.gcTimer = setTimeout(() => {
      entry.gcTimer = null;
      if (entry.listeners.size > 0) return;
      // An entry is not dropped under a running fetch: its answer is looked for.
      if (entry.running) void entry.running.finally(() => scheduleGc(key, entry));
      else if (entries.get(key) === entry) entries.delete(key);
    }, options.gcTimeMs);
  }

  const publish = (entry: Entry, snapshot: QuerySnapshot<unknown>) => {
    entry.snapshot = snapshot;
    for (const listener of [...entry.listeners]) listener();
  };

  const write = (entry: Entry, data: unknown) => {
    const shared = replaceEqualDeep(entry.snapshot.data, data);
    entry.stale = false;
    publish(entry, { data: shared, error: null, isFetching: entry.running !== null });
  };

  function run(entry: Entry, fetcher: () => Promise<unknown>): Promise<unknown> {
    entry.fetcher = fetcher;
    const generation = ++entry.generation;
    const running = (async () => fetcher())().then(
      (data) => {
        if (generation !== entry.generation) return entry.running ?? entry.snapshot.data;
        entry.running = null;
        write(entry, data);
        return entry.snapshot.data;
      },
      (error: unknown) => {
        if (generation !== entry.generation) return entry.running ?? Promise.reject(error);
        entry.running = null;
        publish(entry, { data: entry.snapshot.data, error, isFetching: false });
        throw error;
      },
    );
    entry.running = running;
    const { data, error } = entry.snapshot;
    // Without data the query is loading again (no stale error shown meanwhile); with data it keeps both.
    publish(entry, { data, error: data === undefined ? null : error, isFetching: true });
    return running;
  }

  return {
    gcTimeMs: options.gcTimeMs,
    getData: <T>(key: string) => entries.get(key)?.snapshot.data as T | undefined,
    setData(key, data) {
      write(entryOf(key), data);
    },
    updateData<T>(key: string, update: (data: T) => T) {
      const entry = entries.get(key);
      if (!entry || entry.snapshot.data === undefined) return;
      write(entry, update(entry.snapshot.data as T));
    },
    getSnapshot: <T>(key: string) => (entries.get(key)?.snapshot ?? EMPTY) as QuerySnapshot<T>,
    fetch<T>(key: string, fetcher: () => Promise<T>): Promise<T> {
      const entry = entryOf(key);
      return (entry.running ?? run(entry, fetcher)) as Promise<T>;
    },
    async ensure(key, fetcher) {
      const entry = entryOf(key);
      entry.fetcher = fetcher;
      if (entry.running) return;
      if (entry.snapshot.data !== undefined && !entry.stale) return;
      await run(entry, fetcher).catch(() => undefined);
    },
    async invalidate(key) {
      const entry = entries.get(key);
      if (!entry) return;
      entry.stale = true;
      if (entry.listeners.size === 0 || !entry.fetcher) return;
      // A fetch already running may have left before the change: ask again.
      await run(entry, entry.fetcher).catch(() => undefined);
    },
    subscribe(key, listener) {
      const entry = entryOf(key);
      entry.listeners.add(listener);
      if (entry.gcTimer !== null) {
        clearTimeout(entry.gcTimer);
        entry.gcTimer = null;
      }
      return () => {
        entry.listeners.delete(listener);
        if (entry.listeners.size === 0) scheduleGc(key, entry);
      };
    },
  };
}
