-- The last attempt's rendered request on each webhook delivery (method, URL, headers, body excerpt), secrets masked before storage.
-- extras.webhookdelivery.request_method
ALTER TABLE extras_webhookdelivery ADD COLUMN request_method TEXT NOT NULL DEFAULT '';

-- extras.webhookdelivery.request_url
ALTER TABLE extras_webhookdelivery ADD COLUMN request_url TEXT NOT NULL DEFAULT '';

-- extras.webhookdelivery.request_headers
ALTER TABLE extras_webhookdelivery ADD COLUMN request_headers TEXT;

-- extras.webhookdelivery.request_body
ALTER TABLE extras_webhookdelivery ADD COLUMN request_body TEXT NOT NULL DEFAULT '';

