-- Webhooks, event rules and the delivery outbox (src/events/). Change records (core_objectchange)
-- predate this file; the deliveries are written in the same transaction as the change records.

-- extras.webhook
CREATE TABLE extras_webhook (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  payload_url TEXT NOT NULL,
  http_method TEXT NOT NULL DEFAULT 'POST',
  http_content_type TEXT NOT NULL DEFAULT 'application/json',
  additional_headers TEXT NOT NULL DEFAULT '',
  body_template TEXT NOT NULL DEFAULT '',
  secret TEXT NOT NULL DEFAULT '',
  ssl_verification INTEGER NOT NULL DEFAULT 1,
  ca_file_path TEXT,
  object_types TEXT NOT NULL DEFAULT '[]',
  type_create INTEGER NOT NULL DEFAULT 0,
  type_update INTEGER NOT NULL DEFAULT 0,
  type_delete INTEGER NOT NULL DEFAULT 0,
  conditions TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- extras.eventrule
CREATE TABLE extras_eventrule (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  object_types TEXT NOT NULL DEFAULT '[]',
  event_types TEXT NOT NULL DEFAULT '[]',
  enabled INTEGER NOT NULL DEFAULT 1,
  conditions TEXT,
  action_type TEXT NOT NULL DEFAULT 'webhook',
  action_object_type TEXT,
  action_object_id INTEGER,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX extras_eventrule_action_object ON extras_eventrule(action_object_type, action_object_id);

-- extras.webhookdelivery
CREATE TABLE extras_webhookdelivery (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  webhook_id INTEGER REFERENCES extras_webhook(id) ON DELETE SET NULL,
  event_rule_id INTEGER REFERENCES extras_eventrule(id) ON DELETE SET NULL,
  event TEXT NOT NULL,
  object_type TEXT NOT NULL,
  object_id INTEGER NOT NULL,
  object_repr TEXT NOT NULL DEFAULT '',
  request_id TEXT NOT NULL,
  username TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'queued',
  attempts INTEGER NOT NULL DEFAULT 0,
  last_status_code INTEGER,
  response_excerpt TEXT NOT NULL DEFAULT '',
  error_log TEXT NOT NULL DEFAULT '',
  duration_ms INTEGER,
  started TEXT,
  finished TEXT,
  next_attempt TEXT,
  created TEXT,
  last_updated TEXT,
  uuid TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT '',
  prechange_data TEXT,
  postchange_data TEXT,
  run_attempts INTEGER NOT NULL DEFAULT 0,
  lease_until TEXT
);

CREATE INDEX extras_webhookdelivery_webhook_id ON extras_webhookdelivery(webhook_id);

CREATE INDEX extras_webhookdelivery_event_rule_id ON extras_webhookdelivery(event_rule_id);

-- The sweep looks for queued runs by their due time; the API filters by request.
CREATE INDEX extras_webhookdelivery_status ON extras_webhookdelivery(status, next_attempt);

CREATE INDEX extras_webhookdelivery_request_id ON extras_webhookdelivery(request_id);
