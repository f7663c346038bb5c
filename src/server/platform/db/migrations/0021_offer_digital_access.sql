-- How a shopper reaches an item used online (an e-book, a course): its link and a line of instructions, given in the
-- order receipt (docs/emails.md). Null for items that are shipped or need nothing.
ALTER TABLE offers ADD COLUMN digital_access jsonb;
