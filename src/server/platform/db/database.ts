/** What repositories need from a database: parameterised SQL, on its own or inside a transaction. */
export interface Queryable {
  /**
   * Inside a transaction, statements sent without waiting for the answers ahead of them run one after the other in
   * the order sent (PostgreSQL's connection sends them together: one round trip), so a read sent with a lock is made
   * once the lock is held. Outside a transaction each may go to a connection of its own.
   */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Tells this process's listeners of `channel` (see Database.listen) the payload once the work done here is
   * committed: at once outside a transaction, after COMMIT inside one, never if it rolls back. The database's own
   * NOTIFY reaches the other instances; this makes the instance that made the change see it before it answers.
   * On PostgreSQL a transaction that announces is taken to have notified, and commits past the notify lock
   * (commitPastNotifyLock in postgres.ts).
   */
  announce(channel: string, payload: string): void;
}

/** What a subscription to a notification channel hears. */
export interface ChannelListener {
  /** a NOTIFY payload, or an announce()d one of this process */
  message(payload: string): void;
  /**
   * false when notifications may have been missed (the listening connection was lost): forget whatever they
   * would have invalidated; true again once listening resumed.
   */
  listening(listening: boolean): void;
}

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /**
   * Runs fn in one transaction (READ COMMITTED). Commits when fn resolves, rolls back when it throws.
   * On PostgreSQL a serialization failure or deadlock is retried a few times; fn must therefore be safe to re-run.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel` for notifications sent by any session (triggers' pg_notify) on a connection of its own,
   * which comes back after it is lost. Resolves once listening; the answer stops it.
   */
  listen(channel: string, listener: ChannelListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** PostgreSQL error codes the services react to. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_SERIALIZATION_FAILURE = '40001';
export const PG_DEADLOCK_DETECTED = '40P01';

/** A statement that lost a deadlock or a serialization conflict: running its transaction again may succeed. */
export function isRetryable(error: unknown): boolean {
  const code = pgErrorCode(error);
  return code === PG_SERIALIZATION_FAILURE || code === PG_DEADLOCK_DETECTED;
}

export function pgErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** A channel name safe to write into LISTEN: lower-case letters, digits and underscores. */
export function checkChannelName(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  return channel;
}

/** The listeners of this process by channel, to which announce() delivers. */
export function createLocalChannels() {
  const byChannel = new Map<string, Set<ChannelListener>>();
  return {
    subscribe(channel: string, listener: ChannelListener): () => void {
      let set = byChannel.get(channel);
      if (!set) byChannel.set(channel, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    deliver(channel: string, payload: string): void {
      for (const listener of byChannel.get(channel) ?? []) listener.message(payload);
    },
  };
}

type LocalChannels = ReturnType<typeof createLocalChannels>;
type PendingAnnouncements = ReturnType<typeof createPendingAnnouncements>;

/** Announcements made inside a transaction, delivered when (and only if) it commits. */
export function createPendingAnnouncements(channels: LocalChannels) {
  const pending: [string, string][] = [];
  return {
    add(channel: string, payload: string): void {
      pending.push([channel, payload]);
    },
    get count(): number {
      return pending.length;
    },
    deliver(): void {
      for (const [channel, payload] of pending) channels.deliver(channel, payload);
    },
  };
}

/** Queryable.announce of work inside the transaction of `pending`, or outside any (null: delivered at once). */
export function announcer(
  channels: LocalChannels,
  pending: PendingAnnouncements | null,
): Queryable['announce'] {
  return (channel, payload) => {
    if (pending) pending.add(channel, payload);
    else channels.deliver(channel, payload);
  };
}
