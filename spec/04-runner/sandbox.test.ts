import { afterAll, describe, expect, it } from "vitest";
import { revisionKey, Sandbox } from "../../runner/sandbox/sandbox";
import { meta, recordingHost, revision } from "./revisions";

const sandbox = new Sandbox({ instancesPerRevision: 2 });
afterAll(() => sandbox.close());

describe("running Workflow code in the sandbox", () => {
  it("calls the default export with the inputs and a context, sync or async", async () => {
    const sync = revision("export default function (inputs, context) { return { sum: inputs.a + inputs.b, env: context.environment, where: context.site + '/' + context.activityId }; }");
    expect(await sandbox.run(sync, { a: 1, b: 2 }, meta({ environment: "Test" }), recordingHost())).toMatchObject({ ok: true, outputs: { sum: 3, env: "Test", where: "acme/act-1" } });
    const async = revision("export default async (inputs) => { await null; return { twice: inputs.n * 2 }; }");
    expect(await sandbox.run(async, { n: 21 }, meta(), recordingHost())).toMatchObject({ ok: true, outputs: { twice: 42 } });
  });

  it("passes bytes in and out unchanged", async () => {
    const echo = revision("export default ({ FgRequestBody }) => ({ FgResponseBody: FgRequestBody.map((byte) => 255 - byte), size: FgRequestBody.length })");
    const input = new Uint8Array(1024 * 1024).map((_, index) => index % 256);
    const outcome = await sandbox.run(echo, { FgRequestBody: input }, meta(), recordingHost());
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { FgResponseBody, size } = outcome.outputs as { FgResponseBody: Uint8Array; size: number };
    expect(size).toBe(1024 * 1024);
    expect(FgResponseBody).toBeInstanceOf(Uint8Array);
    expect(FgResponseBody[0]).toBe(255);
    expect(FgResponseBody[1025]).toBe(255 - 1);
  });

  it("offers logging, settings, XML, outbound HTTP and calling another Workflow through the context", async () => {
    const code = `export default async function (inputs, context) {
      context.log("starting", { id: inputs.id });
      context.log.warn("careful");
      const doc = context.xml.parse("<Quote currency='USD'><Price>12.5</Price></Quote>");
      const xml = context.xml.build({ Answer: { "@_id": inputs.id, Value: 42 } });
      const response = await context.http.request({ url: context.settings.backend + "/prices" });
      const other = await context.callWorkflow("pricing", { id: inputs.id });
      let frozen = "no";
      try { context.settings.backend = "x"; } catch { frozen = "yes"; }
      return { price: doc.Quote.Price, currency: doc.Quote["@_currency"], xml, status: response.status, body: response.body, other, frozen };
    }`;
    const host = recordingHost({
      http: async (request) => ({ status: 201, headers: { "content-type": "text/plain" }, body: `fetched ${(request as { url: string }).url}` }),
      callWorkflow: async (workflow, inputs) => ({ from: workflow, inputs }),
    });
    const outcome = await sandbox.run(revision(`"use strict";\n${code}`), { id: "7" }, meta({ settings: { backend: "https://test.example" } }), host);
    expect(outcome).toMatchObject({
      ok: true,
      outputs: {
        price: 12.5,
        currency: "USD",
        xml: '<Answer id="7"><Value>42</Value></Answer>',
        status: 201,
        body: "fetched https://test.example/prices",
        other: { from: "pricing", inputs: { id: "7" } },
        frozen: "yes",
      },
    });
    expect(host.logged).toEqual(['info: starting {"id":"7"}', "warn: careful"]);
  });

  it("reports a thrown error with its message, without host paths", async () => {
    const outcome = await sandbox.run(revision("export default () => { throw new Error('no such customer'); }"), {}, meta(), recordingHost());
    expect(outcome).toMatchObject({ ok: false, failure: "error" });
    if (outcome.ok) return;
    expect(outcome.message).toContain("Error: no such customer");
    expect(outcome.message).not.toMatch(/\/work|node_modules|node:/);
  });

  it("refuses code that does not compile, lacks a default export, or imports", async () => {
    expect(await sandbox.run(revision("export default function ("), {}, meta(), recordingHost())).toMatchObject({ ok: false, failure: "invalid-code", message: expect.stringContaining("does not compile") });
    expect(await sandbox.run(revision("export const x = 1;"), {}, meta(), recordingHost())).toMatchObject({ ok: false, failure: "invalid-code", message: expect.stringContaining("must export a default function") });
    expect(await sandbox.run(revision("import fs from 'fs'; export default () => fs"), {}, meta(), recordingHost())).toMatchObject({
      ok: false,
      failure: "invalid-code",
      message: expect.stringContaining('cannot import "fs"'),
    });
  });

  it("refuses outputs that are not plain data", async () => {
    expect(await sandbox.run(revision("export default () => ({ f() {} })"), {}, meta(), recordingHost())).toMatchObject({ ok: false, failure: "invalid-output" });
  });

  it("stops a Workflow at its wall-clock, CPU and memory limits, and replaces its instance", async () => {
    const slow = revision("export default async (inputs, context) => { await context.http.request({ url: 'x' }); return {}; }", { timeoutMs: 200 });
    const hangingHost = recordingHost({ http: () => new Promise(() => undefined) });
    expect(await sandbox.run(slow, {}, meta(), hangingHost)).toEqual({ ok: false, failure: "timeout", message: "the Workflow ran past its time limit of 200 ms" });

    const spin = revision("let calls = 0; export default (inputs) => { calls++; if (inputs.spin) while (true) {} return { calls }; }", { cpuMs: 100 });
    expect(await sandbox.run(spin, {}, meta(), recordingHost())).toMatchObject({ ok: true, outputs: { calls: 1 } });
    expect(await sandbox.run(spin, {}, meta(), recordingHost())).toMatchObject({ ok: true, outputs: { calls: 2 } });
    expect(await sandbox.run(spin, { spin: true }, meta(), recordingHost())).toEqual({ ok: false, failure: "cpu", message: "the Workflow used more than its CPU time limit of 100 ms" });
    // A fresh instance: module state starts again.
    expect(await sandbox.run(spin, {}, meta(), recordingHost())).toMatchObject({ ok: true, outputs: { calls: 1 } });

    const asyncSpin = revision("export default async () => { while (true) { await null; } }", { cpuMs: 100 });
    expect(await sandbox.run(asyncSpin, {}, meta(), recordingHost())).toMatchObject({ ok: false, failure: "cpu" });

    const hog = revision("export default () => { const keep = []; while (true) keep.push(new Array(1e5).fill(Math.random())); }", { memoryMb: 16, cpuMs: 5000, timeoutMs: 10000 });
    expect(await sandbox.run(hog, {}, meta(), recordingHost())).toEqual({ ok: false, failure: "memory", message: "the Workflow went over its memory limit of 16 MB" });
  });

  it("leaves other calls alone when one is stopped", async () => {
    const shared = revision("export default async (inputs, context) => { if (inputs.hang) await context.http.request({}); return { ok: inputs.n }; }", { timeoutMs: 300 });
    const hang = sandbox.run(shared, { hang: true }, meta(), recordingHost({ http: () => new Promise(() => undefined) }));
    const others = Promise.all([1, 2, 3].map((n) => sandbox.run(shared, { n }, meta(), recordingHost())));
    expect((await others).map((outcome) => outcome.ok && outcome.outputs)).toEqual([{ ok: 1 }, { ok: 2 }, { ok: 3 }]);
    expect((await hang).ok).toBe(false);
  });

  it("runs a Workflow whose synchronous part is long again off the fast path, with no effect done twice", async () => {
    const fastSandbox = new Sandbox({ syncBudgetMs: 5 });
    let requests = 0;
    const host = recordingHost({ http: async () => ({ status: 200, headers: {}, body: String(++requests) }) });
    const heavy = revision(
      "export default async (inputs, context) => { context.log('starting'); const answer = context.http.request({ url: 'https://example.test' }); let sum = 0; for (let i = 0; i < 5e7; i++) sum += i % 7; return { sum, answer: (await answer).body }; }",
      { cpuMs: 5000, timeoutMs: 10000 },
    );
    const first = await fastSandbox.run(heavy, {}, meta(), host);
    expect(first).toMatchObject({ ok: true, outputs: { answer: "1" } });
    expect(requests).toBe(1);
    expect(host.logged).toEqual(["info: starting"]);
    // From now on the revision skips the fast path: no second attempt, no second request.
    expect(await fastSandbox.run(heavy, {}, meta(), host)).toMatchObject({ ok: true, outputs: { answer: "2" } });
    expect(requests).toBe(2);
    fastSandbox.close();
  });

  it("never lets work a call left behind act for the next call", async () => {
    const code = `let leftover = null;
      export default async (inputs, context) => {
        if (inputs.first) { leftover = () => context.log("from the first call"); return { done: 1 }; }
        leftover();
        return { done: 2 };
      };`;
    const reused = new Sandbox({ instancesPerRevision: 1, syncBudgetMs: 0 });
    const workflow = revision(code);
    await reused.run(workflow, { first: true }, meta(), recordingHost());
    const second = recordingHost();
    const outcome = await reused.run(workflow, {}, meta(), second);
    expect(outcome).toMatchObject({ ok: false, failure: "error", message: expect.stringContaining("the context is only usable during its own call") });
    expect(second.logged).toEqual([]);
    reused.close();
  });

  it("hides the service's internals even from a module's top-level code", async () => {
    const code = "const seen = [typeof __fg_context, typeof __fg_settle, typeof __fg_log, typeof __fg_http]; export default () => ({ seen });";
    expect(await sandbox.run(revision(code), {}, meta(), recordingHost())).toMatchObject({ ok: true, outputs: { seen: ["undefined", "undefined", "undefined", "undefined"] } });
  });

  it("reports running out of memory after an await as a memory failure, not a timeout", async () => {
    const hog = revision("export default async () => { await null; const keep = []; while (true) keep.push(new Array(1e5).fill(Math.random())); }", { memoryMb: 16, cpuMs: 8000, timeoutMs: 8000 });
    expect(await sandbox.run(hog, {}, meta(), recordingHost())).toMatchObject({ ok: false, failure: "memory" });
  });

  it("keeps host objects out of reach", async () => {
    const attempts = [
      "this.constructor.constructor('return process')()",
      "(function () {}).constructor('return process')()",
      "Function('return this')().process",
      "globalThis.require",
      "typeof __fg_http === 'undefined' ? undefined : __fg_http",
      "typeof __fg_context === 'undefined' ? undefined : __fg_context",
      "globalThis.Buffer",
      "typeof fetch === 'undefined' ? undefined : fetch",
      "eval('typeof process === \"undefined\" ? undefined : process')",
    ];
    for (const attempt of attempts) {
      const code = `export default function () { let value; try { value = ${attempt}; } catch (error) { return { blocked: String(error.message) }; } return { value: value === undefined ? "undefined" : typeof value }; }`;
      const outcome = await sandbox.run(revision(code), {}, meta(), recordingHost());
      expect(outcome.ok, attempt).toBe(true);
      if (outcome.ok) expect(outcome.outputs, attempt).not.toEqual({ value: "object" });
      if (outcome.ok) expect(outcome.outputs, attempt).not.toEqual({ value: "function" });
    }
    const dynamicImport = await sandbox.run(revision("export default async () => { const fs = await import('fs'); return { fs: typeof fs }; }"), {}, meta(), recordingHost());
    expect(dynamicImport.ok).toBe(false);
  });

  it("drops the warm instances of revisions no longer live", async () => {
    const counting = revision("let calls = 0; export default () => ({ calls: ++calls });");
    await sandbox.run(counting, {}, meta(), recordingHost());
    expect(await sandbox.run(counting, {}, meta(), recordingHost())).toMatchObject({ outputs: { calls: 2 } });
    sandbox.retain((key) => key !== revisionKey(counting));
    expect(await sandbox.run(counting, {}, meta(), recordingHost())).toMatchObject({ outputs: { calls: 1 } });
  });

  it("never shares an instance between Sites", async () => {
    const code = "let seen = []; export default (inputs, context) => { seen.push(context.site); return { seen }; }";
    const one = revision(code, {}, "one");
    const two = { ...one, site: "two" };
    await sandbox.run(one, {}, meta({ site: "one" }), recordingHost());
    expect(await sandbox.run(two, {}, meta({ site: "two" }), recordingHost())).toMatchObject({ ok: true, outputs: { seen: ["two"] } });
  });
});
