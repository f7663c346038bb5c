/**
 * The answers of GET carts/{token}, kept in this instance's memory so that a read costs no database round trip.
 *
 * A view is kept with tags naming the rows it is made of (its cart, customer, offers, lines, discount code and
 * organization) and the moment it stops being true by the clock alone (the cart expires, the code's window opens or
 * closes). Every write to those rows sends the tag on the database channel `cart_view_changes` when it commits
 * (triggers of migration 0004); each instance LISTENs there and drops the views carrying it. The instance that made a
 * change also hears it at once after its COMMIT (Database.announce), before it answers.
 *
 * A read that missed starts a fill with a ticket and keeps the view it read only if no change to any of its tags
 * was heard since the ticket: a change committed while the view was being read would otherwise be lost under it.
 * While the listening connection is down nothing is served or kept, and everything kept is forgotten.
 *
 * Another instance sees a change when its notice arrives: normally within a millisecond of the COMMIT, not before.
 * Orders never read this cache (they lock and read the cart), so no amount is ever taken from it.
 */

export const CART_VIEW_CHANNEL = 'cart_view_changes';

/** Everything changed (a TRUNCATE, a lost listening connection). */
const EVERYTHING = '*';

/** How many recent change notices a fill is checked against; a fill that took longer than this many is not kept. */
const RECENT_CHANGES = 4096;

export interface CartViewToKeep {
  /** the answer, as sent */
  json: string;
  /** the rows it is made of, as the triggers name them: c:<cart>, u:<customer>, f:<offer>, l:<line>, d:<code>, o:<org> */
  tags: readonly string[];
  /** when the clock alone makes it untrue (epoch milliseconds) */
  validUntil: number;
}

interface Entry extends CartViewToKeep {
  key: string;
}

export interface CartViewCacheStats {
  hits: number;
  misses: number;
  /** views kept after a miss */
  kept: number;
  /** views read after a miss but not kept: something they are made of changed meanwhile, or not listening */
  refused: number;
  /** views dropped by a change notice */
  dropped: number;
  /** views dropped to make room */
  evicted: number;
  size: number;
}

export interface CartViewCache {
  /** The kept answer for this organization's cart token, if it is still true at `now`. */
  get(organizationId: number, token: string, now: number): string | null;
  /** Call before reading a view from the database; give the ticket to keep(). */
  ticket(): number;
  /** Keeps a view read since `ticket` unless a change to it was heard meanwhile. Answers whether it was kept. */
  keep(ticket: number, organizationId: number, token: string, view: CartViewToKeep): boolean;
  /** A change notice: a tag, or '*' for everything. */
  changed(tag: string): void;
  /** Whether change notices are being heard; false forgets everything and stops serving until true again. */
  setListening(listening: boolean): void;
  stats(): CartViewCacheStats;
}

export function createCartViewCache(options: { maxEntries: number }): CartViewCache {
  const entries = new Map<string, Entry>();
  const byTag = new Map<string, Set<Entry>>();
  // Change notices by sequence number, the last RECENT_CHANGES of them.
  const recent: string[] = new Array<string>(RECENT_CHANGES);
  let sequence = 0;
  let listening = false;
  const counts = { hits: 0, misses: 0, kept: 0, refused: 0, dropped: 0, evicted: 0 };

  const keyOf = (organizationId: number, token: string) => `${organizationId}:${token}`;

  function remove(entry: Entry): void {
    entries.delete(entry.key);
    for (const tag of entry.tags) {
      const set = byTag.get(tag);
      if (!set) continue;
      set.delete(entry);
      if (set.size === 0) byTag.delete(tag);
    }
  }

  function clear(): void {
    counts.dropped += entries.size;
    entries.clear();
    byTag.clear();
  }

  function record(tag: string): void {
    sequence++;
    recent[sequence % RECENT_CHANGES] = tag;
  }

  return {
    get(organizationId, token, now) {
      const entry = listening ? entries.get(keyOf(organizationId, token)) : undefined;
      if (!entry || entry.validUntil <= now) {
        if (entry) remove(entry);
        counts.misses++;
        return null;
      }
      // Most recently used last: the first entry is the one to evict.
      entries.delete(entry.key);
      entries.set(entry.key, entry);
      counts.hits++;
      return entry.json;
    },

    ticket() {
      return sequence;
    },

    keep(ticket, organizationId, token, view) {
      const changedSince = sequence - ticket;
      let stale = !listening || changedSince >= RECENT_CHANGES;
      for (let n = ticket + 1; !stale && n <= sequence; n++) {
        const tag = recent[n % RECENT_CHANGES] as string;
        stale = tag === EVERYTHING || view.tags.includes(tag);
      }
      if (stale || options.maxEntries <= 0) {
        counts.refused++;
        return false;
      }
      const key = keyOf(organizationId, token);
      const previous = entries.get(key);
      if (previous) remove(previous);
      const entry: Entry = {
        key,
        json: view.json,
        tags: [...new Set(view.tags)],
        validUntil: view.validUntil,
      };
      entries.set(key, entry);
      for (const tag of entry.tags) {
        let set = byTag.get(tag);
        if (!set) byTag.set(tag, (set = new Set()));
        set.add(entry);
      }
      while (entries.size > options.maxEntries) {
        const oldest = entries.values().next().value as Entry;
        remove(oldest);
        counts.evicted++;
      }
      counts.kept++;
      return true;
    },

    changed(tag) {
      record(tag);
      if (tag === EVERYTHING) {
        clear();
        return;
      }
      const set = byTag.get(tag);
      if (!set) return;
      for (const entry of [...set]) {
        remove(entry);
        counts.dropped++;
      }
    },

    setListening(on) {
      // Either way a fill under way may have missed a notice: the sequence moves past it.
      record(EVERYTHING);
      clear();
      listening = on;
    },

    stats() {
      return { ...counts, size: entries.size };
    },
  };
}
