-- Per-environment Site settings and outbound host allowlists for Workflows; messages logged during a call.

ALTER TABLE sites ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE sites ADD COLUMN outbound_hosts TEXT NOT NULL DEFAULT 'null';
ALTER TABLE activity_logs ADD COLUMN messages TEXT NOT NULL DEFAULT '[]';
