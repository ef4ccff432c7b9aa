import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { createSolanaRpc, type Address as SolanaAddress } from "@solana/kit";
import { type Address, createPublicClient, erc20Abi, http } from "viem";
import { createAgentCredential } from "../lib/agent-access/create-agent-credential";
import { devnetBuyerKey, devnetTestWallet } from "../lib/chains/devnet-account";
import { associatedTokenAccount } from "../lib/chains/solana/prepare-solana-transaction";
import { closeDb, createDb } from "../lib/db/client";
// The shared fixtures' `test`, though this test uses none of them: Playwright queues the files of
// another fixture set after all the others, which left this, one of the longest files, running
// alone on one worker at the end of the suite.
import { expect, test } from "./fixtures";

// The newcomer's first hour, as the README and docs/ tell it: the zero-setup `npm start` on a port
// that is not 3000, then every shell example of README.md and docs/*.md run as written (only the
// placeholders filled in: the address, the key, ids of things made for them), `npm run
// devnet:pay` from a second terminal without PORT, refunds to the payer on chain, and a restart
// that keeps one consistent world.

const root = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);
const port = Number(process.env.E2E_PORT ?? 3100) + 9;
const devnetPort = Number(process.env.E2E_DEVNET_PORT_BASE ?? 8700) + (port % 100);
// As scripts/e2e-server.ts places it: clear of the devnets and of the default 8899.
const solanaPort = devnetPort + 200;

/** Commands not run here, each with the reason; every one must still be in the docs. */
const notRun: Record<string, string> = {
  "npm install && npm start": "this test starts the app with `npm start`; the install is the clone's",
  "npm test": "the suite this test is part of",
  "npm install openapi-fetch && npm install -D openapi-typescript": "installs into the reader's own project",
  "claude mcp add": "a client program (Claude Code) that is not installed here",
  "npx @modelcontextprotocol/inspector": "downloads the inspector from the registry",
  "pg_dump ": "needs the operator's PostgreSQL server and its client tools",
  "createdb ": "needs the operator's PostgreSQL server and its client tools",
};

/** Whether `text` leaves a quote open (single quotes take everything; a backslash escapes elsewhere). */
function openQuote(text: string): boolean {
  let quote: string | null = null;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quote === "'") {
      if (char === "'") quote = null;
    } else if (char === "\\") index++;
    else if (char === quote) quote = null;
    else if (!quote && (char === "'" || char === '"')) quote = char;
  }
  return quote !== null;
}

/** The commands of a shell block: comments dropped, continued lines and quoted newlines joined. */
function commandsOf(block: string): string[] {
  const commands: string[] = [];
  let current = "";
  for (const line of block.split("\n")) {
    if (!current && (line.trim() === "" || line.trim().startsWith("#"))) continue;
    current += current ? `\n${line}` : line;
    if (!current.endsWith("\\") && !openQuote(current)) {
      commands.push(current);
      current = "";
    }
  }
  return commands;
}

async function shellExamples() {
  const files = ["README.md", ...(await readdirMarkdown(path.join(root, "docs")))];
  const examples: { where: string; command: string }[] = [];
  for (const file of files) {
    const text = await readFile(path.join(root, file), "utf8");
    for (const match of text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
      const line = text.slice(0, match.index).split("\n").length;
      for (const command of commandsOf(match[1])) examples.push({ where: `${file}:${line}`, command });
    }
  }
  return examples;
}

async function readdirMarkdown(dir: string) {
  const { readdir } = await import("node:fs/promises");
  return (await readdir(dir)).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`);
}

type App = { child: ChildProcess; output: () => string };

/** `npm start` (as its script runs it) with nothing configured but the port and the data directory. */
async function startZeroSetup(env: NodeJS.ProcessEnv): Promise<App> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const app = { child, output: () => output };
  await expect
    .poll(() => (child.exitCode === null ? /Try it:/.test(output) : `exited: ${output}`), {
      timeout: 240_000,
      intervals: [500],
    })
    .toBe(true);
  return app;
}

async function stopApp(app: App) {
  if (app.child.exitCode !== null) return;
  const exited = new Promise((resolve) => app.child.once("exit", resolve));
  process.kill(-(app.child.pid as number), "SIGTERM");
  await exited;
}

test("the README's and docs' examples run as written against npm start on another port", async () => {
  test.setTimeout(600_000);
  const dataDir = await mkdtemp(path.join(tmpdir(), "cc-docs-"));
  const work = path.join(dataDir, "work");
  await mkdir(work);
  // The reader's folder: the project's packages within reach of `node` and `npx`.
  await symlink(path.join(root, "node_modules"), path.join(work, "node_modules"));
  await writeFile(path.join(work, "package.json"), '{"type": "module"}');
  // A PNG for the logo upload example.
  await writeFile(
    path.join(work, "logo.png"),
    Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    ),
  );
  // A shell with nothing of the test run's configuration: the zero-setup default.
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^(PORT|HOST|DATABASE_URL|TEST_DATABASE_URL|NEXTAUTH_URL|NODE_ENV|SERVICE_.*|E2E_.*)$/.test(name),
    ),
  );
  const terminal = { ...clean, SERVICE_DATA_DIR: dataDir, LOG_LEVEL: "info" } as unknown as NodeJS.ProcessEnv;
  let app = await startZeroSetup({
    ...terminal,
    PORT: String(port),
    SERVICE_DEVNET_PORT: String(devnetPort),
    SERVICE_SOLANA_DEVNET_PORT: String(solanaPort),
  });
  try {
    const banner = app.output();
    const baseUrl = `http://localhost:${port}`;
    expect(banner).toContain(`is running at ${baseUrl}`);
    const apiKey = /API key: (sk_live_\S+)/.exec(banner)?.[1] as string;
    const organizationId = /Demo merchant (org_\S+)/.exec(banner)?.[1] as string;
    const usdc = /test USDC (0x[0-9a-fA-F]{40})/.exec(banner)?.[1] as Address;
    expect(apiKey && organizationId && usdc).toBeTruthy();
    // The local Solana chain's line and its test buyer's, as the banner prints them.
    const [, solanaUrl, solanaMint] = /solana: +(http\S+) .* test USDC (\w+)/.exec(banner) ?? [];
    const [, solanaBuyer, solanaBuyerKey] = /buyer: +(\w+) holds \S+ SOL .*; key (\w+)/.exec(banner) ?? [];
    expect(solanaUrl && solanaMint && solanaBuyer && solanaBuyerKey).toBeTruthy();
    const solanaRpc = createSolanaRpc(solanaUrl);
    const solanaUsdcOf = async (owner: string) => {
      const account = await associatedTokenAccount(owner as SolanaAddress, solanaMint as SolanaAddress);
      return BigInt((await solanaRpc.getTokenAccountBalance(account).send()).value.amount);
    };
    const chain = createPublicClient({ transport: http(`http://127.0.0.1:${devnetPort}`) });
    const usdcOf = (address: Address) =>
      chain.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [address] });

    const api = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          "content-type": "application/json",
          "idempotency-key": `docs-examples-${crypto.randomUUID()}`,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = await response.json();
      expect(response.status, `${method} ${route}: ${JSON.stringify(json)}`).toBeLessThan(300);
      // The private API wraps its answers in `data`; checkout sessions answer Stripe's way.
      return route.startsWith("/api/private/") ? json.data : json;
    };
    /** A second terminal: the project folder, no PORT, the same data directory. */
    const devnetPay = async (invoiceId: string) => {
      const { stdout } = await run("npm", ["run", "--silent", "devnet:pay", "--", invoiceId], {
        cwd: root,
        env: terminal,
      });
      return stdout;
    };
    const startPayment = async (session: { id: string }, token: string) => {
      const started = await fetch(`${baseUrl}/api/public/payments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ checkoutSessionId: session.id, network: "devnet", token }),
      });
      expect(started.status).toBe(201);
      return (await started.json()) as { id: string };
    };
    const confirmed = (invoiceId: string) =>
      expect
        .poll(
          async () => (await (await fetch(`${baseUrl}/api/public/payments/${invoiceId}`)).json()).status,
          {
            timeout: 60_000,
          },
        )
        .toBe("CONFIRMED");

    // What the examples' placeholders stand for, made the way the docs make them.
    const webhook = await api("POST", "/api/private/organization/webhook-endpoints", {
      name: "Docs",
      url: `${baseUrl}/api/health`,
      adapter: "NONE",
      enabled: true,
    });
    const paylink = await api("POST", "/api/private/paylinks/create", {
      name: "Sticker",
      amount: "1.00",
      currency: "USD",
    });
    const session = await api("POST", "/api/checkout-sessions", { amount: "49.00", currency: "USD" });
    const invoice = await startPayment(session, "USDC");
    // devnet:pay finds the app on its port from a terminal without PORT.
    expect(await devnetPay(invoice.id)).toMatch(/^sent 49\.000000 USDC to 0x/);
    await confirmed(invoice.id);
    const recurring = await api("POST", "/api/checkout-sessions", {
      amount: "5.00",
      currency: "USD",
      recurring: { interval: "month" },
    });
    const renewal = await startPayment(recurring, "USDC");
    await devnetPay(renewal.id);
    await confirmed(renewal.id);
    const firstSubscription = async () => (await api("GET", "/api/private/subscriptions")).data[0]?.id ?? "";
    await expect.poll(firstSubscription, { timeout: 30_000 }).toMatch(/^sub_/);
    const subscriptionId = await firstSubscription();
    const unpaidSession = await api("POST", "/api/checkout-sessions", { amount: "3.00", currency: "USD" });
    const database = createDb(JSON.parse(await readFile(path.join(dataDir, "postgres.json"), "utf8")).url, 1);
    const [event] = await database.event.findMany({
      where: { organizationId, type: "payment.confirmed" },
      take: 1,
    });
    const owner = await database.membership.findFirstOrThrow({ where: { organizationId, role: "OWNER" } });
    const { secret: agentCredential } = await database.$transaction((tx) =>
      createAgentCredential(tx, {
        organizationId,
        agentName: "Docs",
        access: "write",
        createdByUserId: owner.userId,
      }),
    );
    await closeDb(database);

    const fill = async (command: string) => {
      // An endpoint of its own where the example changes or deletes one.
      const endpointId = /-X (DELETE|PATCH)/.test(command)
        ? (
            await api("POST", "/api/private/organization/webhook-endpoints", {
              name: "Docs (one example's)",
              url: `${baseUrl}/api/health`,
              adapter: "NONE",
              enabled: true,
            })
          ).id
        : webhook.id;
      return command
        .replaceAll("{base_url}", baseUrl)
        .replaceAll("http://localhost:3000", baseUrl)
        .replaceAll("sk_live_…", apiKey)
        .replaceAll("sk_agent_…", agentCredential)
        .replace(/ycs_4fQh0r7Xq1s9bT2mN8kLp3Zy|ycs_…/g, unpaidSession.id)
        .replaceAll("inv_…", invoice.id)
        .replace(/<id>|6f1c1c8e-7d5a-4c63-9d53-2a3b9b1e0c11/g, paylink.id)
        .replaceAll("sub_…", subscriptionId)
        .replaceAll("we_…", endpointId)
        .replaceAll("evt_…", event.id)
        .replaceAll("0x59c6…690d", devnetBuyerKey)
        .replaceAll("0x5fbd…0aa3", usdc)
        .replaceAll("2GE2…gXF7", solanaBuyerKey)
        .replaceAll("8mcr…kSdb", solanaMint)
        .replaceAll("http://127.0.0.1:8899", solanaUrl);
    };

    // The x402 example's script, saved as the reader would (docs/agents.md, "Agents that pay").
    const agents = await readFile(path.join(root, "docs/agents.md"), "utf8");
    const payScript = /^```js\n([\s\S]*?wrapFetchWithPayment[\s\S]*?)^```/m.exec(agents)?.[1];
    expect(payScript).toBeTruthy();
    await writeFile(path.join(work, "pay.mjs"), payScript as string);
    // And the MPP example's (docs/agents.md, "The same URL with an MPP client"), within its own block.
    const mppScript = /^```js\n((?:(?!^```)[\s\S])*?mppx\/client(?:(?!^```)[\s\S])*?)^```/m.exec(agents)?.[1];
    expect(mppScript).toBeTruthy();
    await writeFile(path.join(work, "pay-mpp.mjs"), mppScript as string);
    // And the Solana one's (docs/agents.md, "On Solana, with `@x402/svm`"), run as written; a
    // preloaded module notes the payment it sends, for the replay below.
    const solanaScript = /^```js\n((?:(?!^```)[\s\S])*?@x402\/svm(?:(?!^```)[\s\S])*?)^```/m.exec(
      agents,
    )?.[1];
    expect(solanaScript).toBeTruthy();
    await writeFile(path.join(work, "pay-solana.mjs"), solanaScript as string);
    const paymentsSent = path.join(work, "payments-sent.txt");
    await writeFile(
      path.join(work, "note-payments.mjs"),
      `import { appendFileSync } from "node:fs";
const send = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const payment = new Request(input, init).headers.get("PAYMENT-SIGNATURE");
  if (payment) appendFileSync(${JSON.stringify(paymentsSent)}, payment + "\\n");
  return send(input, init);
};
`,
    );

    // The banner's own "Try it" commands first, then the docs'.
    const tried = banner
      .split("\n")
      .filter((line) => /^ {2}curl |^ {4}-H /.test(line))
      .join("\n")
      .replace(/^ {2}/gm, "");
    const examples = [
      ...commandsOf(tried).map((command) => ({ where: "npm start's banner", command })),
      ...(await shellExamples()),
    ];
    expect(examples.length).toBeGreaterThan(40);
    // What the test wallet holds before the refund example sends some back.
    const before = await usdcOf(devnetTestWallet.address);
    const solanaBefore = await solanaUsdcOf(solanaBuyer);
    const skipped = new Set<string>();
    const failures: string[] = [];
    const outputs: string[] = [];
    let solanaPaid = "";
    for (const { where, command } of examples) {
      const reason = Object.keys(notRun).find((start) => command.startsWith(start));
      if (reason) {
        skipped.add(reason);
        continue;
      }
      const filled = await fill(command);
      expect(filled, `${where}: a placeholder left unfilled`).not.toMatch(/…|<[a-z ]+>/);
      // Each curl reports its status on a last line of its own.
      const script = filled.replace(/^curl /gm, `curl -sS -w '\\n%{http_code}' `);
      const result = await run("bash", ["-c", script], {
        cwd: work,
        env: {
          ...terminal,
          BASE: baseUrl,
          SERVICE_API_KEY: apiKey,
          ...(command.startsWith("node pay-solana.mjs")
            ? { NODE_OPTIONS: `--import ${path.join(work, "note-payments.mjs")}` }
            : {}),
        },
      }).then(
        ({ stdout }) => ({ ok: true, stdout }),
        (error: { stdout?: string; stderr?: string }) => ({
          ok: false,
          stdout: `${error.stdout}${error.stderr}`,
        }),
      );
      // curl's status on its last line; the x402 and MPP scripts print the paid retry's status first.
      const status = command.startsWith("curl")
        ? Number(result.stdout.trim().split("\n").at(-1))
        : /^node pay(-mpp|-solana)?\.mjs/.test(command)
          ? Number(result.stdout.split(" ")[0])
          : 0;
      outputs.push(result.stdout);
      // Without the colours console.log adds when the terminal asks for them (FORCE_COLOR).
      if (command.startsWith("node pay-solana.mjs")) solanaPaid = stripVTControlCharacters(result.stdout);
      if (!result.ok || status >= 400)
        failures.push(`${where}: ${command}\n  -> ${result.stdout.slice(-400)}`);
    }
    expect(failures).toEqual([]);
    expect([...skipped].sort()).toEqual(Object.keys(notRun).sort());

    // The Solana x402 example paid the paylink's 1.00 test USDC once; its payment sent again
    // answers the same 200 and moves nothing, and the watcher confirms the session's invoice.
    expect(solanaPaid).toMatch(/^200 \{\s+success: true,\s+transaction: '\w+'/);
    const signature = /transaction: '(\w+)'/.exec(solanaPaid)?.[1];
    expect(await solanaUsdcOf(solanaBuyer)).toBe(solanaBefore - 1_000_000n);
    const sent = (await readFile(paymentsSent, "utf8")).trim().split("\n");
    expect(sent).toHaveLength(1);
    const replay = await fetch(`${baseUrl}/api/x402/paylinks/${paylink.id}`, {
      headers: { "PAYMENT-SIGNATURE": sent[0] },
    });
    expect(replay.status).toBe(200);
    const replayed = JSON.parse(
      Buffer.from(replay.headers.get("PAYMENT-RESPONSE") ?? "", "base64").toString(),
    );
    expect(replayed).toMatchObject({ success: true, transaction: signature, payer: solanaBuyer });
    const paid = (await replay.json()) as { checkoutSession: { status: string }; payment: { id: string } };
    expect(paid.checkoutSession.status).toBe("COMPLETED");
    await confirmed(paid.payment.id);
    expect(await solanaUsdcOf(solanaBuyer)).toBe(solanaBefore - 1_000_000n);

    // The refund example (docs/api.md) sends 16.5 USDC back to the test wallet, which paid.
    const refund = outputs.map((output) => /"id":\s*"(rfd_\w+)"/.exec(output)?.[1]).find(Boolean);
    expect(refund).toBeTruthy();
    await expect
      .poll(async () => (await api("GET", `/api/private/refunds/${refund}`)).status, {
        timeout: 90_000,
      })
      .toBe("succeeded");
    expect(await usdcOf(devnetTestWallet.address)).toBe(before + 16_500_000n);

    // A restart: one consistent world, said in the banner, no difference between ledger and chain.
    await stopApp(app);
    app = await startZeroSetup({
      ...terminal,
      PORT: String(port),
      SERVICE_DEVNET_PORT: String(devnetPort),
      SERVICE_SOLANA_DEVNET_PORT: String(solanaPort),
    });
    expect(app.output()).toContain("the devnet is a new chain from block 0");
    await expect.poll(() => /deposit balances reconciled/.test(app.output()), { timeout: 60_000 }).toBe(true);
    expect(app.output()).not.toContain("deposit address balance differs from the ledger");
    expect(app.output()).toMatch(/"differences":0,[^\n]*deposit balances reconciled/);
    // And the second terminal finds the restarted app.
    const afterRestart = await api("POST", "/api/checkout-sessions", { amount: "2.00", currency: "USD" });
    expect(await devnetPay((await startPayment(afterRestart, "ETH")).id)).toMatch(/^sent .* ETH to 0x/);
  } finally {
    await stopApp(app);
    await rm(dataDir, { recursive: true, force: true });
  }
});
