import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../cli/config/load-config";
import { formatProblem } from "../../cli/config/config-error";
import { hashApiKey } from "../../plugins/flowgate/auth/secret-hash";
import { configFolder, MINIMAL } from "./config-files";

function problems(yaml: string, { resolveSecrets = true, environment = {} as NodeJS.ProcessEnv } = {}): string[] {
  const { file } = configFolder(yaml);
  const result = loadConfig(file, { resolveSecrets, environment });
  const found = result.ok ? result.warnings : result.problems;
  return found.map((problem) => formatProblem(problem).slice(file.length + 1));
}

describe("loading flowgate.yaml", () => {
  it("accepts the shipped example, filling defaults", () => {
    const result = loadConfig("examples/flowgate.yaml", { resolveSecrets: true, environment: {} });
    expect(result.ok && result.warnings).toEqual([]);
    if (!result.ok) return;
    const acme = result.desired.sites[0]!;
    expect(acme).toMatchObject({ name: "acme", subdomain: "acme", region: "global", environments: ["Production", "Test"], releaseManagement: true, authMethods: ["apiKey", "basic", "session"] });
    expect(acme.workflows.find((workflow) => workflow.name === "soap-quote")).toMatchObject({
      method: "POST",
      limits: { memoryMb: 64, cpuMs: 2000, timeoutMs: 5000, maxBodyBytes: 65536 },
      codePath: "workflows/soap-quote.js",
    });
    expect(result.desired.sites[1]).toMatchObject({ name: "karoo", region: "za", allowedOrigins: "*", environments: ["Production", "Test"] });
    expect(result.desired.apiKeys[0]).toMatchObject({ name: "reporting", environment: "Production", workflows: ["annual-revenue", "named-report"] });
  });

  it("places a YAML syntax error at its line and column", () => {
    expect(problems("sites:\n  - name: acme\n   subdomain: [unclosed\n")[0]).toMatch(/^3:\d+: error: YAML syntax: /);
  });

  it("names unknown and missing settings, bad values and forms, each at its line", () => {
    const yaml = `sites:
  - name: acme
    subdomian: acme
    region: mars
    allowedOrigins: "https://not-a-list.example"
    workflows:
      - name: customer
        method: GET
        code: workflows/customer.js
`;
    expect(problems(yaml)).toEqual([
      "2:5: error: sites[0]: missing required setting \"subdomain\"",
      "3:5: error: sites[0].subdomian: unknown setting \"subdomian\"; expected one of: name, subdomain, region, allowedOrigins, environments, releaseManagement, auth, settings, outboundHosts, workflows",
      '4:13: error: sites[0].region: must be one of: "global", "za"',
      '5:21: error: sites[0].allowedOrigins: does not have an accepted form: Origins allowed to call the Site from a browser (CORS): a list of origins, or "*" for any.',
      '7:9: error: sites[0].workflows[0]: missing required setting "template"',
    ]);
  });

  it("reports a template error with the template's own column, at the template's line", () => {
    const yaml = MINIMAL.replace("template: /customers/{id}", "template: /customers/{id");
    expect(problems(yaml)).toEqual([
      '7:19: error: sites[0].workflows[0].template: URI template "/customers/{id", column 12: a "{" is not closed in its segment. Fix: close the variable with "}" before the next "/" or "{".',
    ]);
  });

  it("refuses template variables that are not Variable Bar inputs", () => {
    const yaml = MINIMAL.replace("inputs: [id]", "inputs: [Id]");
    expect(problems(yaml)).toEqual([
      `7:19: error: sites[0].workflows[0].template: URI template "/customers/{id}", column 12: variable "id" is not an input of the Workflow's Variable Bar. Fix: rename it "Id" to match the input (names are exact).`,
    ]);
  });

  it("applies the Site rules: subdomain syntax, reserved names, uniqueness without case", () => {
    const yaml = `sites:
  - { name: a, subdomain: -bad-, workflows: [] }
  - { name: b, subdomain: auth, workflows: [] }
  - { name: c, subdomain: Shop, workflows: [] }
  - { name: C, subdomain: shop, workflows: [] }
  - { name: d, subdomain: za, workflows: [] }
`;
    expect(problems(yaml)).toEqual([
      '2:27: error: sites[0].subdomain: subdomain "-bad-" is not a valid DNS label: use 1 to 63 letters, digits and hyphens, with no hyphen at either end',
      '3:27: error: sites[1].subdomain: subdomain "auth" is reserved for the service (auth, www, admin, status)',
      '5:13: error: sites[3].name: Site name "C" is used by sites[2] already (names compare without case)',
      '5:27: error: sites[3].subdomain: subdomain "shop" is already used by sites[2]; each Site needs its own',
      '6:27: error: sites[4].subdomain: subdomain "za" would make za.flowgate.localhost, which is the za region\'s base domain',
    ]);
  });

  it("refuses overlapping templates without Release Management, with the pair and an example path", () => {
    const yaml = `${MINIMAL}      - name: any-object
        method: get
        template: /{object}/{id}
        variableBar: { inputs: [object, id] }
        code: workflows/any.js
`;
    expect(problems(yaml)).toEqual([
      `12:19: error: sites[0].workflows[1].template: GET /{object}/{id} (Workflow "any-object") overlaps GET /customers/{id} (Workflow "customer"): both match GET /customers/id, which would get "There is no service at this location." Make the templates mutually exclusive (a static first segment helps), or list "customer" in allowOverlapWith`,
    ]);
    expect(problems(yaml.replace("code: workflows/any.js", "code: workflows/any.js\n        allowOverlapWith: [customer]"))).toEqual([]);
    expect(problems(yaml.replace("    workflows:", "    releaseManagement: true\n    workflows:"))[0]).toMatch(/^13:19: warning: .*\(checked again on promote\)$/);
  });

  it("checks references, code files and environments", () => {
    const yaml = `${MINIMAL}        allowOverlapWith: [nobody]
      - name: missing-code
        method: POST
        template: /things
        code: workflows/../nowhere/../missing.js
apiKeys:
  - { name: k, site: acme, environment: Staging, workflows: [nope], primary: { hash: "sha256:00" } }
  - { name: k2, site: elsewhere, primary: { env: KEY } }
users:
  - { name: alice, password: { hash: plain-text }, sites: [acme, ghost] }
`;
    const { file, dir } = configFolder(yaml);
    rmSync(join(dir, "missing.js"));
    const result = loadConfig(file, { resolveSecrets: true, environment: {} });
    expect(result.ok).toBe(false);
    const messages = result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
    expect(messages).toEqual([
      'sites[0].workflows[0].allowOverlapWith[0]: no Workflow "nobody" in Site "acme"',
      `sites[0].workflows[1].code: cannot read the Workflow's code from ${join(dir, "missing.js")}: ENOENT`,
      'apiKeys[0].environment: Site "acme" has no environment "Staging" (it has Production, Test)',
      'apiKeys[0].workflows[0]: Site "acme" has no Workflow "nope"',
      "apiKeys[0].primary.hash: is not an API key hash (sha256: and 64 hexadecimal digits)",
      'apiKeys[1].site: no Site "elsewhere"',
      "users[0].password.hash: is not a scrypt hash (scrypt$N$r$p$salt$key, N at least 16384); make one with `flowgate hash-password`",
      'users[0].sites[1]: no Site "ghost"',
    ]);
  });

  it("reads secrets from the environment on apply, and only warns about unset ones on validate", () => {
    const yaml = `${MINIMAL}apiKeys:
  - { name: k, site: acme, primary: { env: FG_TEST_KEY } }
users:
  - { name: bob, password: { env: FG_TEST_PASSWORD } }
`;
    expect(problems(yaml, { resolveSecrets: false })).toEqual([
      "11:44: warning: apiKeys[0].primary.env: environment variable FG_TEST_KEY is not set here; apply will need it",
      "13:35: warning: users[0].password.env: environment variable FG_TEST_PASSWORD is not set here; apply will need it",
    ]);
    expect(problems(yaml)).toEqual([
      "11:44: error: apiKeys[0].primary.env: environment variable FG_TEST_KEY is not set; it must hold the secret when the file is applied",
      "13:35: error: users[0].password.env: environment variable FG_TEST_PASSWORD is not set; it must hold the secret when the file is applied",
    ]);
    const { file } = configFolder(yaml);
    const result = loadConfig(file, { resolveSecrets: true, environment: { FG_TEST_KEY: "secret-token", FG_TEST_PASSWORD: "pw" } });
    expect(result.ok && result.desired.apiKeys[0]!.primaryHash).toBe(hashApiKey("secret-token"));
    expect(result.ok && result.desired.users[0]!.password).toEqual({ plain: "pw" });
  });

  it("refuses settings that would hand the service's own secrets to Workflows", () => {
    const yaml = MINIMAL.replace("    workflows:", "    settings:\n      Production: { secret: { env: FLOWGATE_DISPATCH_SECRET }, fine: { env: SHOP_TOKEN } }\n    workflows:");
    expect(problems(yaml)).toEqual([
      "5:36: error: sites[0].settings.Production.secret.env: settings may not read FLOWGATE_DISPATCH_SECRET: variables starting FLOWGATE_ hold the service's own secrets",
    ]);
  });

  it("says when the file cannot be read", () => {
    const result = loadConfig("/nonexistent/flowgate.yaml", { resolveSecrets: false });
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual(["/nonexistent/flowgate.yaml:1:1: error: cannot read the file: ENOENT"]);
  });
});
