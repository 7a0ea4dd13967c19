// The contract every store database passes: the embedded SQLite file and PostgreSQL run these same cases.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../../store/store";
import type { ActivityLog } from "../../store/model";
import { liveRevisions } from "../../store/live-revisions";
import { SnapshotCache } from "../../store/snapshot-cache";
import { StoreRefusal } from "../../store/store-refusal";
import { insertApiKey, listApiKeys } from "../../store/queries/credentials";
import { listSites } from "../../store/queries/sites";
import { hashApiKey, verifyPassword } from "../../plugins/flowgate/auth/secret-hash";
import { desired, site, workflow } from "./desired-state";

export interface StoreFixture {
  /** A store on an empty database. */
  open(): Promise<Store>;
  /** Another store on the same database, as a second process would have. */
  openAnother(): Promise<Store>;
  cleanup(): Promise<void>;
}

const customers = workflow("customer", "GET", "/customers/{id}");
const orders = workflow("order", "GET", "/orders/{id}");
const anyObject = workflow("any-object", "GET", "/{object}/{id}");

function live(configuration: Awaited<ReturnType<Store["configuration"]>>, siteName: string, environment: string): string[] {
  const found = configuration.sites.find((candidate) => candidate.name === siteName)!;
  return liveRevisions(found, environment, configuration.releases).map((revision) => `${revision.workflow}#${revision.number}`);
}

async function refusal(promise: Promise<unknown>): Promise<StoreRefusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StoreRefusal) return error;
    throw error;
  }
  throw new Error("expected the store to refuse");
}

export interface ContractOptions {
  /** Why the database cannot be reached here, when it cannot; each case is then skipped with that reason. */
  readonly unavailable?: () => string | null;
}

export function storeContract(name: string, fixture: () => StoreFixture, options: ContractOptions = {}): void {
  describe(`store contract: ${name}`, () => {
    let current: StoreFixture | undefined;
    let store: Store;
    beforeEach(async (context) => {
      const reason = options.unavailable?.();
      if (reason) context.skip(reason);
      current = fixture();
      store = await current.open();
    });
    afterEach(async () => {
      if (!current) return;
      await store.close();
      await current.cleanup();
      current = undefined;
    });

    it("starts empty, at configuration version 0, and migrates only once", async () => {
      expect(await store.configuration()).toMatchObject({ version: 0, deployment: null, sites: [], releases: [], users: [], apiKeys: [] });
      const again = await current!.openAnother();
      const steps = await again.database.all<{ version: number }>("SELECT version FROM schema_migrations");
      expect(steps.map((step) => Number(step.version))).toEqual([1, 2]);
      await again.close();
    });

    it("applies Sites, Workflows and first revisions, then changes nothing on a second apply", async () => {
      const state = desired([site("acme", [customers, orders])]);
      const first = await store.apply(state);
      expect(first.changes.map((change) => `${change.action} ${change.subject}`)).toEqual([
        "created deployment settings",
        "created Site acme",
        "created Workflow acme/customer",
        "created Workflow acme/customer revision 1",
        "created Workflow acme/order",
        "created Workflow acme/order revision 1",
      ]);
      expect(first.version).toBe(1);
      const configuration = await store.configuration();
      expect(configuration.sites[0]).toMatchObject({ name: "acme", subdomain: "acme", environments: ["Production", "Test"], releaseManagement: false });
      expect(configuration.sites[0]!.workflows.map((stored) => [stored.name, stored.revisions.map((revision) => revision.number)])).toEqual([
        ["customer", [1]],
        ["order", [1]],
      ]);
      expect(configuration.sites[0]!.workflows[0]!.revisions[0]).toMatchObject({ method: "GET", template: "/customers/{id}", code: customers.code, anonymous: false });

      const second = await store.apply(state);
      expect(second.changes).toEqual([]);
      expect(second.version).toBe(1);
    });

    it("gives a Workflow a new revision only when its revision content changes", async () => {
      await store.apply(desired([site("acme", [customers, orders])]));
      const moved = await store.apply(desired([site("acme", [{ ...customers, codePath: "elsewhere/customer.js" }, orders])]));
      expect(moved.changes).toEqual([]);
      const changed = await store.apply(desired([site("acme", [{ ...customers, code: "export default () => ({ result: 2 })" }, orders])]));
      expect(changed.changes.map((change) => `${change.action} ${change.subject}`)).toEqual(["created Workflow acme/customer revision 2"]);
      const configuration = await store.configuration();
      expect(live(configuration, "acme", "Production")).toEqual(["customer#2", "order#1"]);
      expect(live(configuration, "acme", "Test")).toEqual(["customer#2", "order#1"]);
    });

    it("removes Sites, Workflows and users the file no longer has", async () => {
      await store.apply(desired([site("acme", [customers, orders]), site("globex", [orders])], { users: [{ name: "alice", password: { hash: "scrypt$32768$8$1$AAAA$BBBB" }, sites: "*" }] }));
      const report = await store.apply(desired([site("acme", [customers])]));
      expect(report.changes.map((change) => `${change.action} ${change.subject}`)).toEqual(["removed Site globex", "removed Workflow acme/order", "removed user alice"]);
      const configuration = await store.configuration();
      expect(configuration.sites.map((stored) => stored.name)).toEqual(["acme"]);
      expect(configuration.users).toEqual([]);
    });

    it("lets Sites swap subdomains, and a new Site take a removed one's, in one apply", async () => {
      await store.apply(desired([site("a", [customers]), site("b", [orders]), site("c", [])]));
      await store.apply(desired([site("a", [customers], { subdomain: "b" }), site("b", [orders], { subdomain: "a" }), site("d", [], { subdomain: "c" })]));
      expect((await store.configuration()).sites.map((stored) => `${stored.name}:${stored.subdomain}`)).toEqual(["a:b", "b:a", "d:c"]);
    });

    it("refuses a configuration whose live bindings overlap, and leaves the store untouched", async () => {
      await store.apply(desired([site("acme", [customers])]));
      const before = await store.configuration();
      const refused = await refusal(store.apply(desired([site("acme", [customers, anyObject])])));
      expect(refused.kind).toBe("conflict");
      expect(refused.message).toBe(
        "the configuration would make requests ambiguous:\n" +
          '  - in Site "acme", every environment: GET /{object}/{id} ("any-object" revision 1) overlaps GET /customers/{id} ("customer" revision 1); ' +
          "both match GET /customers/id. Make the templates mutually exclusive, or list one Workflow in the other's allowOverlapWith",
      );
      expect(await store.configuration()).toEqual(before);

      const allowed = await store.apply(desired([site("acme", [customers, { ...anyObject, allowOverlapWith: ["customer"] }])]));
      expect(allowed.changes.map((change) => change.subject)).toContain("Workflow acme/any-object");
    });

    it("reports the changes of a dry run and keeps none of them", async () => {
      const report = await store.apply(desired([site("acme", [customers])]), { dryRun: true });
      expect(report.dryRun).toBe(true);
      expect(report.changes.length).toBeGreaterThan(0);
      expect(await store.configuration()).toMatchObject({ version: 0, sites: [] });
    });

    it("with Release Management, publishes first revisions everywhere and later ones only when promoted", async () => {
      const managed = (workflows: typeof customers[]) => desired([site("acme", workflows, { releaseManagement: true })]);
      await store.apply(managed([customers, orders]));
      await store.apply(managed([{ ...customers, code: "export default () => ({ result: 2 })" }, orders]));
      let configuration = await store.configuration();
      expect(live(configuration, "acme", "Production")).toEqual(["customer#1", "order#1"]);

      const promoted = await store.promote({ site: "acme", workflow: "customer", environment: "test" });
      expect(promoted).toEqual({ site: "acme", workflow: "customer", environment: "Test", revision: 2, previous: 1, changed: true });
      configuration = await store.configuration();
      expect(live(configuration, "acme", "Test")).toEqual(["customer#2", "order#1"]);
      expect(live(configuration, "acme", "Production")).toEqual(["customer#1", "order#1"]);
      expect((await store.promote({ site: "acme", workflow: "customer", environment: "Test", revision: 2 })).changed).toBe(false);

      await store.promote({ site: "acme", workflow: "customer", environment: "Test", revision: 1 });
      expect(live(await store.configuration(), "acme", "Test")).toEqual(["customer#1", "order#1"]);
    });

    it("refuses promotions that cannot be made, saying why", async () => {
      await store.apply(desired([site("acme", [customers]), site("plain", [orders])]));
      expect((await refusal(store.promote({ site: "nope", workflow: "customer", environment: "Test" }))).kind).toBe("not-found");
      expect((await refusal(store.promote({ site: "plain", workflow: "order", environment: "Test" }))).message).toContain("does not use Release Management");
      await store.apply(desired([site("acme", [customers], { releaseManagement: true }), site("plain", [orders])]));
      expect((await refusal(store.promote({ site: "acme", workflow: "customer", environment: "Staging" }))).message).toBe(
        'Site "acme" has no environment "Staging" (it has Production, Test)',
      );
      expect((await refusal(store.promote({ site: "acme", workflow: "customer", environment: "Test", revision: 9 }))).message).toBe(
        'Workflow "customer" has no revision 9 (revisions 1 to 1)',
      );
    });

    it("refuses a promotion that would overlap what is live in that environment", async () => {
      const managed = (workflows: typeof customers[]) => desired([site("acme", workflows, { releaseManagement: true })]);
      // Production holds the old template of "any-object" while its latest revision has a new one.
      await store.apply(managed([customers, workflow("any-object", "GET", "/objects/{object}/{id}")]));
      await store.apply(managed([customers, anyObject]));
      const refused = await refusal(store.promote({ site: "acme", workflow: "any-object", environment: "Production" }));
      expect(refused.kind).toBe("conflict");
      expect(refused.message).toContain("both match GET /customers/id");
    });

    it("turning Release Management on publishes what was live, so no answer changes", async () => {
      await store.apply(desired([site("acme", [customers, orders])]));
      await store.apply(desired([site("acme", [{ ...customers, code: "export default () => ({ result: 2 })" }, orders])]));
      await store.apply(desired([site("acme", [{ ...customers, code: "export default () => ({ result: 2 })" }, orders], { releaseManagement: true })]));
      const configuration = await store.configuration();
      expect(live(configuration, "acme", "Production")).toEqual(["customer#2", "order#1"]);
      expect(configuration.releases).toHaveLength(4);
    });

    it("hashes a password given through the environment once, and keeps that hash while it verifies", async () => {
      const withAlice = (plain: string) => desired([site("acme", [customers])], { users: [{ name: "alice", password: { plain }, sites: ["acme"] }] });
      await store.apply(withAlice("first secret"));
      const [alice] = (await store.configuration()).users;
      expect(alice!.passwordHash).toMatch(/^scrypt\$/);
      expect(await verifyPassword("first secret", alice!.passwordHash)).toBe(true);
      expect((await store.apply(withAlice("first secret"))).changes).toEqual([]);
      const changed = await store.apply(withAlice("second secret"));
      expect(changed.changes).toEqual([{ action: "updated", subject: "user alice", detail: "password" }]);
    });

    it("owns the file's API keys and never removes those made on the command line", async () => {
      const key = { site: "acme", name: "reporting", environment: "Production", workflows: ["customer"], disabled: false, primaryHash: hashApiKey("one"), secondaryHash: null };
      await store.apply(desired([site("acme", [customers])], { apiKeys: [key] }));
      await store.database.transaction(async (tx) => {
        const siteId = (await listSites(tx))[0]!.id;
        await insertApiKey(tx, siteId, { ...key, name: "made-by-hand" }, "cli", Date.now());
      });
      expect((await store.apply(desired([site("acme", [customers])], { apiKeys: [{ ...key, disabled: true }] }))).changes).toEqual([
        { action: "updated", subject: "API key acme/reporting" },
      ]);
      await store.apply(desired([site("acme", [customers])]));
      expect((await listApiKeys(store.database)).map((stored) => `${stored.name}:${stored.source}`)).toEqual(["made-by-hand:cli"]);
      const clash = await refusal(store.apply(desired([site("acme", [customers])], { apiKeys: [{ ...key, name: "made-by-hand" }] })));
      expect(clash.message).toContain("was created with `flowgate keys create`");
    });

    it("completes an activity log's start with its finish, and filters the listing", async () => {
      const start: ActivityLog = {
        id: "act-1",
        site: "acme",
        workflow: "customer",
        revision: 1,
        environment: "Production",
        method: "GET",
        url: "/customers/42",
        principal: "Token-based Key: reporting",
        startedAt: 1000,
        initialisationXml: "<Initialisation><Environment>Production</Environment></Initialisation>",
        finishedAt: null,
        status: null,
        durationMs: null,
        error: null,
        messages: [],
      };
      await store.recordActivity([start, { ...start, id: "act-2", workflow: "order", startedAt: 2000 }]);
      const finish = { ...start, finishedAt: 1040, status: 200, durationMs: 40, messages: [{ at: 1020, level: "info" as const, text: "looked up customer 42" }] };
      await store.recordActivity([finish]);
      expect(await store.activityLogs({ workflow: "customer" })).toEqual([finish]);
      expect((await store.activityLogs()).map((log) => log.id)).toEqual(["act-2", "act-1"]);
      expect((await store.activityLogs({ since: 1500 })).map((log) => log.id)).toEqual(["act-2"]);
      expect((await store.activityLogs({ site: "other" })).length).toBe(0);
      expect((await store.activityLogs({ limit: 1 })).map((log) => log.id)).toEqual(["act-2"]);
    });

    it("tells a watcher in another process of a change within seconds", async () => {
      const other = await current!.openAnother();
      const seen: number[] = [];
      const stop = await other.watchConfiguration((version) => seen.push(version), { pollMs: 100 });
      await store.apply(desired([site("acme", [customers])]));
      await expect.poll(() => seen, { timeout: 3000, interval: 50 }).toEqual([1]);
      await stop();
      await other.close();
    });

    it("keeps a gateway's snapshot current without a database call per request", async () => {
      const gateway = await current!.openAnother();
      const cache = await SnapshotCache.start(gateway, { pollMs: 100 });
      expect(cache.current().sitesByHost.size).toBe(0);
      await store.apply(desired([site("acme", [customers], { releaseManagement: true })]));
      await expect.poll(() => cache.current().sitesByHost.has("acme.flowgate.localhost"), { timeout: 3000, interval: 50 }).toBe(true);

      await store.apply(desired([site("acme", [{ ...customers, code: "export default () => ({ result: 2 })" }], { releaseManagement: true })]));
      await store.promote({ site: "acme", workflow: "customer", environment: "Test" });
      const test = () => cache.current().sitesByHost.get("acme.flowgate.localhost")!.environments.get("test")!.table.lookup("GET", "/customers/7");
      await expect.poll(() => { const found = test(); return found.kind === "match" ? found.binding.workflow.number : null; }, { timeout: 3000, interval: 50 }).toBe(2);
      await cache.stop();
      await gateway.close();
    });

    it("serialises concurrent applies from two processes", async () => {
      const other = await current!.openAnother();
      const [a, b] = await Promise.all([store.apply(desired([site("acme", [customers])])), other.apply(desired([site("acme", [customers])]))]);
      expect([a.changes.length > 0, b.changes.length > 0].sort()).toEqual([false, true]);
      expect((await store.configuration()).sites[0]!.workflows[0]!.revisions).toHaveLength(1);
      await other.close();
    });
  });
}
