import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { KnotServer, knotAvailability } from "./knot-server";
import { configFolder } from "../03-cli/config-files";
import { cliIn } from "../03-cli/run-cli";
import { EXIT } from "../../cli/exit-codes";
import { rfc2136Provider } from "../../dns/rfc2136/rfc2136-provider";

const GLOBAL = "test.flowgate.example";
const ZA = "za.test.flowgate.example";
const availability = knotAvailability();
let knot: KnotServer | undefined;
beforeAll(async () => {
  if (availability.available) knot = await KnotServer.start([GLOBAL, ZA]);
}, 20_000);
afterAll(async () => knot?.stop());

function yaml(port: number, sites: { name: string; subdomain: string; region?: string }[]): string {
  return `deployment:
  baseDomains: { global: ${GLOBAL}, za: ${ZA} }
  dns:
    provider: rfc2136
    server: 127.0.0.1:${port}
    keyName: flowgate-test
    keySecretEnv: FLOWGATE_DNS_KEY
    target: { type: A, value: 203.0.113.10 }
    ttl: 60
sites:
${sites.map((site) => `  - { name: ${site.name}, subdomain: ${site.subdomain}, region: ${site.region ?? "global"}, workflows: [] }`).join("\n")}
`;
}

describe.runIf(availability.available)("DNS records follow flowgate apply (RFC 2136 to Knot DNS)", () => {
  it("creates a record for a saved Site, replaces it on a rename, removes it with the Site", async () => {
    const cli = cliIn(undefined, { FLOWGATE_DNS_KEY: knot!.secret });
    const { file } = configFolder(yaml(knot!.port, [{ name: "acme", subdomain: "acme" }, { name: "karoo", subdomain: "karoo", region: "za" }]));
    const applied = await cli.run("apply", file);
    expect(applied.code, applied.stderr).toBe(EXIT.ok);
    expect(applied.stdout).toContain(`dns       acme.${GLOBAL}\n`);
    expect(await knot!.addresses(`acme.${GLOBAL}`)).toEqual(["203.0.113.10"]);
    expect(await knot!.addresses(`karoo.${ZA}`)).toEqual(["203.0.113.10"]);
    expect((await cli.run("sites")).stdout).toContain("created, pending resolution");
    expect((await cli.run("apply", file)).stdout).toBe("no changes: the store already matches the file\n");

    writeFileSync(file, yaml(knot!.port, [{ name: "acme", subdomain: "acme-corp" }]));
    const renamed = await cli.run("apply", file);
    expect(renamed.stdout).toContain(`dns       acme-corp.${GLOBAL} (replacing acme.${GLOBAL})\n`);
    expect(renamed.stdout).toContain(`dns       removed karoo.${ZA}\n`);
    expect(await knot!.addresses(`acme-corp.${GLOBAL}`)).toEqual(["203.0.113.10"]);
    expect(await knot!.addresses(`acme.${GLOBAL}`)).toEqual([]);
    expect(await knot!.addresses(`karoo.${ZA}`)).toEqual([]);
  });

  it("keeps the record when a Site is renamed but keeps its subdomain", async () => {
    const cli = cliIn(undefined, { FLOWGATE_DNS_KEY: knot!.secret });
    const { file } = configFolder(yaml(knot!.port, [{ name: "old-name", subdomain: "steady" }]));
    await cli.run("apply", file);
    writeFileSync(file, yaml(knot!.port, [{ name: "new-name", subdomain: "steady" }]));
    expect((await cli.run("apply", file)).code).toBe(EXIT.ok);
    expect(await knot!.addresses(`steady.${GLOBAL}`)).toEqual(["203.0.113.10"]);
  });

  it("saves nothing when the DNS update fails, and says so", async () => {
    const good = cliIn(undefined, { FLOWGATE_DNS_KEY: knot!.secret });
    const { file } = configFolder(yaml(knot!.port, [{ name: "first", subdomain: "first" }]));
    await good.run("apply", file);
    const before = (await good.run("sites", "--json")).stdout;

    const wrongKey = cliIn(good.dataDir, { FLOWGATE_DNS_KEY: Buffer.from("not the key").toString("base64") });
    writeFileSync(file, yaml(knot!.port, [{ name: "first", subdomain: "first" }, { name: "second", subdomain: "second" }]));
    const failed = await wrongKey.run("apply", file);
    expect(failed.code).toBe(EXIT.dns);
    expect(failed.stderr).toBe(
      `flowgate: DNS: publishing second.${GLOBAL} (Site second) failed: the server answered NOTAUTH. Nothing was saved; fix the cause and apply the file again to finish.\n`,
    );
    expect((await good.run("sites", "--json")).stdout).toBe(before);
    expect(await knot!.addresses(`second.${GLOBAL}`)).toEqual([]);

    const finished = await good.run("apply", file);
    expect(finished.code).toBe(EXIT.ok);
    expect(await knot!.addresses(`second.${GLOBAL}`)).toEqual(["203.0.113.10"]);
  });

  it("refuses to apply without the TSIG secret, before storing anything", async () => {
    const cli = cliIn();
    const { file } = configFolder(yaml(knot!.port, [{ name: "nokey", subdomain: "nokey" }]));
    const result = await cli.run("apply", file);
    expect(result).toMatchObject({ code: EXIT.invalidConfiguration, stderr: "flowgate: DNS: environment variable FLOWGATE_DNS_KEY must hold the TSIG key's secret (base64)\n" });
  });

  it("shows a record made missing behind Flowgate's back, and publishes it again", async () => {
    const cli = cliIn(undefined, { FLOWGATE_DNS_KEY: knot!.secret });
    const { file } = configFolder(yaml(knot!.port, [{ name: "gone", subdomain: "gone" }]));
    await cli.run("apply", file);
    // Another tool deletes the record.
    await rfc2136Provider({
      server: { host: "127.0.0.1", port: knot!.port },
      key: { name: knot!.keyName, algorithm: "hmac-sha256", secret: Buffer.from(knot!.secret, "base64") },
      target: { type: "A", value: "203.0.113.10" },
      ttl: 60,
      zones: [GLOBAL],
    }).apply([{ kind: "remove", site: "gone", host: `gone.${GLOBAL}` }]);
    expect((await cli.run("sites")).stdout).toContain("missing (run flowgate dns publish)");
    expect((await cli.run("dns", "publish")).stdout).toBe("published 1 record(s)\n");
    expect(await knot!.addresses(`gone.${GLOBAL}`)).toEqual(["203.0.113.10"]);
  });
});
