// `flowgate explain METHOD URL`: which Workflow and revision would answer a request, in which Site Environment,
// with which Variable Bar inputs; or why none would.

import type { Command } from "commander";
import type { Io } from "../output";
import { printJson, printTable } from "../output";
import { withStore } from "../store-command";
import { CliError, EXIT } from "../exit-codes";
import { buildSnapshot } from "../../store/snapshot";
import { routeRequest } from "../../plugins/flowgate/route-request";
import type { RequestFacts } from "../../plugins/flowgate/route-request";
import { explainRequest } from "../../plugins/flowgate/routing/explain";
import { NO_SERVICE_MESSAGE } from "../../plugins/flowgate/responses";

function requestFacts(method: string, url: string): RequestFacts {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
  } catch {
    throw new CliError(EXIT.usage, `"${url}" is not a URL; give one such as https://acme.flowgate.localhost/orders/7`);
  }
  return { method, host: parsed.host, path: parsed.pathname, query: parsed.search.slice(1) };
}

export function registerExplainCommand(program: Command, io: Io): void {
  program
    .command("explain")
    .description("say which Workflow would answer a request and why, or why none would (exit 0 when one would, 5 when none)")
    .argument("<method>", "the HTTP method, such as GET")
    .argument("<url>", "the full URL, such as https://acme.flowgate.localhost/reports/revenue/annual/2024?_profile=Test")
    .option("--json", "print the result as JSON")
    .action(async (method: string, url: string, options: { json?: boolean }, command: Command) => {
      const request = requestFacts(method, url);
      const snapshot = buildSnapshot(await withStore(command, io, (store) => store.configuration()));
      const route = routeRequest(snapshot, request);

      if (route.kind === "unknown-host") {
        const hosts = [...snapshot.sitesByHost.keys()].join(", ") || "none";
        if (options.json) printJson(io, { outcome: "unknown-host", host: route.host, status: 404, knownHosts: [...snapshot.sitesByHost.keys()] });
        else io.stdout(`No Site is reached at ${route.host}: 404 "${NO_SERVICE_MESSAGE}"\nSites are reached at: ${hosts}\n`);
        throw new CliError(EXIT.notFound, `no Site at ${route.host}`);
      }
      if (route.kind === "bad-request") {
        if (options.json) printJson(io, { outcome: "bad-request", site: route.site.site.name, status: 400, problem: route.problem });
        else io.stdout(`Site ${route.site.site.name}: 400 Bad Request: ${route.problem}\n`);
        throw new CliError(EXIT.notFound, route.problem);
      }

      const { site, environment, lookup } = route;
      const explanation = explainRequest(environment.bindings, request.method, request.path, request.query);
      const candidates = explanation.candidates.map((candidate) => ({
        workflow: candidate.binding.workflow.workflow,
        revision: candidate.binding.workflow.number,
        binding: `${candidate.binding.method} ${candidate.binding.template.text}`,
        matched: candidate.matched,
        reason: candidate.reason,
      }));
      const answer =
        lookup.kind === "match"
          ? { outcome: "match", status: null, workflow: lookup.binding.workflow.workflow, revision: lookup.binding.workflow.number, variables: lookup.variables }
          : lookup.kind === "bad-request"
            ? { outcome: "bad-request", status: 400, problem: lookup.problem }
            : { outcome: lookup.kind, status: 404 };

      if (options.json) {
        printJson(io, { site: site.site.name, host: site.host, environment: environment.name, ...answer, candidates });
      } else {
        io.stdout(`Site:        ${site.site.name} (${site.host})\n`);
        io.stdout(`Environment: ${environment.name}\n`);
        if (lookup.kind === "match") {
          io.stdout(`Answer:      Workflow ${lookup.binding.workflow.workflow} revision ${lookup.binding.workflow.number} (${lookup.binding.method} ${lookup.binding.template.text})\n`);
          const inputs = Object.entries(lookup.variables);
          io.stdout(`Variables:   ${inputs.length ? inputs.map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(", ") : "(none)"}\n`);
        } else if (lookup.kind === "bad-request") {
          io.stdout(`Answer:      400 Bad Request: ${lookup.problem}\n`);
        } else {
          const why = lookup.kind === "ambiguous" ? `${lookup.bindings.length} bindings match, so neither is served` : "no binding matches";
          io.stdout(`Answer:      404 "${NO_SERVICE_MESSAGE}" (${why})\n`);
        }
        io.stdout("\n");
        printTable(
          io,
          ["MATCH", "WORKFLOW", "REVISION", "BINDING", "REASON"],
          candidates.map((candidate) => [candidate.matched ? "yes" : "no", candidate.workflow, String(candidate.revision), candidate.binding, candidate.reason]),
          `(no Workflow is live in ${environment.name})`,
        );
      }
      if (lookup.kind !== "match") throw new CliError(EXIT.notFound, lookup.kind === "bad-request" ? lookup.problem : "no Workflow would answer");
    });
}
