-- Reserved: this number belongs to a migration of a branch being built in parallel (the refunds branch was given 0017).
-- It lets this branch's migrations run 1, 2, 3… on its own; delete this file when that branch's migration is merged.
SELECT 1;
