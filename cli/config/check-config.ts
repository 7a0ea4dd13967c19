// The rules a flowgate.yaml must follow beyond its schema: Site names and hosts, templates against the Variable Bar,
// references between entries, overlapping bindings, secrets. Turns a valid document into the desired state.

import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { ConfigDocument, DocumentPath } from "./load-document";
import type { ConfigProblem } from "./config-error";
import type { RawConfig, RawLimits, RawSecret, RawSite } from "./raw-config";
import type { ApiKeyDefinition, DeploymentSettings, DesiredState, DesiredUser, DnsSettings, Limits, SiteDefinition, WorkflowDefinition } from "../../store/model";
import { DEFAULT_LIMITS, PRODUCTION, settingMayRead } from "../../store/model";
import { baseDomainProblem, DEFAULT_BASE_DOMAINS, subdomainProblem } from "../../plugins/flowgate/site-host";
import { checkTemplateAgainstVariableBar, DEFAULT_PROPERTY_PREFIX, specialProperties } from "../../plugins/flowgate/variable-bar";
import { parseUriTemplate } from "../../plugins/flowgate/templates/uri-template";
import { parseBindingMethod } from "../../plugins/flowgate/routing/binding";
import type { Binding } from "../../plugins/flowgate/routing/binding";
import { findOverlaps } from "../../plugins/flowgate/routing/overlap";
import { hashApiKey, isApiKeyHash, isPasswordHash } from "../../plugins/flowgate/auth/secret-hash";

export interface CheckOptions {
  /**
   * Read secrets named by environment variables. `apply` needs them and refuses when one is unset; `validate` only
   * warns, so a file can be checked where its secrets are not available.
   */
  readonly resolveSecrets: boolean;
  readonly environment?: NodeJS.ProcessEnv;
}

export type ConfigCheck =
  | { readonly ok: true; readonly desired: DesiredState; readonly warnings: readonly ConfigProblem[] }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

const MAX_CODE_BYTES = 5 * 1024 * 1024;
const NAME_OF_INPUT = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function checkConfig(document: ConfigDocument, options: CheckOptions): ConfigCheck {
  const problems: ConfigProblem[] = [];
  const report = (path: DocumentPath, message: string, severity: ConfigProblem["severity"] = "error") => problems.push(document.problem(path, message, severity));
  const { raw } = document;
  const environment = options.environment ?? process.env;

  const deployment = checkDeployment(raw, report);
  const defaultLimits = { ...DEFAULT_LIMITS, ...raw.deployment?.defaultLimits };
  const special = specialProperties(deployment.variableBarPrefix);
  const baseDir = dirname(resolve(document.file));

  const siteNames = new Map<string, number>();
  const subdomains = new Map<string, number>();
  const sites = raw.sites.map((site, index) => {
    const path = ["sites", index];
    claimUnique(siteNames, site.name.toLowerCase(), index, () => report([...path, "name"], `Site name "${site.name}" is used by sites[${siteNames.get(site.name.toLowerCase())}] already (names compare without case)`));
    const subdomainIssue = subdomainProblem(site.subdomain, deployment, site.region);
    if (subdomainIssue) report([...path, "subdomain"], subdomainIssue);
    const subdomain = site.subdomain.toLowerCase();
    claimUnique(subdomains, subdomain, index, () =>
      report([...path, "subdomain"], `subdomain "${site.subdomain}" is already used by sites[${subdomains.get(subdomain)}]; each Site needs its own`),
    );
    const definition: SiteDefinition = {
      name: site.name,
      subdomain,
      region: site.region,
      allowedOrigins: site.allowedOrigins,
      environments: checkEnvironments(site, path, report),
      releaseManagement: site.releaseManagement,
      authMethods: site.auth,
      settings: {},
      outboundHosts: site.outboundHosts ?? null,
    };
    const settings = checkSettings(site, definition.environments, path, report);
    const workflows = site.workflows.map((workflow, workflowIndex) =>
      checkWorkflow(site, workflowIndex, [...path, "workflows", workflowIndex], { baseDir, defaultLimits, special, report }),
    );
    checkOverlapPermissions(site, path, report);
    checkOverlaps(site, workflows, path, report);
    return { ...definition, settings, workflows };
  });

  const users = checkUsers(raw, sites, environment, options, report);
  const apiKeys = checkApiKeys(raw, sites, environment, options, report);

  const errors = problems.filter((problem) => problem.severity === "error");
  if (errors.length > 0) return { ok: false, problems: sortProblems(problems) };
  return { ok: true, desired: { deployment, sites, users, apiKeys }, warnings: sortProblems(problems) };
}

type Report = (path: DocumentPath, message: string, severity?: ConfigProblem["severity"]) => void;

function sortProblems(problems: ConfigProblem[]): ConfigProblem[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

function claimUnique(seen: Map<string, number>, key: string, index: number, onDuplicate: () => void): void {
  if (seen.has(key)) onDuplicate();
  else seen.set(key, index);
}

function checkDeployment(raw: RawConfig, report: Report): DeploymentSettings {
  const baseDomains = {
    global: (raw.deployment?.baseDomains?.global ?? DEFAULT_BASE_DOMAINS.global).toLowerCase(),
    za: (raw.deployment?.baseDomains?.za ?? DEFAULT_BASE_DOMAINS.za).toLowerCase(),
  };
  for (const region of ["global", "za"] as const) {
    const problem = baseDomainProblem(baseDomains[region]);
    if (problem) report(["deployment", "baseDomains", region], problem);
  }
  return {
    baseDomains,
    variableBarPrefix: raw.deployment?.variableBarPrefix ?? DEFAULT_PROPERTY_PREFIX,
    ...(raw.deployment?.sessions ? { sessions: raw.deployment.sessions } : {}),
    ...(raw.deployment?.dns ? { dns: dnsSettings(raw.deployment.dns) } : {}),
  };
}

/** The schema cannot fill defaults inside alternatives, so the RFC 2136 ones are filled here. */
function dnsSettings(raw: NonNullable<NonNullable<RawConfig["deployment"]>["dns"]>): DnsSettings {
  if (raw.provider === "wildcard") return raw;
  const partial = raw as Omit<typeof raw, "keyAlgorithm" | "ttl"> & Partial<Pick<typeof raw, "keyAlgorithm" | "ttl">>;
  return { ...partial, keyAlgorithm: partial.keyAlgorithm ?? "hmac-sha256", ttl: partial.ttl ?? 300 };
}

/** Every Site has Production; other names may not repeat it, or each other, in another case. */
function checkEnvironments(site: RawSite, path: DocumentPath, report: Report): string[] {
  const environments = [PRODUCTION];
  site.environments.forEach((name, index) => {
    const existing = environments.find((known) => known.toLowerCase() === name.toLowerCase());
    if (existing === PRODUCTION && name === PRODUCTION) return;
    if (existing) report([...path, "environments", index], `environment "${name}" repeats "${existing}" (environment names compare without case)`);
    else environments.push(name);
  });
  return environments;
}

/** Settings are keyed by Site Environment; the keys take the environment's own spelling. */
function checkSettings(site: RawSite, environments: readonly string[], path: DocumentPath, report: Report): SiteDefinition["settings"] {
  const settings: Record<string, SiteDefinition["settings"][string]> = {};
  for (const [name, values] of Object.entries(site.settings)) {
    const environment = environments.find((known) => known.toLowerCase() === name.toLowerCase());
    for (const [setting, value] of Object.entries(values)) {
      if (value !== null && typeof value === "object" && !settingMayRead(value.env)) {
        report([...path, "settings", name, setting, "env"], `settings may not read ${value.env}: variables starting FLOWGATE_ hold the service's own secrets`);
      }
    }
    if (environment) settings[environment] = values;
    else report([...path, "settings", name], `Site "${site.name}" has no environment "${name}" (it has ${environments.join(", ")})`);
  }
  return settings;
}

interface WorkflowContext {
  readonly baseDir: string;
  readonly defaultLimits: Limits;
  readonly special: ReturnType<typeof specialProperties>;
  readonly report: Report;
}

function checkWorkflow(site: RawSite, index: number, path: DocumentPath, context: WorkflowContext): WorkflowDefinition {
  const { report } = context;
  const workflow = site.workflows[index]!;
  const duplicate = site.workflows.findIndex((other) => other.name.toLowerCase() === workflow.name.toLowerCase());
  if (duplicate !== index) report([...path, "name"], `Workflow name "${workflow.name}" is used by workflows[${duplicate}] of this Site already`);

  const variableBar = { inputs: workflow.variableBar?.inputs ?? [], outputs: workflow.variableBar?.outputs ?? [] };
  for (const side of ["inputs", "outputs"] as const) {
    variableBar[side].forEach((name, nameIndex) => {
      if (!NAME_OF_INPUT.test(name)) report([...path, "variableBar", side, nameIndex], `"${name}" is not a valid Variable Bar name: letters, digits and underscores, not starting with a digit`);
    });
  }

  const method = parseBindingMethod(workflow.method);
  if (!method.ok) report([...path, "method"], method.problem);
  const template = parseUriTemplate(workflow.template);
  if (!template.ok) report([...path, "template"], template.error.toString());
  else {
    for (const error of checkTemplateAgainstVariableBar(template.template, variableBar, context.special)) report([...path, "template"], error.toString());
  }

  return {
    name: workflow.name,
    method: method.ok ? method.method : workflow.method,
    template: workflow.template,
    variableBar,
    code: readCode(workflow.code, context.baseDir, [...path, "code"], report),
    codePath: workflow.code,
    limits: { ...context.defaultLimits, ...(workflow.limits as RawLimits | undefined) },
    anonymous: workflow.anonymous,
    allowOverlapWith: workflow.allowOverlapWith ?? [],
  };
}

function readCode(file: string, baseDir: string, path: DocumentPath, report: Report): string {
  const absolute = resolve(baseDir, file);
  try {
    const size = statSync(absolute).size;
    if (size > MAX_CODE_BYTES) {
      report(path, `${file} is ${size} bytes; a Workflow's code may be at most ${MAX_CODE_BYTES} bytes`);
      return "";
    }
    return readFileSync(absolute, "utf8");
  } catch (error) {
    report(path, `cannot read the Workflow's code from ${absolute}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    return "";
  }
}

function checkOverlapPermissions(site: RawSite, path: DocumentPath, report: Report): void {
  site.workflows.forEach((workflow, index) => {
    (workflow.allowOverlapWith ?? []).forEach((other, otherIndex) => {
      if (!site.workflows.some((candidate) => candidate.name === other)) {
        report([...path, "workflows", index, "allowOverlapWith", otherIndex], `no Workflow "${other}" in Site "${site.name}"`);
      }
    });
  });
}

/**
 * Without Release Management every Workflow's latest revision is live in every environment, so two overlapping
 * templates would make requests ambiguous at once: refused, unless one of the pair allows the other. With it,
 * nothing goes live until promoted, and `flowgate promote` makes the same check; here it is a warning.
 */
function checkOverlaps(site: RawSite, workflows: readonly WorkflowDefinition[], path: DocumentPath, report: Report): void {
  const bindings: Binding<number>[] = [];
  workflows.forEach((workflow, index) => {
    const method = parseBindingMethod(workflow.method);
    const template = parseUriTemplate(workflow.template);
    if (method.ok && template.ok) bindings.push({ method: method.method, template: template.template, workflow: index });
  });
  for (const { first, second, examplePath } of findOverlaps(bindings)) {
    const a = workflows[first.workflow]!;
    const b = workflows[second.workflow]!;
    if (a.allowOverlapWith.includes(b.name) || b.allowOverlapWith.includes(a.name)) continue;
    const message =
      `${b.method} ${b.template} (Workflow "${b.name}") overlaps ${a.method} ${a.template} (Workflow "${a.name}"): ` +
      `both match ${b.method} ${examplePath}, which would get "There is no service at this location." ` +
      `Make the templates mutually exclusive (a static first segment helps), or list "${a.name}" in allowOverlapWith`;
    report([...path, "workflows", second.workflow, "template"], site.releaseManagement ? `${message} (checked again on promote)` : message, site.releaseManagement ? "warning" : "error");
  }
}

function resolveSecret(secret: RawSecret, path: DocumentPath, environment: NodeJS.ProcessEnv, options: CheckOptions, report: Report): string | null {
  if (secret.hash !== undefined) return secret.hash;
  const value = environment[secret.env!];
  if (value === undefined || value === "") {
    if (options.resolveSecrets) report([...path, "env"], `environment variable ${secret.env} is not set; it must hold the secret when the file is applied`);
    else report([...path, "env"], `environment variable ${secret.env} is not set here; apply will need it`, "warning");
    return null;
  }
  return value;
}

function checkUsers(raw: RawConfig, sites: readonly SiteDefinition[], environment: NodeJS.ProcessEnv, options: CheckOptions, report: Report): DesiredUser[] {
  const names = new Map<string, number>();
  return (raw.users ?? []).flatMap((user, index): DesiredUser[] => {
    const path = ["users", index];
    claimUnique(names, user.name, index, () => report([...path, "name"], `user "${user.name}" is listed twice`));
    if (user.sites !== "*") {
      user.sites.forEach((site, siteIndex) => {
        if (!sites.some((known) => known.name === site)) report([...path, "sites", siteIndex], `no Site "${site}"`);
      });
    }
    if (user.password.hash !== undefined && !isPasswordHash(user.password.hash)) {
      report([...path, "password", "hash"], "is not a scrypt hash (scrypt$N$r$p$salt$key, N at least 16384); make one with `flowgate hash-password`");
    }
    const secret = resolveSecret(user.password, [...path, "password"], environment, options, report);
    if (secret === null) return [];
    return [{ name: user.name, password: user.password.hash !== undefined ? { hash: secret } : { plain: secret }, sites: user.sites }];
  });
}

function checkApiKeys(raw: RawConfig, sites: readonly (SiteDefinition & { workflows: readonly WorkflowDefinition[] })[], environment: NodeJS.ProcessEnv, options: CheckOptions, report: Report): ApiKeyDefinition[] {
  const names = new Set<string>();
  return (raw.apiKeys ?? []).flatMap((key, index): ApiKeyDefinition[] => {
    const path = ["apiKeys", index];
    const site = sites.find((known) => known.name === key.site);
    if (!site) {
      report([...path, "site"], `no Site "${key.site}"`);
      return [];
    }
    if (names.has(`${key.site}/${key.name}`)) report([...path, "name"], `API key "${key.name}" is listed twice for Site "${key.site}"`);
    names.add(`${key.site}/${key.name}`);
    const environmentName = site.environments.find((name) => name.toLowerCase() === key.environment.toLowerCase());
    if (!environmentName) report([...path, "environment"], `Site "${site.name}" has no environment "${key.environment}" (it has ${site.environments.join(", ")})`);
    if (key.workflows !== "*") {
      key.workflows.forEach((workflow, workflowIndex) => {
        if (!site.workflows.some((known) => known.name === workflow)) report([...path, "workflows", workflowIndex], `Site "${site.name}" has no Workflow "${workflow}"`);
      });
    }
    const token = (secret: RawSecret, secretPath: DocumentPath): string | null => {
      if (secret.hash !== undefined && !isApiKeyHash(secret.hash)) {
        report([...secretPath, "hash"], "is not an API key hash (sha256: and 64 hexadecimal digits)");
        return null;
      }
      const value = resolveSecret(secret, secretPath, environment, options, report);
      if (value === null) return null;
      return secret.hash !== undefined ? value : hashApiKey(value);
    };
    const primaryHash = token(key.primary, [...path, "primary"]);
    const secondaryHash = key.secondary ? token(key.secondary, [...path, "secondary"]) : null;
    if (primaryHash === null || !environmentName) return [];
    return [{ site: site.name, name: key.name, environment: environmentName, workflows: key.workflows, disabled: key.disabled, primaryHash, secondaryHash }];
  });
}
