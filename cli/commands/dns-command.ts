// `flowgate dns publish`: makes every Site's record again, for when records went missing outside Flowgate.

import type { Command } from "commander";
import type { Io } from "../output";
import { withStore } from "../store-command";
import { CliError, EXIT } from "../exit-codes";
import { providerFor } from "./configuration-commands";
import { DEFAULT_DEPLOYMENT } from "../../store/snapshot";
import { siteHost } from "../../plugins/flowgate/site-host";
import { DnsFailure } from "../../dns/dns-provider";

export function registerDnsCommand(program: Command, io: Io): void {
  program
    .command("dns")
    .description("DNS records of Sites")
    .command("publish")
    .description("make the DNS record of every Site (or one) again; safe to repeat")
    .option("--site <site>", "only this Site")
    .action(async (options: { site?: string }, command: Command) => {
      const configuration = await withStore(command, io, (store) => store.configuration());
      const deployment = configuration.deployment ?? DEFAULT_DEPLOYMENT;
      const sites = configuration.sites.filter((site) => options.site === undefined || site.name === options.site);
      if (options.site !== undefined && sites.length === 0) throw new CliError(EXIT.notFound, `no Site "${options.site}"`);
      const dns = providerFor(deployment, io);
      try {
        await dns.apply(sites.map((site) => ({ kind: "publish" as const, site: site.name, host: siteHost(site, deployment), previous: null })));
      } catch (error) {
        if (error instanceof DnsFailure) throw new CliError(EXIT.dns, error.message);
        throw error;
      }
      io.stdout(dns.name === "wildcard" ? "the wildcard record covers every Site; nothing to publish\n" : `published ${sites.length} record(s)\n`);
    });
}
