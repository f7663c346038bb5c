-- An order's screen lists the webhook deliveries about it (GET merchant/webhook-deliveries?order_id=): the order
-- events name the order in their payload, so they are found by it without reading the store's every delivery.
CREATE INDEX webhook_deliveries_order ON webhook_deliveries
  (organization_id, ((payload->'data'->>'order_id')), id) WHERE event_type LIKE 'order.%';
