-- Sites, Workflows and their revisions, releases, users, API keys, sessions and activity logs.
-- Times are milliseconds since the epoch; lists and objects are JSON text.

CREATE TABLE deployment (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  settings TEXT,
  -- Bumped by every change a gateway node must see; nodes compare it instead of reloading everything.
  configuration_version INTEGER NOT NULL
);
INSERT INTO deployment (id, settings, configuration_version) VALUES (1, NULL, 0);

CREATE TABLE sites (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  subdomain TEXT NOT NULL,
  region TEXT NOT NULL,
  allowed_origins TEXT NOT NULL,
  environments TEXT NOT NULL,
  release_management INTEGER NOT NULL,
  auth_methods TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX sites_name ON sites (lower(name));
CREATE UNIQUE INDEX sites_subdomain ON sites (subdomain);

CREATE TABLE workflows (
  id INTEGER PRIMARY KEY,
  site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  allow_overlap_with TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX workflows_site_name ON workflows (site_id, lower(name));

CREATE TABLE revisions (
  workflow_id INTEGER NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  method TEXT NOT NULL,
  template TEXT NOT NULL,
  variable_bar TEXT NOT NULL,
  code TEXT NOT NULL,
  code_path TEXT NOT NULL,
  limits TEXT NOT NULL,
  anonymous INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (workflow_id, number)
);

CREATE TABLE releases (
  workflow_id INTEGER NOT NULL,
  environment TEXT NOT NULL,
  revision INTEGER NOT NULL,
  released_at INTEGER NOT NULL,
  PRIMARY KEY (workflow_id, environment),
  FOREIGN KEY (workflow_id, revision) REFERENCES revisions (workflow_id, number) ON DELETE CASCADE
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  sites TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  environment TEXT NOT NULL,
  workflows TEXT NOT NULL,
  disabled INTEGER NOT NULL,
  primary_hash TEXT NOT NULL,
  secondary_hash TEXT,
  source TEXT NOT NULL CHECK (source IN ('file', 'cli')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX api_keys_site_name ON api_keys (site_id, name);
CREATE INDEX api_keys_primary_hash ON api_keys (primary_hash);
CREATE INDEX api_keys_secondary_hash ON api_keys (secondary_hash);

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);

-- Activity logs outlive the Sites and Workflows they name, so they hold names, not references.
CREATE TABLE activity_logs (
  id TEXT PRIMARY KEY,
  site TEXT NOT NULL,
  workflow TEXT NOT NULL,
  revision INTEGER NOT NULL,
  environment TEXT NOT NULL,
  method TEXT NOT NULL,
  url TEXT NOT NULL,
  principal TEXT,
  started_at INTEGER NOT NULL,
  initialisation_xml TEXT NOT NULL,
  finished_at INTEGER,
  status INTEGER,
  duration_ms INTEGER,
  error TEXT
);
CREATE INDEX activity_logs_started_at ON activity_logs (started_at);
CREATE INDEX activity_logs_site_workflow ON activity_logs (site, workflow, started_at);
