import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BrowserOpener, buildProgram } from "./program";

// The CLI as a process: what it prints on which stream and the exit code it ends with, against
// a local HTTP server that answers like the service does.

const cli = path.join(import.meta.dirname, "cli.ts");
const tsx = import.meta.resolve("tsx");
const compileCache = path.join(tmpdir(), "node-compile-cache");
// Each case starts a process; the machine is shared.
vi.setConfig({ testTimeout: 30_000 });

// Every command, in the order --help lists them.
const specCommands = [
  "setup",
  "checkin",
  "auth:agent-register",
  "auth:status",
  "organization:update",
  "settlement:configure",
  "settlement:sweeps",
  "webhooks:configure",
  "paylinks:create",
  "paylinks:list",
  "paylinks:get",
  "paylinks:disable",
  "subscriptions:list",
  "subscriptions:get",
  "subscriptions:cancel",
  "refunds:create",
  "refunds:list",
  "refunds:get",
  "reports:payments",
  "reports:refunds",
  "payments:create",
  "payments:status",
  "webhooks:verify",
  "mcp",
];
const apiKey = "sk_live_unit_test_key_0123456789";

type Answer = { status: number; body: unknown };
const answers = new Map<string, Answer>();
const requestedUrls: string[] = [];
const requestBodies: { key: string | undefined; body: string }[] = [];
let server: Server;
let apiBaseUrl: string;
let configHome: string;

beforeAll(async () => {
  configHome = await mkdtemp(path.join(tmpdir(), "kit-cli-"));
  server = createServer((request, response) => {
    requestedUrls.push(request.url ?? "");
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    // Answered once the body is in, so a test reads it as soon as the CLI exits.
    request.on("end", () => {
      requestBodies.push({ key: request.headers["idempotency-key"] as string | undefined, body });
      const answer = answers.get(`${request.method} ${request.url?.split("?")[0]}`) ?? {
        status: 404,
        body: {
          error: { type: "invalid_request_error", code: "not_found", message: "No such route." },
          requestId: "req_404",
        },
      };
      response.writeHead(answer.status, { "content-type": "application/json", "x-request-id": "req_1" });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiBaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  server.close();
  await rm(configHome, { recursive: true, force: true });
});

function runCli(args: string[], env: Record<string, string | undefined> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      // tsx's loader in the CLI's own process (tsx's command line would start a second Node), and
      // Node's compile cache, shared by the cases: each starts the CLI afresh.
      ["--import", tsx, cli, ...args],
      {
        env: {
          NODE_COMPILE_CACHE: compileCache,
          PATH: process.env.PATH,
          HOME: configHome,
          SERVICE_CONFIG_HOME: configHome,
          SERVICE_API_BASE_URL: apiBaseUrl,
          SERVICE_API_KEY: apiKey,
          ...env,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

const envelope = (status: number, type: string, code: string) => ({
  status,
  body: { success: false, error: { type, code, message: `${code} happened` }, requestId: "req_e" },
});

describe("crypto-checkout --format json", () => {
  it("prints exactly one JSON document, the unwrapped data, and exits 0", async () => {
    answers.set("GET /api/private/paylinks/7a1c", {
      status: 200,
      body: {
        success: true,
        data: { id: "7a1c", name: "Shirt", amount: "25.00", currency: "USD", enabled: true },
      },
    });
    const result = await runCli(["paylinks:get", "--id", "7a1c", "--format", "json"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({
      id: "7a1c",
      name: "Shirt",
      amount: "25.00",
      currency: "USD",
      enabled: true,
    });
  });

  it.each([
    ["401 (rejected credential)", envelope(401, "authentication_error", "invalid_api_key"), 3],
    ["403 (read-only credential)", envelope(403, "permission_error", "insufficient_access"), 3],
    ["400 (invalid field)", envelope(400, "invalid_request_error", "invalid_field"), 4],
    ["404 (unknown id)", envelope(404, "invalid_request_error", "not_found"), 4],
    ["500", envelope(500, "api_error", "internal_error"), 4],
  ])(
    "maps a service answer %s to its exit code with the service's envelope",
    async (_name, answer, exitCode) => {
      answers.set("GET /api/private/organization/current", answer);
      const result = await runCli(["auth:status", "--format", "json"]);
      expect(result).toMatchObject({ code: exitCode, stderr: "" });
      expect(JSON.parse(result.stdout)).toEqual({
        error: {
          type: answer.body.error.type,
          code: answer.body.error.code,
          message: answer.body.error.message,
        },
        requestId: "req_e",
      });
    },
  );

  it.each([
    ["an unknown option", ["paylinks:list", "--bogus"], "unknown_option"],
    ["a missing required option", ["paylinks:get"], "missing_mandatory_option_value"],
    ["rows out of range", ["paylinks:list", "--rows", "500"], "invalid_argument"],
    ["an unknown command", ["paylinks:explode"], "unknown_command"],
    ["invalid JSON", ["paylinks:create", "--json", "{nope"], "invalid_json"],
    ["disable without --confirm", ["paylinks:disable", "--id", "7a1c"], "confirmation_required"],
    ["cancel without --confirm", ["subscriptions:cancel", "--id", "sub_1"], "confirmation_required"],
    [
      "refund without --confirm",
      ["refunds:create", "--invoice", "inv_1", "--destination", "payer"],
      "confirmation_required",
    ],
    ["an unknown refund status", ["refunds:list", "--status", "lost"], "invalid_argument"],
    [
      "an unknown adapter",
      ["webhooks:configure", "--url", "http://x.test", "--adapter", "SOAP"],
      "invalid_argument",
    ],
  ])("exits 2 on %s with one error envelope", async (_name, args, code) => {
    const result = await runCli([...args, "--format", "json"]);
    expect(result).toMatchObject({ code: 2, stderr: "" });
    expect(JSON.parse(result.stdout).error).toMatchObject({ type: "invalid_request_error", code });
  });

  it("exits 3 without any credential and 4 when the service cannot be reached", async () => {
    const missing = await runCli(["auth:status", "--format", "json"], { SERVICE_API_KEY: undefined });
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout).error.code).toBe("not_authenticated");
    const unreachable = await runCli(["auth:status", "--format", "json"], {
      SERVICE_API_BASE_URL: "http://127.0.0.1:9/api",
    });
    expect(unreachable.code).toBe(4);
    expect(JSON.parse(unreachable.stdout).error.code).toBe("service_unreachable");
  });
});

describe("crypto-checkout settlement:sweeps", () => {
  const sweep = {
    id: "swp_1",
    object: "sweep",
    status: "FAILED",
    amount: "25.5",
    token: "USDC",
    network: "base",
    fromAddress: "0xdeposit",
    toAddress: "0xwallet",
    failureReason: "gas wallet empty",
  };

  it("asks for the filtered page and prints a line a sweep", async () => {
    answers.set("GET /api/private/sweeps", {
      status: 200,
      body: { success: true, data: { data: [sweep], total: 7, page: 2 } },
    });
    const result = await runCli([
      "settlement:sweeps",
      "--status",
      "FAILED",
      "--network",
      "base",
      "--page",
      "2",
    ]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const query = new URL(requestedUrls.at(-1) ?? "", "http://x").searchParams;
    expect(Object.fromEntries(query)).toEqual({ status: "FAILED", network: "base", page: "2" });
    expect(result.stdout.trim().split("\n")).toEqual([
      "swp_1  FAILED  25.5 USDC on base  0xdeposit → 0xwallet  (gas wallet empty)",
      "1 of 7 (page 2)",
    ]);
  });

  it("refuses a status that is not a sweep status without asking the service", async () => {
    const asked = requestedUrls.length;
    const result = await runCli(["settlement:sweeps", "--status", "LOST", "--format", "json"]);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout).error.code).toBe("invalid_argument");
    expect(requestedUrls).toHaveLength(asked);
  });
});

describe("crypto-checkout refunds", () => {
  const refund = {
    id: "rfd_1",
    object: "refund",
    invoiceId: "inv_1",
    status: "pending",
    amount: "16.5",
    token: "USDC",
    network: "base",
    destination: "payer",
    toAddress: "0xPayer",
    claimUrl: null,
    txHash: null,
    pendingReason: null,
    failureReason: null,
  };

  it("creates with a new Idempotency-Key per call unless given, lists by invoice and status, gets one", async () => {
    answers.set("POST /api/private/refunds", { status: 200, body: { success: true, data: refund } });
    const create = ["refunds:create", "--invoice", "inv_1", "--amount", "16.5", "--destination", "payer"];
    const keys: (string | undefined)[] = [];
    for (const extra of [[], [], ["--idempotency-key", "order-77-refund-1"]]) {
      const result = await runCli([...create, ...extra, "--confirm", "--format", "json"]);
      expect(result).toMatchObject({ code: 0, stderr: "" });
      const printed = JSON.parse(result.stdout);
      expect(printed).toMatchObject({ id: "rfd_1", status: "pending" });
      const sent = requestBodies.at(-1);
      expect(JSON.parse(sent?.body ?? "")).toEqual({
        invoiceId: "inv_1",
        amount: "16.5",
        destination: "payer",
      });
      expect(printed.idempotencyKey).toBe(sent?.key);
      keys.push(sent?.key);
    }
    expect(keys[0]).toMatch(/^cc-agent-/);
    expect(new Set(keys).size).toBe(3);
    expect(keys[2]).toBe("order-77-refund-1");

    answers.set("GET /api/private/refunds", {
      status: 200,
      body: {
        success: true,
        data: { object: "list", data: [refund], page: 1, rows: 20, total: 1, hasMore: false },
      },
    });
    const list = await runCli(["refunds:list", "--invoice", "inv_1", "--status", "pending"]);
    expect(list).toMatchObject({ code: 0, stderr: "" });
    const query = new URL(requestedUrls.at(-1) ?? "", "http://x").searchParams;
    expect(Object.fromEntries(query)).toEqual({ invoiceId: "inv_1", status: "pending" });
    expect(list.stdout.trim().split("\n")).toEqual([
      "rfd_1  pending  16.5 USDC on base  inv_1 → 0xPayer",
      "1 of 1 (page 1)",
    ]);

    answers.set("GET /api/private/refunds/rfd_1", { status: 200, body: { success: true, data: refund } });
    const get = await runCli(["refunds:get", "--id", "rfd_1", "--format", "json"]);
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout)).toEqual(refund);
  });
});

describe("crypto-checkout webhooks:verify", () => {
  const secret = "whsec_unit";
  const body = '{"id":"evt_1","type":"payment.confirmed"}';
  const t = Math.floor(Date.now() / 1000);
  const header = `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;

  it.each([
    ["the signed body", body, 0, undefined],
    ["a tampered body", body.replace("confirmed", "refunded"), 1, "signature_mismatch"],
  ])("checks %s offline", async (_name, payload, exitCode, code) => {
    const result = await runCli(
      ["webhooks:verify", "--payload", payload, "--signature", header, "--format", "json"],
      {
        SERVICE_WEBHOOK_SECRET: secret,
        SERVICE_API_BASE_URL: "http://127.0.0.1:9/api",
      },
    );
    expect(result.code).toBe(exitCode);
    const printed = JSON.parse(result.stdout);
    if (code) expect(printed.error).toMatchObject({ type: "check_failed", code });
    else expect(printed).toMatchObject({ valid: true, timestamp: t });
    expect(result.stdout + result.stderr).not.toContain(secret);
  });
});

describe("crypto-checkout in text mode", () => {
  it("writes errors to stderr and nothing to stdout", async () => {
    answers.set(
      "GET /api/private/organization/current",
      envelope(401, "authentication_error", "invalid_api_key"),
    );
    const result = await runCli(["auth:status"]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Error invalid_api_key: invalid_api_key happened [request req_e]");
  });

  it("shows where buyers and agents pay a paylink", async () => {
    answers.set("GET /api/private/paylinks/7a1c", {
      status: 200,
      body: {
        success: true,
        data: {
          id: "7a1c",
          name: "Shirt",
          amount: "25.00",
          currency: "USD",
          enabled: true,
          url: "https://pay.shop.test/pay/7a1c",
          x402Url: "https://shop.test/api/x402/paylinks/7a1c",
        },
      },
    });
    const result = await runCli(["paylinks:get", "--id", "7a1c"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^URL: +https:\/\/pay\.shop\.test\/pay\/7a1c$/m);
    expect(result.stdout).toMatch(/^x402 URL: +https:\/\/shop\.test\/api\/x402\/paylinks\/7a1c$/m);
  });

  it("prints what a wallet pays for a session started on Solana", async () => {
    const paymentUri = "solana:Recv1111111111111111111111111111111111111?amount=25.000000&reference=Ref1111";
    answers.set("POST /api/checkout-sessions", {
      status: 200,
      body: {
        id: "ycs_1",
        status: "OPEN",
        url: "https://pay.shop.test/pay/ycs_1",
        x402Url: "https://shop.test/api/x402/checkout-sessions/ycs_1",
        paymentRequest: {
          id: "inv_1",
          network: "solana",
          networkName: "Solana",
          token: "USDC",
          amountDue: "25.000000",
          depositAddress: "Recv1111111111111111111111111111111111111",
          reference: "Ref1111",
          paymentUri,
        },
      },
    });
    const body = { amount: "25.00", currency: "USD", network: "solana", token: "USDC" };
    const result = await runCli(["payments:create", "--json", JSON.stringify(body)]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(requestBodies.at(-1)?.body ?? "{}")).toEqual(body);
    expect(result.stdout).toMatch(/^Payment: +inv_1 25\.000000 USDC on Solana$/m);
    expect(result.stdout).toMatch(/^Deposit address: Recv1+$/m);
    expect(result.stdout).toMatch(/^Reference: +Ref1111$/m);
    expect(result.stdout).toContain(`Payment URI:     ${paymentUri}`);
  });

  it("has --help with an example for every command", async () => {
    const result = await runCli(["payments:create", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Example:\n {2}\$ crypto-checkout payments:create --json/);
    const commands = buildProgram().commands;
    expect(commands.map((command) => command.name())).toEqual(specCommands);
    for (const command of commands) {
      let help = "";
      command.configureOutput({ writeOut: (text) => (help += text) });
      command.outputHelp();
      expect(help, command.name()).toMatch(
        new RegExp(`Example:\\n {2}\\$ crypto-checkout ${command.name()}`),
      );
    }
  });
});

describe("crypto-checkout setup opens the approval page", () => {
  const setupAnswer = (loginUrl: string) => ({
    status: 201,
    body: {
      object: "agent_setup",
      status: "pending",
      agentName: "shop-agent",
      access: "read",
      userCode: "WDJB-MJHT",
      loginUrl,
      setupToken: "setup_unit",
      checkinToken: "checkin_unit",
      expiresAt: "2030-01-01T00:00:00.000Z",
      pollIntervalSeconds: 5,
    },
  });

  async function setupInProcess(browser: BrowserOpener, args: string[] = []) {
    vi.stubEnv("SERVICE_API_BASE_URL", apiBaseUrl);
    vi.stubEnv("SERVICE_CONFIG_HOME", configHome);
    let printed = "";
    const write = vi.spyOn(process.stdout, "write").mockImplementation((text) => {
      printed += String(text);
      return true;
    });
    try {
      await buildProgram(browser).parseAsync(["node", "cli", "setup", "--agent", "shop-agent", ...args]);
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
    }
    return printed;
  }

  it.each([
    ["another host", "https://evil.example/agent/setup?code=WDJB-MJHT"],
    ["the same host with the code filled in", "http://127.0.0.1/agent/setup?code=WDJB-MJHT"],
    ["a javascript: URL", "javascript:alert(1)"],
  ])("with the URL built from the base URL when the service answers %s", async (_name, loginUrl) => {
    answers.set("POST /api/agent/setup/start", setupAnswer(loginUrl));
    const opened: string[] = [];
    const printed = await setupInProcess({ mayOpen: () => true, open: async (url) => opened.push(url) });
    const approvalPage = `${new URL(apiBaseUrl).origin}/agent/setup`;
    expect(opened).toEqual([approvalPage]);
    expect(printed).toContain(approvalPage);
    expect(printed).not.toContain(loginUrl);
  });

  it.each([
    ["no person at a terminal (pipe or agent)", () => false, []],
    ["--no-open", () => true, ["--no-open"]],
  ])("and opens nothing with %s", async (_name, mayOpen, args) => {
    answers.set("POST /api/agent/setup/start", setupAnswer("https://evil.example/"));
    const opened: string[] = [];
    await setupInProcess({ mayOpen, open: async (url) => opened.push(url) }, args);
    expect(opened).toEqual([]);
  });
});

describe("crypto-checkout with SERVICE_API_BASE_URL", () => {
  it.each([
    ["plain http to a public host", "http://checkout.example.com/api", "insecure_base_url"],
    ["plain http to a private address", "http://10.0.0.8:3000/api", "insecure_base_url"],
    ["an odd scheme", "ftp://checkout.example.com/api", "invalid_base_url"],
  ])("refuses %s with exit 2 before any request", async (_name, baseUrl, code) => {
    for (const key of [apiKey, undefined]) {
      const result = await runCli(["auth:status", "--format", "json"], {
        SERVICE_API_BASE_URL: baseUrl,
        SERVICE_API_KEY: key,
      });
      expect(result).toMatchObject({ code: 2, stderr: "" });
      expect(JSON.parse(result.stdout).error).toMatchObject({ code, param: "SERVICE_API_BASE_URL" });
    }
  });

  it("talks to plain http on loopback", async () => {
    answers.set("GET /api/private/paylinks/7a1c", {
      status: 200,
      body: {
        success: true,
        data: { id: "7a1c", name: "Shirt", amount: "1", currency: "USD", enabled: true },
      },
    });
    const result = await runCli(["paylinks:get", "--id", "7a1c", "--format", "json"], {
      SERVICE_API_BASE_URL: apiBaseUrl.replace("127.0.0.1", "localhost"),
    });
    expect(result.code).toBe(0);
  });
});

describe("crypto-checkout prints server text", () => {
  const hostile = "\u001b]8;;https://evil.example\u0007Shirt\u001b]8;;\u0007\u001b[2J\u202Etxt.exe\u009b1m";

  it.each([
    ["text", (stdout: string) => expect(stdout).toContain("Shirttxt.exe")],
    ["json", (stdout: string) => expect(JSON.parse(stdout).name).toBe(hostile)],
  ])("without raw control characters in %s mode", async (format, check) => {
    answers.set("GET /api/private/paylinks/7a1c", {
      status: 200,
      body: {
        success: true,
        data: { id: "7a1c", name: hostile, amount: "1", currency: "USD", enabled: true },
      },
    });
    const result = await runCli(["paylinks:get", "--id", "7a1c", "--format", format]);
    expect(result.code).toBe(0);
    expect([...result.stdout].filter((character) => "\u001b\u0007\u009b\u202e".includes(character))).toEqual(
      [],
    );
    check(result.stdout);
  });
});
