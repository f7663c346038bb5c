-- Every business table carries organization_id (docs/architecture.md), the handled processor events too. An event
-- about none of our orders (ignored, or its order not found) has no organization, so the column may be null.
ALTER TABLE processor_events ADD COLUMN organization_id bigint REFERENCES organizations (id);
