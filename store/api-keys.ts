// API keys made and managed on the command line (`flowgate keys`). The secret is made here, shown once, and stored
// only as its hash; every change bumps the configuration version, so each node sees it within seconds.

import { randomBytes } from "node:crypto";
import type { Database, SqlExecutor } from "./database";
import type { ApiKey } from "./model";
import { bumpConfigurationVersion } from "./queries/deployment";
import { deleteApiKey, insertApiKey, listApiKeys, updateApiKey } from "./queries/credentials";
import { listSites } from "./queries/sites";
import { listWorkflows } from "./queries/workflows";
import { StoreRefusal } from "./store-refusal";
import { hashApiKey } from "../plugins/flowgate/auth/secret-hash";

export interface NewApiKey {
  readonly site: string;
  readonly name: string;
  readonly environment: string;
  readonly workflows: "*" | readonly string[];
}

export type KeyChange = "rotate" | "retire-secondary" | "disable" | "enable" | "delete";

/** A new token: a prefix that says what it is, and 256 random bits. */
export function newApiKeyToken(): string {
  return `fg_${randomBytes(32).toString("base64url")}`;
}

export async function createApiKey(tx: SqlExecutor, dialect: Database["dialect"], key: NewApiKey, now: number): Promise<string> {
  const site = (await listSites(tx)).find((candidate) => candidate.name === key.site);
  if (!site) throw new StoreRefusal("not-found", `no Site "${key.site}"`);
  const environment = site.environments.find((name) => name.toLowerCase() === key.environment.toLowerCase());
  if (!environment) throw new StoreRefusal("not-found", `Site "${site.name}" has no environment "${key.environment}" (it has ${site.environments.join(", ")})`);
  if (key.workflows !== "*") {
    const known = (await listWorkflows(tx)).filter((workflow) => workflow.siteId === site.id).map((workflow) => workflow.name);
    const unknown = key.workflows.filter((workflow) => !known.includes(workflow));
    if (unknown.length) throw new StoreRefusal("not-found", `Site "${site.name}" has no Workflow ${unknown.map((name) => `"${name}"`).join(", ")}`);
  }
  if ((await listApiKeys(tx)).some((existing) => existing.site === site.name && existing.name === key.name)) {
    throw new StoreRefusal("conflict", `Site "${site.name}" has an API key named "${key.name}" already`);
  }
  const token = newApiKeyToken();
  await insertApiKey(tx, site.id, { ...key, site: site.name, environment, disabled: false, primaryHash: hashApiKey(token), secondaryHash: null }, "cli", now);
  await bumpConfigurationVersion(tx, dialect);
  return token;
}

/** Changes a command-line key; answers the new token when the change makes one (rotate). */
export async function changeApiKey(tx: SqlExecutor, dialect: Database["dialect"], site: string, name: string, change: KeyChange, now: number): Promise<string | null> {
  const key = (await listApiKeys(tx)).find((existing) => existing.site === site && existing.name === name);
  if (!key) throw new StoreRefusal("not-found", `Site "${site}" has no API key "${name}"`);
  if (key.source === "file") throw new StoreRefusal("conflict", `API key ${site}/${name} is owned by flowgate.yaml: change it there and apply the file`);
  let token: string | null = null;
  let updated: ApiKey = key;
  switch (change) {
    case "rotate":
      // The new token becomes primary; the old primary stays valid as secondary until it is retired.
      token = newApiKeyToken();
      updated = { ...key, primaryHash: hashApiKey(token), secondaryHash: key.primaryHash };
      break;
    case "retire-secondary":
      updated = { ...key, secondaryHash: null };
      break;
    case "disable":
    case "enable":
      updated = { ...key, disabled: change === "disable" };
      break;
    case "delete":
      await deleteApiKey(tx, key.id);
      await bumpConfigurationVersion(tx, dialect);
      return null;
  }
  await updateApiKey(tx, key.id, updated, now);
  await bumpConfigurationVersion(tx, dialect);
  return token;
}
