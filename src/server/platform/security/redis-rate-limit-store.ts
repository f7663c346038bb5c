import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { findBrokenRules, type Bucket, type RateLimitStore } from './rate-limit-store.js';

// A bucket is a sorted set of events scored by time. Each script runs atomically in Redis, so the check and the
// record are one step for every server instance; keys expire a window after their last event.
const CONSUME_SCRIPT = `
local p = cjson.decode(ARGV[1])
local now = p.now
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - p.windows[i])
end
local broken = false
for _, rule in ipairs(p.rules) do
  local total = 0
  for _, k in ipairs(rule.keys) do total = total + redis.call('ZCARD', KEYS[k]) end
  if total >= rule.limit then broken = true end
end
if broken then
  local times = {}
  for i, key in ipairs(KEYS) do
    local flat = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
    local list = {}
    for j = 2, #flat, 2 do list[#list + 1] = tonumber(flat[j]) end
    times[i] = list
  end
  return cjson.encode(times)
end
for _, k in ipairs(p.add) do
  redis.call('ZADD', KEYS[k], now, p.member)
  redis.call('PEXPIRE', KEYS[k], p.windows[k])
end
return 'ok'
`;

const RECORD_SCRIPT = `
local p = cjson.decode(ARGV[1])
for _, a in ipairs(p.add) do
  redis.call('ZADD', KEYS[a.k], p.now, p.member)
  redis.call('PEXPIRE', KEYS[a.k], a.w)
end
for _, r in ipairs(p.release) do
  redis.call('ZREMRANGEBYSCORE', KEYS[r.k], '-inf', p.now - r.w)
  redis.call('ZPOPMIN', KEYS[r.k], 1)
end
return 'ok'
`;

/** Rate-limit events in Redis (REDIS_URL): one sorted set per bucket under `keyPrefix`. */
export function createRedisRateLimitStore(options: {
  url: string;
  keyPrefix: string;
  logger: Logger;
}): RateLimitStore {
  const redis = new Redis(options.url, {
    // A slow or absent Redis must not hold requests: while it is unreachable commands fail at once (no offline
    // queue), a reply slower than a second fails, and the limiter decides what a failure means.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
  });
  let reportedDown = false;
  redis.on('error', (error: Error) => {
    if (reportedDown) return;
    reportedDown = true;
    options.logger.error({ err: error }, 'rate-limit store: Redis is not reachable');
  });
  redis.on('ready', () => {
    reportedDown = false;
  });

  const key = (bucket: Bucket) => `${options.keyPrefix}rate:${bucket.name}`;

  // Commands sent while the first connection is being made wait for it (up to connectTimeout); after that, a
  // command finds Redis ready or fails at once.
  const firstConnection = new Promise<void>((resolve) => {
    redis.once('ready', () => resolve());
    redis.once('error', () => resolve());
    setTimeout(resolve, 2000).unref();
  });
  const connected = () => firstConnection;

  return {
    async consume({ rules, add, now }) {
      const keys: string[] = [];
      const windows: number[] = [];
      const indexOf = (bucket: Bucket): number => {
        const name = key(bucket);
        let index = keys.indexOf(name);
        if (index < 0) {
          index = keys.push(name) - 1;
          windows.push(bucket.windowMs);
        }
        return index + 1;
      };
      const payload = {
        now: now.getTime(),
        member: `${now.getTime()}:${randomUUID()}`,
        rules: rules.map((rule) => ({ keys: rule.buckets.map(indexOf), limit: rule.limit })),
        add: add.map(indexOf),
        windows,
      };
      await connected();
      const answer = await redis.eval(CONSUME_SCRIPT, keys.length, ...keys, JSON.stringify(payload));
      if (answer === 'ok') return { ok: true };
      // One list of event times per key, in KEYS order; cjson writes an empty list as {}.
      const parsed = JSON.parse(String(answer)) as unknown[];
      const times = (bucket: Bucket): number[] => {
        const entry = parsed[keys.indexOf(key(bucket))];
        return Array.isArray(entry) ? (entry as number[]) : [];
      };
      const broken = findBrokenRules(rules, times, now.getTime());
      // The script and this reading agree on what counts; an empty list would mean they drifted apart.
      if (broken.length === 0) throw new Error('rate-limit store: Redis refused an event no rule refuses');
      return { ok: false, broken };
    },

    async record({ add, release, now }) {
      const keys = [...add, ...release].map(key);
      if (keys.length === 0) return;
      const payload = {
        now: now.getTime(),
        member: `${now.getTime()}:${randomUUID()}`,
        add: add.map((bucket, index) => ({ k: index + 1, w: bucket.windowMs })),
        release: release.map((bucket, index) => ({ k: add.length + index + 1, w: bucket.windowMs })),
      };
      await connected();
      await redis.eval(RECORD_SCRIPT, keys.length, ...keys, JSON.stringify(payload));
    },

    async close() {
      // quit() waits for pending replies; a client that is not connected has none to wait for.
      if (redis.status !== 'ready') {
        redis.disconnect();
        return;
      }
      await redis.quit();
    },
  };
}
