-- Organizations are never deleted: every running instance remembers which organization a public id names once it has
-- read it (organization-directory.ts), and 0005 refuses a change of public_id for the same reason. A deleted
-- organization re-created under the same public id would get a new id, and an instance that still remembered the old
-- one would answer every shopper of the new organization "no such cart" until it restarted. Nothing here deletes an
-- organization; this refuses a delete made by hand. An organization that must go (docs/operations.md) is removed with
-- every instance stopped, after dropping this trigger in the same transaction.
CREATE FUNCTION organizations_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'organizations are not deleted (running instances remember which organization a public id names)'
    USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER organizations_kept
  BEFORE DELETE ON organizations
  FOR EACH ROW
  EXECUTE FUNCTION organizations_kept();
