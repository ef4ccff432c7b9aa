import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "@playwright/test";
import { tools, toolsFor } from "crypto-checkout-agent/catalog";
import { startWebhookReceiver } from "../scripts/test-support/webhook-receiver";
import { expect, mailboxPath, signIn, test } from "./fixtures";

// The agent kit as a user gets it: `npm pack` of packages/agent installed into an empty folder,
// its `crypto-checkout` binary run against the app under test, Chromium approving where a person
// would. Every stdout and stderr of the run is kept and scanned for secrets at the end.

const root = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);

type Run = { code: number; stdout: string; stderr: string; json: Record<string, unknown> };

let installDir: string;
const transcript: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(240_000);
  installDir = await mkdtemp(path.join(tmpdir(), "agent-kit-e2e-"));
  const packDir = path.join(installDir, "pack");
  await mkdir(packDir);
  await run("npm", ["pack", "--pack-destination", packDir], { cwd: path.join(root, "packages/agent") });
  const [tarball] = (await readdir(packDir)).filter((name) => name.endsWith(".tgz"));
  const appDir = path.join(installDir, "app");
  await mkdir(appDir);
  await writeFile(
    path.join(appDir, "package.json"),
    JSON.stringify({ name: "empty-project", private: true }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", path.join(packDir, tarball)], {
    cwd: appDir,
  });
});

test.afterAll(async () => {
  await rm(installDir, { recursive: true, force: true });
});

const binary = () => path.join(installDir, "app/node_modules/.bin/crypto-checkout");

/** Runs the installed binary with `--format json` (one JSON document expected on stdout). */
async function kit(
  configHome: string,
  baseURL: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Run> {
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      binary(),
      [...args, "--format", "json"],
      {
        cwd: path.join(installDir, "app"),
        env: {
          ...process.env,
          HOME: installDir,
          SERVICE_API_KEY: undefined,
          SERVICE_WEBHOOK_SECRET: undefined,
          SERVICE_API_BASE_URL: `${baseURL}/api`,
          SERVICE_CONFIG_HOME: configHome,
          ...env,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
  transcript.push(result.stdout, result.stderr);
  expect(result.stderr, `stderr of ${args[0]}`).toBe("");
  return { ...result, json: JSON.parse(result.stdout) };
}

async function readStored(configHome: string) {
  return JSON.parse(await readFile(path.join(configHome, "config.json"), "utf8"));
}

function expectNoSecretsPrinted(secrets: string[]) {
  const everything = transcript.join("\n");
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(10);
    expect(everything.includes(secret), `a secret (${secret.slice(0, 8)}…) was printed`).toBe(false);
  }
}

/** Approves a pending agent setup as a signed-in owner: the fixed page, where the code is typed. */
async function approveSetup(page: Page, loginUrl: string, userCode: string, agentName: string) {
  await page.goto(loginUrl);
  await page.getByLabel("Code from your agent").fill(userCode);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("agent-setup-details")).toContainText(agentName);
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Approved");
}

test("an agent installs the kit, connects through the browser, sells, and verifies the paid webhook", async ({
  page,
  merchant,
  baseURL,
  request,
}) => {
  test.setTimeout(240_000);
  const base = baseURL as string;
  const configHome = path.join(installDir, "config-setup");

  // Without --access the kit asks for read only.
  const reader = await kit(configHome, base, ["setup", "--agent", "reader-agent"]);
  expect(reader.json).toMatchObject({ agentName: "reader-agent", access: "read" });

  const started = await kit(configHome, base, ["setup", "--agent", "e2e-agent", "--access", "write"]);
  expect(started.code).toBe(0);
  expect(started.json).toMatchObject({
    object: "agent_setup",
    status: "pending",
    agentName: "e2e-agent",
    access: "write",
  });
  const { loginUrl, userCode } = started.json as { loginUrl: string; userCode: string };
  // The kit prints the fixed approval page of its own base URL; the owner types the code there.
  expect(loginUrl).toBe(`${base}/agent/setup`);
  const pending = (await readStored(configHome)).pendingSetups["e2e-agent"];

  const early = await kit(configHome, base, ["checkin", "--agent", "e2e-agent", "--timeout", "0"]);
  expect(early.code).toBe(1);
  expect(early.json).toMatchObject({ error: { code: "setup_pending" } });

  await signIn(page, merchant.email);
  await approveSetup(page, loginUrl, userCode, "e2e-agent");

  const checkedIn = await kit(configHome, base, ["checkin", "--agent", "e2e-agent"]);
  expect(checkedIn.code).toBe(0);
  expect(checkedIn.json).toMatchObject({
    object: "agent_credential",
    status: "approved",
    agentName: "e2e-agent",
    access: "write",
    organization: { id: merchant.organizationId },
  });
  expect((await stat(path.join(configHome, "config.json"))).mode & 0o777).toBe(0o600);
  expect((await stat(configHome)).mode & 0o777).toBe(0o700);
  const credential = (await readStored(configHome)).credential.token as string;
  expect(credential).toMatch(/^sk_agent_/);

  const status = await kit(configHome, base, ["auth:status"]);
  expect(status.code).toBe(0);
  expect(status.json).toMatchObject({
    authenticated: true,
    organization: { id: merchant.organizationId },
    credential: { kind: "agent", agentName: "e2e-agent" },
  });

  const paylink = await kit(configHome, base, [
    "paylinks:create",
    "--json",
    JSON.stringify({ name: "Agent T-shirt", amount: "25.00", currency: "USD" }),
  ]);
  expect(paylink.code).toBe(0);
  expect(paylink.json).toMatchObject({ object: "paylink", name: "Agent T-shirt", enabled: true });
  const listed = await kit(configHome, base, ["paylinks:list", "--page", "1", "--rows", "10"]);
  expect((listed.json.data as { id: string }[]).map((item) => item.id)).toContain(paylink.json.id);

  const receiver = await startWebhookReceiver();
  try {
    const configured = await kit(configHome, base, [
      "webhooks:configure",
      "--url",
      receiver.url,
      "--adapter",
      "NONE",
    ]);
    expect(configured.code).toBe(0);
    expect(configured.json).toMatchObject({
      action: "created",
      signingSecretStored: true,
      endpoint: { url: receiver.url },
    });
    const signingSecret = (await readStored(configHome)).webhook.signingSecret as string;
    expect(signingSecret).toMatch(/^whsec_/);

    const session = await kit(configHome, base, [
      "payments:create",
      "--json",
      JSON.stringify({
        amount: "5.00",
        currency: "USD",
        description: "Agent order",
        merchantOrderId: "agent-1",
      }),
    ]);
    expect(session.code).toBe(0);
    expect(session.json).toMatchObject({ object: "checkout_session", status: "OPEN" });
    expect(String(session.json.idempotencyKey).length).toBeGreaterThanOrEqual(16);
    const sessionId = session.json.id as string;

    // The buyer picks devnet USDC on the hosted page's API and the devnet's test wallet pays.
    const invoice = await request.post("/api/public/payments", {
      data: { checkoutSessionId: sessionId, network: "devnet", token: "USDC" },
    });
    expect(invoice.status()).toBe(201);
    const invoiceId = (await invoice.json()).id as string;
    expect((await request.post(`/api/public/payments/${invoiceId}/devnet-pay`, { data: {} })).status()).toBe(
      200,
    );

    await expect
      .poll(() => receiver.received.some((delivery) => delivery.rawBody.includes('"payment.confirmed"')), {
        timeout: 90_000,
      })
      .toBe(true);
    const delivery = receiver.received.find((item) => item.rawBody.includes('"payment.confirmed"'))!;
    const signature = delivery.headers["x-service-signature"] as string;
    const bodyFile = path.join(installDir, "delivery.json");
    await writeFile(bodyFile, delivery.rawBody);

    const accepted = await kit(configHome, base, [
      "webhooks:verify",
      "--payload",
      `@${bodyFile}`,
      "--signature",
      signature,
    ]);
    expect(accepted.code).toBe(0);
    expect(accepted.json).toMatchObject({ valid: true });
    const withEnvSecret = await kit(
      path.join(installDir, "config-empty"),
      base,
      ["webhooks:verify", "--payload", delivery.rawBody, "--signature", signature],
      { SERVICE_WEBHOOK_SECRET: signingSecret },
    );
    expect(withEnvSecret.code).toBe(0);
    const tampered = await kit(configHome, base, [
      "webhooks:verify",
      "--payload",
      delivery.rawBody.replace('"payment.confirmed"', '"payment.refunded"'),
      "--signature",
      signature,
    ]);
    expect(tampered.code).toBe(1);
    expect(tampered.json).toMatchObject({ error: { type: "check_failed", code: "signature_mismatch" } });

    const paid = await kit(configHome, base, ["payments:status", "--id", sessionId]);
    expect(paid.code).toBe(0);
    expect(paid.json).toMatchObject({ id: sessionId, payment: { invoiceId, status: "CONFIRMED" } });

    expectNoSecretsPrinted([credential, signingSecret, pending.setupToken, pending.checkinToken]);
  } finally {
    await receiver.close();
  }
});

test("a new user signs up from the agent: register, open the emailed link, register again", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL as string;
  const configHome = path.join(installDir, "config-register");
  const email = `agent-signup-${Date.now()}@example.com`;
  const register = [
    "auth:agent-register",
    "--email",
    email,
    "--project-name",
    "Agent Signup Shop",
    "--agent-name",
    "signup-agent",
    "--integration-intent",
    "accept_payments",
  ];

  const first = await kit(configHome, base, register);
  expect(first.code).toBe(0);
  expect(first.json).toMatchObject({ object: "agent_registration", status: "pending_confirmation" });
  const { pairingCode } = first.json as { pairingCode: string };
  expect(pairingCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
  const checkinToken = (await readStored(configHome)).pendingRegistration.checkinToken as string;
  expect(checkinToken).toMatch(/^cc_rct_/);

  const early = await kit(configHome, base, register);
  expect(early.json).toMatchObject({ status: "pending_confirmation", pairingCode });

  await page.goto(mailboxPath());
  await page
    .getByTestId("dev-email")
    .filter({ hasText: `To: ${email}` })
    .first()
    .getByRole("link")
    .first()
    .click();
  await expect(page.getByText("Agent Signup Shop")).toBeVisible();
  await page.getByLabel("Pairing code from your agent").fill(pairingCode);
  await page.getByRole("button", { name: "Confirm and open the dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  const done = await kit(configHome, base, register);
  expect(done.code).toBe(0);
  expect(done.json).toMatchObject({
    object: "agent_credential",
    status: "approved",
    agentName: "signup-agent",
    organization: { name: "Agent Signup Shop" },
  });
  const stored = await readStored(configHome);
  expect(stored.pendingRegistration).toBeUndefined();
  expect((await stat(path.join(configHome, "config.json"))).mode & 0o777).toBe(0o600);

  const status = await kit(configHome, base, ["auth:status"]);
  expect(status.json).toMatchObject({ organization: { name: "Agent Signup Shop" } });

  // The credential was collected; registering the same email again points to browser setup.
  const again = await kit(configHome, base, register);
  expect(again.code).toBe(4);
  expect(again.json).toMatchObject({ error: { code: "account_exists" } });

  expectNoSecretsPrinted([stored.credential.token, checkinToken]);
});

test("the installed local MCP server lists the remote tools plus the local helpers and calls the API", async ({
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL as string;
  const local = new Client({ name: "agent-kit-e2e", version: "1.0.0" });
  await local.connect(
    new StdioClientTransport({
      command: binary(),
      args: ["mcp"],
      env: {
        PATH: process.env.PATH ?? "",
        HOME: installDir,
        SERVICE_CONFIG_HOME: path.join(installDir, "config-mcp"),
        SERVICE_API_BASE_URL: `${base}/api`,
        SERVICE_API_KEY: merchant.apiKey,
      },
      stderr: "pipe",
    }),
  );
  const remote = new Client({ name: "agent-kit-e2e", version: "1.0.0" });
  await remote.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${merchant.apiKey}` } },
    }),
  );
  try {
    const localTools = (await local.listTools()).tools;
    const remoteTools = (await remote.listTools()).tools;
    const localOnly = tools.filter((tool) => tool.scope === "local-only").map((tool) => tool.name);
    expect(remoteTools.map((tool) => tool.name).sort()).toEqual(
      toolsFor("write", "remote")
        .map((tool) => tool.name)
        .sort(),
    );
    expect(localTools.map((tool) => tool.name).sort()).toEqual(
      [...remoteTools.map((tool) => tool.name), ...localOnly].sort(),
    );
    for (const remoteTool of remoteTools) {
      const localTool = localTools.find((tool) => tool.name === remoteTool.name);
      // The MCP Apps payment card (`_meta.ui`) is served by the app, so only the remote links it.
      const { _meta, ...shared } = remoteTool;
      expect(localTool, remoteTool.name).toEqual(shared);
    }

    const status = await local.callTool({ name: "service_auth_status", arguments: {} });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({
      object: "auth_status",
      organization: { id: merchant.organizationId },
      access: "write",
    });
    const created = await local.callTool({
      name: "service_paylinks_create",
      arguments: { name: "MCP mug", amount: "12.50", currency: "EUR" },
    });
    expect(created.structuredContent).toMatchObject({ object: "paylink", name: "MCP mug", amount: "12.50" });
    const read = await remote.callTool({
      name: "service_paylinks_get",
      arguments: { id: (created.structuredContent as { id: string }).id },
    });
    expect(read.structuredContent).toEqual(created.structuredContent);

    const refused = await local.callTool({
      name: "service_paylinks_get",
      arguments: { id: "00000000-0000-4000-8000-000000000000" },
    });
    const remoteRefused = await remote.callTool({
      name: "service_paylinks_get",
      arguments: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(refused.isError).toBe(true);
    const withoutRequestId = (result: typeof refused) =>
      (result.content as { text: string }[])[0].text.replace(/ Request id: .*$/, "");
    expect(withoutRequestId(refused)).toBe(withoutRequestId(remoteRefused));
  } finally {
    await local.close();
    await remote.close();
  }
});

test("a project that installs the kit imports its exports from dist, and only its exports", async () => {
  const node = (script: string) =>
    run(process.execPath, ["--input-type=module", "--eval", script], {
      cwd: path.join(installDir, "app"),
      // A project of its own: none of this repository's export conditions.
      env: { ...process.env, NODE_OPTIONS: "" },
    });
  const { stdout } = await node(`
    const shapes = await import("crypto-checkout-agent/shapes");
    const { tools } = await import("crypto-checkout-agent/catalog");
    const { verifyWebhookSignature } = await import("crypto-checkout-agent/webhooks");
    console.log(JSON.stringify({
      paylink: shapes.paylinkObject.shape.object.value,
      tools: tools.length,
      verify: typeof verifyWebhookSignature,
      resolved: import.meta.resolve("crypto-checkout-agent/shapes"),
    }));
  `);
  expect(JSON.parse(stdout)).toEqual({
    paylink: "paylink",
    tools: tools.length,
    verify: "function",
    resolved: expect.stringMatching(/\/node_modules\/crypto-checkout-agent\/dist\/shapes\/index\.js$/),
  });
  // A path into the package is refused: its exports are its whole surface.
  const filePath = ["crypto-checkout-agent", "dist/shapes/index.js"].join("/");
  await expect(node(`await import(${JSON.stringify(filePath)});`)).rejects.toThrow(
    /ERR_PACKAGE_PATH_NOT_EXPORTED/,
  );
});
