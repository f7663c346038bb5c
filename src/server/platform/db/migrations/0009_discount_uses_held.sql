-- A code's uses held by payments in flight are counted apart from the uses of completed orders (docs/api.md,
-- "Orders"): a use is held while its order's payment runs, given back the moment it is declined, and counted in
-- usage_count only when the order completes. A shopper is told a code is used up only once completed orders have used
-- it up; while payments hold its last uses, the answer is 409 discount_code_held, to try again in a moment.
ALTER TABLE discount_codes ADD COLUMN held_count integer NOT NULL DEFAULT 0 CHECK (held_count >= 0);

-- The uses held so far were counted in usage_count: those of orders holding one that have not completed.
UPDATE discount_codes d
   SET held_count = least(h.n, d.usage_count), usage_count = d.usage_count - least(h.n, d.usage_count)
  FROM (SELECT organization_id, discount_code_id, count(*)::integer AS n FROM orders
         WHERE discount_reserved AND status <> 'complete' AND discount_code_id IS NOT NULL
         GROUP BY organization_id, discount_code_id) h
 WHERE d.organization_id = h.organization_id AND d.id = h.discount_code_id;

-- Still the last line of defence: uses used and held together never pass the limit (a completing order moves its use
-- from one to the other).
ALTER TABLE discount_codes DROP CONSTRAINT discount_codes_usage_within_limit;
ALTER TABLE discount_codes ADD CONSTRAINT discount_codes_usage_within_limit
  CHECK (usage_limit IS NULL OR usage_count + held_count <= usage_limit);
