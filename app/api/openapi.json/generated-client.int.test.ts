import { spawnSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { appRoutes } from "@/scripts/test-support/app-routes";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { serveApp } from "@/scripts/test-support/serve-route";

// The buyer pays on a configured network; starting a payment quotes it and derives an address
// without calling the chain.
process.env.SERVICE_HD_MNEMONIC = "test test test test test test test test test test test junk";
process.env.SERVICE_NETWORKS = JSON.stringify([
  {
    id: "devnet",
    name: "Local devnet",
    chainId: 31337,
    rpcUrl: "http://127.0.0.1:8545",
    confirmations: 2,
    tokens: [{ symbol: "USDC", decimals: 6, address: `0x${"5".repeat(40)}`, peggedTo: "USD" }],
  },
]);

const root = path.resolve(import.meta.dirname, "../../..");
const clientFolder = path.join(root, "scripts/test-support/generated-client");

let app: Awaited<ReturnType<typeof serveApp>>;
beforeAll(async () => {
  app = await serveApp(await appRoutes(), config().baseUrl);
});
afterAll(() => app.close());

describe("a TypeScript client generated from the served document", () => {
  it("compiles against the merchant's code and runs the money path: session, payment, status", async () => {
    // Generated from the document as served over HTTP, the way a merchant would.
    const served = await fetch(`${app.url}/api/openapi.json`);
    expect(served.status).toBe(200);
    // Request fields with a default are optional to send (openapi-typescript's default would
    // make them required).
    const types = astToString(await openapiTS(await served.json(), { defaultNonNullable: false }));
    await mkdir(path.join(clientFolder, ".generated"), { recursive: true });
    await writeFile(path.join(clientFolder, ".generated/api.d.ts"), types);

    const typecheck = spawnSync(path.join(root, "node_modules/.bin/tsc"), ["-p", clientFolder], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(typecheck.stdout + typecheck.stderr).toBe("");
    expect(typecheck.status).toBe(0);

    const { apiKey, organization } = await createTestOrganization();
    // By path: the root project does not compile the client, whose types exist only now.
    const { moneyPath } = await import(path.join(clientFolder, "money-path.ts"));
    const result = await moneyPath(app.url, apiKey, "1042");

    expect(result.session).toMatchObject({ object: "checkout_session", status: "OPEN", amount: "49.00" });
    expect(result.session.successUrl).toBe(`https://shop.example/thanks?session=${result.session.id}`);
    expect(result.payment).toMatchObject({
      object: "payment_request",
      checkoutSessionId: result.session.id,
      status: "AWAITING_PAYMENT",
      amountDue: "49.000000",
      remaining: "49.000000",
    });
    expect(result.status).toMatchObject({ id: result.payment.id, status: "AWAITING_PAYMENT" });
    expect(result.sessionAfter).toMatchObject({
      status: "COMPLETED",
      payment: { invoiceId: result.payment.id },
    });
    expect(result.versionUsed).toBe("2026-11-26");
    expect(result.notFound).toEqual({ status: 404, code: "resource_missing" });
    expect(result.badVersion).toEqual({ status: 400, param: "X-Service-Version" });
    const invoice = await db().invoice.findUniqueOrThrow({ where: { id: result.payment.id } });
    expect(invoice.organizationId).toBe(organization.id);
  }, 180_000);
});
