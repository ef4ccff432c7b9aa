import { randomBytes } from "node:crypto";
import { createAgentCredential } from "../../lib/agent-access/create-agent-credential";
import { createCheckoutSession } from "../../lib/checkout/create-checkout-session";
import { startPayment } from "../../lib/checkout/start-payment";
import { db } from "../../lib/db/client";
import { newId, randomBase62 } from "../../lib/ids";
import { createOrganization } from "../../lib/organizations/create-organization";
import { requestSettlementChange } from "../../lib/settlement/request-settlement-change";
import { createWebhookEndpoint } from "../../lib/webhooks/create-webhook-endpoint";
import { type ScriptedAnswer, startWebhookReceiver } from "./webhook-receiver";

/** A fresh organization with an owner and a live API key, in the test file's database. */
export async function createTestOrganization(name = "Test Store") {
  const result = await createOrganization(db(), {
    name,
    ownerEmail: `owner-${randomBase62(8).toLowerCase()}@example.com`,
  });
  return {
    organization: result.organization,
    apiKey: result.apiKey,
    auth: { authorization: `Bearer ${result.apiKey}` },
  };
}

/**
 * Sets the organization's settlement wallets as an owner in the dashboard would: a network's first
 * wallet is in force at once while nothing waits to be paid there (any other change, and any
 * credential's, waits out the delay).
 */
export function setTestSettlementWallets(
  organizationId: string,
  wallets: { network: string; address: string }[],
) {
  return requestSettlementChange(db(), organizationId, {
    wallets,
    decision: "allow",
    proposedBy: { kind: "owner", name: "owner@example.com" },
    clientAddress: null,
  });
}

/**
 * An organization with a second owner and a member: what is announced to owners (and not to
 * members) can be counted per person. `ownerEmails` sorted; `memberEmail` the member's.
 */
export async function createTestTeam() {
  const org = await createTestOrganization();
  for (const role of ["OWNER", "MEMBER"] as const) {
    const user = await db().user.create({
      data: {
        id: newId("user"),
        email: `${role.toLowerCase()}-${randomBase62(8).toLowerCase()}@example.com`,
      },
    });
    await db().membership.create({
      data: { id: newId("membership"), organizationId: org.organization.id, userId: user.id, role },
    });
  }
  const memberships = await db().membership.findMany({
    where: { organizationId: org.organization.id },
    include: { user: true },
  });
  const emailsOf = (role: string) =>
    memberships.filter((membership) => membership.role === role).map(({ user }) => user.email);
  return {
    ...org,
    people: memberships.map(({ role, user }) => ({ role, email: user.email })),
    ownerEmails: emailsOf("OWNER").sort(),
    memberEmail: emailsOf("MEMBER")[0],
  };
}

/** An agent credential for the organization, approved by its owner, as check-in hands it out. */
export async function createTestAgentCredential(organizationId: string, access: "read" | "write" = "write") {
  const owner = await db().membership.findFirstOrThrow({ where: { organizationId, role: "OWNER" } });
  const { credential, secret } = await db().$transaction((tx) =>
    createAgentCredential(tx, {
      organizationId,
      agentName: "Test agent",
      access,
      createdByUserId: owner.userId,
    }),
  );
  return { credential, secret, auth: { authorization: `Bearer ${secret}` } };
}

/**
 * An invoice opened as a buyer opens one: a standalone session of `organizationId` for `amount`
 * USD (an hour to pay), then its payment started in `token` on the devnet.
 */
export async function startTestPayment(organizationId: string, token: string, amount: string) {
  const created = await createCheckoutSession(db(), {
    organizationId,
    request: { mode: "standalone", amount, currency: "USD", expiresInMinutes: 60 },
    idempotency: null,
  });
  return startPayment(db(), {
    checkoutSessionId: (created.body as { id: string }).id,
    network: "devnet",
    token,
  });
}

/** A checkout session with an invoice in the given state, as the payment flow would leave them. */
export async function createTestInvoice(
  organizationId: string,
  input: {
    amount: string;
    currency?: string;
    /** The quote's USD amount; the amount itself unless given (a USD price). */
    amountUsd?: string;
    status: "AWAITING_PAYMENT" | "PARTIALLY_PAID" | "CONFIRMING" | "CONFIRMED" | "OVERDUE";
    merchantOrderId?: string;
    /** When a CONFIRMED one was confirmed; now unless given. */
    confirmedAt?: Date;
  },
) {
  const session = await db().checkoutSession.create({
    data: {
      id: newId("checkoutSession"),
      organizationId,
      status: "COMPLETED",
      amount: input.amount,
      currency: input.currency ?? "USD",
      merchantOrderId: input.merchantOrderId,
      expiresAt: new Date(),
    },
  });
  return db().invoice.create({
    data: {
      id: newId("invoice"),
      organizationId,
      checkoutSessionId: session.id,
      network: "devnet",
      token: "USDC",
      depositAddress: `0x${randomBase62(20).toLowerCase().padEnd(40, "0")}`,
      derivationIndex: Math.floor(Math.random() * 1e9),
      amountDue: input.amount,
      pricingAmount: input.amount,
      pricingCurrency: input.currency ?? "USD",
      rate: "1",
      amountUsd: input.amountUsd ?? input.amount,
      quotedAt: new Date(),
      quoteSource: "test fixture",
      status: input.status,
      confirmedAt: input.status === "CONFIRMED" ? (input.confirmedAt ?? new Date()) : null,
      deadline: new Date(),
    },
  });
}

/**
 * A webhook receiver on loopback answering `script`, and a fresh organization with one enabled
 * endpoint pointing at it. The caller closes the receiver.
 */
export async function createTestReceiverEndpoint(script: ScriptedAnswer[] = []) {
  const receiver = await startWebhookReceiver(script);
  const { organization } = await createTestOrganization();
  const { endpoint } = await createWebhookEndpoint(db(), organization.id, {
    name: "Shop",
    url: receiver.url,
    adapter: "NONE",
    enabled: true,
  });
  return { receiver, organization, endpoint };
}

/** A sweep of an invoice of the organization, in the given state, as the sweeper would leave it. */
export async function createTestSweep(
  organizationId: string,
  input: {
    status: "PENDING" | "SUBMITTED" | "CONFIRMED" | "FAILED";
    network?: string;
    invoice?: { id: string; depositAddress: string };
    transactions?: { kind: "FUNDING" | "TRANSFER"; nonce: number; blockNumber?: bigint; gasUsed?: string }[];
  },
) {
  const invoice =
    input.invoice ?? (await createTestInvoice(organizationId, { amount: "10", status: "CONFIRMED" }));
  return db().sweep.create({
    data: {
      id: newId("sweep"),
      organizationId,
      invoiceId: invoice.id,
      network: input.network ?? "devnet",
      token: "USDC",
      strategy: "GAS_TOP_UP",
      status: input.status,
      fromAddress: invoice.depositAddress,
      toAddress: "0x000000000000000000000000000000000000dEaD",
      amount: "10",
      failureReason: input.status === "FAILED" ? "the transfer reverted" : null,
      transactions: {
        create: (input.transactions ?? []).map((transaction) => ({
          id: newId("signedTransaction"),
          signer: "0x0000000000000000000000000000000000000001",
          hash: `0x${randomBase62(32).toLowerCase().padEnd(64, "0")}`,
          raw: "0x02",
          maxFeePerGas: "1000000000",
          ...transaction,
        })),
      },
    },
  });
}

/** An x402 settlement of `invoice` (a random payer and nonce), SETTLING unless `data` says otherwise. */
export function createTestX402Settlement(
  invoice: { id: string; organizationId: string; depositAddress: string },
  data: { asset: string; amount: string; status?: "SETTLING" | "SETTLED" | "FAILED" } & {
    transaction?: string | null;
    gasUsd?: string | null;
    errorReason?: string | null;
  },
) {
  return db().x402Settlement.create({
    data: {
      id: newId("x402Settlement"),
      organizationId: invoice.organizationId,
      invoiceId: invoice.id,
      resourceKind: "paylink",
      network: "devnet",
      payer: `0x${randomBytes(20).toString("hex")}`,
      nonce: `0x${randomBytes(32).toString("hex")}`,
      payTo: invoice.depositAddress,
      validBefore: new Date(Date.now() + 300_000),
      ...data,
    },
  });
}

/**
 * A wallet as the signer reports it (a gas or facilitator wallet) on a network of its own, so a
 * file's devnet keeps its real rows: what the web tier knows of the service's own wallets.
 */
export async function reportTestWallet(kind: "gasWallet" | "facilitatorWallet", address: string) {
  const data = {
    network: `own-${crypto.randomUUID()}`,
    address,
    balance: "1",
    threshold: "0",
    low: false,
    checkedAt: new Date(),
  };
  if (kind === "gasWallet") await db().gasWallet.create({ data });
  else await db().facilitatorWallet.create({ data });
  return address;
}
