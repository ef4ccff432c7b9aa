import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestOrganization, startTestPayment } from "@/scripts/test-support/fixtures";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { devnetExactRequirements, signDevnetPayment } from "@/scripts/test-support/x402-buyer";

// `npm run sweeper` with SERVICE_X402_FACILITATOR_PORT as a real process: the web tier's x402
// client (x402's HTTPFacilitatorClient with the bearer token) settles a payment through it, to a
// deposit address of ours awaiting it, and never to anyone else's.
const root = path.resolve(import.meta.dirname, "..");
const token = "sweeper-facilitator-token";
let devnet: TestDevnet;
let sweeper: ChildProcess | undefined;

/** A port free now, for the sweeper to listen on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1, priceFeeds: false });
}, 120_000);
afterAll(async () => {
  if (sweeper?.exitCode === null) {
    try {
      process.kill(-(sweeper.pid as number), "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  await devnet?.stop();
});

describe("npm run sweeper with SERVICE_X402_FACILITATOR_PORT", () => {
  it("serves the x402 facilitator the web tier settles through, and stops on SIGTERM", async () => {
    const port = await freePort();
    sweeper = spawn(process.execPath, ["--import", "tsx", "scripts/sweeper.ts"], {
      cwd: root,
      stdio: "ignore",
      detached: true,
      env: {
        ...process.env,
        SERVICE_SWEEPER: "separate",
        LOG_LEVEL: "silent",
        SERVICE_X402_FACILITATOR_PORT: String(port),
        SERVICE_X402_FACILITATOR_TOKEN: token,
      },
    });
    const client = new HTTPFacilitatorClient({
      url: `http://127.0.0.1:${port}`,
      createAuthHeaders: async () => {
        const headers = { Authorization: `Bearer ${token}` };
        return { verify: headers, settle: headers, supported: headers };
      },
    });
    for (const deadline = Date.now() + 120_000; ; await sleep(250)) {
      const supported = await client.getSupported().catch(() => undefined);
      if (supported) {
        expect(supported.kinds).toEqual([{ x402Version: 2, scheme: "exact", network: "eip155:31337" }]);
        break;
      }
      if (Date.now() > deadline || sweeper.exitCode !== null)
        throw new Error("the facilitator did not start");
    }

    const payer = privateKeyToAccount(generatePrivateKey());
    await devnet.mintUsdc(payer.address, "5");
    // Any token holder's payee: refused, it is no gas relay.
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const elsewhere = devnetExactRequirements(devnet.usdc, "2", stranger);
    expect(await client.settle(await signDevnetPayment(payer, elsewhere), elsewhere)).toMatchObject({
      success: false,
      errorReason: "payee_not_accepted",
    });
    expect(await devnet.usdcBalance(stranger)).toBe(0n);

    // A deposit address of one of our organizations, awaiting this authorization (as the web
    // tier records it before it asks): settled.
    const { organization } = await createTestOrganization();
    await startTestPayment(organization.id, "USDC", "2");
    const invoice = await db().invoice.findFirstOrThrow({ where: { organizationId: organization.id } });
    const requirements = devnetExactRequirements(devnet.usdc, "2", invoice.depositAddress);
    const payload = await signDevnetPayment(payer, requirements);
    const authorization = payload.payload.authorization as { nonce: string };
    await db().x402Settlement.create({
      data: {
        id: newId("x402Settlement"),
        organizationId: organization.id,
        invoiceId: invoice.id,
        resourceKind: "checkout_session",
        network: "devnet",
        asset: devnet.usdc.toLowerCase(),
        payer: payer.address.toLowerCase(),
        nonce: authorization.nonce.toLowerCase(),
        amount: requirements.amount,
        payTo: invoice.depositAddress.toLowerCase(),
        validBefore: new Date(Date.now() + 300_000),
      },
    });
    expect(await client.settle(payload, requirements)).toMatchObject({ success: true, payer: payer.address });
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("3", 6));

    const exited = new Promise((resolve) => sweeper?.once("exit", resolve));
    process.kill(-(sweeper.pid as number), "SIGTERM");
    await exited;
    await expect(client.getSupported()).rejects.toThrow();
  }, 240_000);
});
