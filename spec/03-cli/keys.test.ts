import { describe, expect, it } from "vitest";
import { EXIT } from "../../cli/exit-codes";
import { cliIn } from "./run-cli";
import { openStore } from "../../store/open-store";
import { hashApiKey } from "../../plugins/flowgate/auth/secret-hash";

describe("flowgate keys and sessions", () => {
  it("creates a key, shows its secret once and stores only its hash", async () => {
    const cli = cliIn();
    await cli.run("apply", "examples/flowgate.yaml");
    const created = await cli.run("keys", "create", "--site", "acme", "--name", "ops", "--env", "test", "--workflows", "order,logo");
    expect(created.code).toBe(EXIT.ok);
    const token = created.stdout.trim();
    expect(token).toMatch(/^fg_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain("this is the only time the key is shown");
    const store = await openStore({ dataDir: cli.dataDir });
    const stored = (await store.configuration()).apiKeys.find((key) => key.name === "ops")!;
    await store.close();
    expect(stored).toMatchObject({ site: "acme", environment: "Test", workflows: ["order", "logo"], source: "cli", primaryHash: hashApiKey(token) });
    const listed = await cli.run("keys", "list", "--site", "acme");
    expect(listed.stdout).toContain("acme  ops        Test         order,logo                   enabled  no         command line");
    expect(listed.stdout).toContain("flowgate.yaml");
    expect(listed.stdout).not.toContain(token);
    expect((await cli.run("keys", "list", "--json")).stdout).not.toContain("Hash");
  });

  it("rotates, retires, disables and deletes command-line keys, and leaves the file's keys to the file", async () => {
    const cli = cliIn();
    await cli.run("apply", "examples/flowgate.yaml");
    await cli.run("keys", "create", "--site", "acme", "--name", "ops");
    const rotated = await cli.run("keys", "rotate", "--site", "acme", "--name", "ops", "--json");
    expect(JSON.parse(rotated.stdout)).toMatchObject({ site: "acme", name: "ops", token: expect.stringMatching(/^fg_/) });
    expect((await cli.run("keys", "list", "--json")).stdout).toContain('"secondary": true');
    expect((await cli.run("keys", "retire-secondary", "--site", "acme", "--name", "ops")).code).toBe(EXIT.ok);
    expect((await cli.run("keys", "disable", "--site", "acme", "--name", "ops")).stdout).toBe("API key acme/ops: disable done; every node sees it within seconds\n");
    expect((await cli.run("keys", "list")).stdout).toMatch(/acme +ops +Production +\* +disabled/);
    const fileOwned = await cli.run("keys", "disable", "--site", "acme", "--name", "reporting");
    expect(fileOwned.code).toBe(EXIT.conflict);
    expect(fileOwned.stderr).toBe("flowgate: API key acme/reporting is owned by flowgate.yaml: change it there and apply the file\n");
    expect((await cli.run("keys", "create", "--site", "acme", "--name", "ops")).code).toBe(EXIT.conflict);
    expect((await cli.run("keys", "create", "--site", "acme", "--name", "x", "--workflows", "nope")).stderr).toBe('flowgate: Site "acme" has no Workflow "nope"\n');
    expect((await cli.run("keys", "delete", "--site", "acme", "--name", "ops")).code).toBe(EXIT.ok);
    expect((await cli.run("keys", "delete", "--site", "acme", "--name", "ops")).code).toBe(EXIT.notFound);
    // Applying the file again keeps keys made on the command line, and changes nothing else.
    await cli.run("keys", "create", "--site", "acme", "--name", "kept");
    expect((await cli.run("apply", "examples/flowgate.yaml")).stdout).toBe("no changes: the store already matches the file\n");
    expect((await cli.run("keys", "list")).stdout).toContain("kept");
  });

  it("revokes a user's sessions", async () => {
    const cli = cliIn();
    await cli.run("apply", "examples/flowgate.yaml");
    const store = await openStore({ dataDir: cli.dataDir });
    await store.createSession("alice", hashApiKey("token-1"), Date.now(), Date.now() + 60_000);
    await store.close();
    expect((await cli.run("sessions", "revoke", "--user", "alice")).stdout).toBe("revoked 1 session(s) of alice\n");
  });
});
