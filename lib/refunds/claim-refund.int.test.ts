import { getAddress } from "viem";
import { describe, expect, inject, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { createTestInvoice, createTestOrganization } from "@/scripts/test-support/fixtures";
import { claimCodeLifetimeMs } from "./claim-code";
import { claimRefund, claimRefundSchema } from "./claim-refund";
import { claimLinkLifetimeMs, claimTokenFor, hashClaimToken } from "./claim-token";
import { decideRefund } from "./decide-refund";
import { expireRefundClaims } from "./expire-refund-claims";
import { getPublicRefundClaim } from "./get-public-refund-claim";
import { openClaim } from "./insert-refund";
import { resendClaimLink } from "./resend-claim-link";
import { sendClaimCode } from "./send-claim-code";

// The one-time codes land in the development mailbox.
process.env.SERVICE_DEV_MAILBOX = "true";

const buyer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const now = new Date("2026-11-26T12:00:00Z");

/** A claim refund of 16.5 USDC on a paid invoice, as the API leaves it, with its link's token. */
async function claimableRefund(
  options: {
    expiresAt?: Date;
    email?: string;
    status?: "PENDING_CLAIM" | "FAILED";
    requestedByKind?: "user" | "api_key" | "agent_credential" | "oauth_token";
  } = {},
) {
  const { organization } = await createTestOrganization("Claim Store");
  await db().organization.update({
    where: { id: organization.id },
    data: { brandDisplayName: "Claim Store Ltd", brandColor: "#1d4ed8" },
  });
  const invoice = await createTestInvoice(organization.id, { amount: "40", status: "CONFIRMED" });
  const id = newId("refund");
  const expiresAt = options.expiresAt ?? new Date(now.getTime() + claimLinkLifetimeMs);
  const token = claimTokenFor(id, expiresAt);
  const refund = await db().refund.create({
    data: {
      id,
      organizationId: organization.id,
      invoiceId: invoice.id,
      checkoutSessionId: invoice.checkoutSessionId,
      network: invoice.network,
      token: invoice.token,
      amount: "16.5",
      amountUsd: "16.5",
      status: options.status ?? "PENDING_CLAIM",
      destination: "CLAIM",
      claimTokenHash: hashClaimToken(token),
      claimExpiresAt: expiresAt,
      claimEmail: options.email,
      // An owner's link by default: a credential's, claimed without a code, waits for an owner.
      requestedByKind: options.requestedByKind ?? "user",
      requestedByName: "Test requester",
      failureReason: options.status === "FAILED" ? "Cancelled by the merchant." : null,
    },
  });
  return { refund, token, organizationId: organization.id };
}

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (error instanceof ServiceError) return { status: error.status, code: error.code, param: error.param };
    throw error;
  }
  throw new Error("expected a refusal");
}

const claim = (token: string, address: string, confirmAddress = address, code?: string, at = now) =>
  claimRefund(db(), claimRefundSchema.parse({ token, address, confirmAddress, code }), at);

/** The code of the latest email to `to`. */
async function emailedCode(to: string) {
  const email = await db().devEmail.findFirstOrThrow({
    where: { to, subject: { contains: "Your code" } },
    orderBy: { createdAt: "desc" },
  });
  return /^(\d{6})$/m.exec(email.text)?.[1] as string;
}

/** The refunds named by the "claim link locked" emails each owner of the organization got. */
async function lockNotices(organizationId: string) {
  const owners = await db().membership.findMany({
    where: { organizationId, role: "OWNER" },
    include: { user: true },
  });
  // Recorded in the outbox with the lock and sent just after it, without the refusal waiting.
  const notices = { organizationId, kind: "owner_notice" };
  await vi.waitFor(
    async () => expect(await db().outboundEmail.count({ where: { ...notices, sentAt: null } })).toBe(0),
    { timeout: 15_000, interval: 100 },
  );
  const emails = await db().devEmail.findMany({
    where: {
      to: { in: owners.map((owner) => owner.user.email) },
      subject: { contains: "claim link locked" },
    },
    orderBy: { createdAt: "asc" },
  });
  expect(emails.length % owners.length).toBe(0);
  expect(await db().outboundEmail.count({ where: notices })).toBe(emails.length);
  return emails
    .filter((_, index) => index % owners.length === 0)
    .map((email) => /refunds\/(\w+)/.exec(email.text)?.[1]);
}

describe("the one-time code, when the buyer's email is known", () => {
  it("a link alone moves nothing: the claim needs the code emailed to the buyer, once", async () => {
    const email = `code-${Date.now()}@example.com`;
    const { refund, token } = await claimableRefund({ email });
    expect(await getPublicRefundClaim(db(), token, now)).toMatchObject({ codeRequired: true });
    expect(await refusal(claim(token, buyer))).toEqual({ status: 400, code: "code_required", param: "code" });
    // Before any code was sent, any code is refused.
    expect(await refusal(claim(token, buyer, buyer, "123456"))).toMatchObject({ code: "code_expired" });
    expect(await sendClaimCode(db(), token, now)).toMatchObject({ sentTo: "c…@example.com" });
    const code = await emailedCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await db().refund.findUniqueOrThrow({ where: { id: refund.id } });
    // Stored as an HMAC, never as the code.
    expect(stored.claimCodeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(`"${code}"`);
    const wrong = code === "000000" ? "000001" : "000000";
    expect(await refusal(claim(token, buyer, buyer, wrong))).toEqual({
      status: 400,
      code: "code_invalid",
      param: "code",
    });
    expect(await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: "PENDING_CLAIM",
      toAddress: null,
      claimCodeAttempts: 1,
    });
    expect(await claim(token, buyer, buyer, code)).toMatchObject({ status: "pending", toAddress: buyer });
    expect(await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: "PENDING",
      claimCodeHash: null,
    });
  });

  it("five wrong tries spend a code; a code expires after 10 minutes; a new one at most once a minute", async () => {
    const email = `tries-${Date.now()}@example.com`;
    const { refund, token } = await claimableRefund({ email });
    await sendClaimCode(db(), token, now);
    const code = await emailedCode(email);
    const wrong = code === "000000" ? "000001" : "000000";
    for (let left = 4; left >= 0; left--) {
      expect(await refusal(claim(token, buyer, buyer, wrong))).toMatchObject({ code: "code_invalid" });
    }
    // Spent: even the right code no longer works.
    expect(await refusal(claim(token, buyer, buyer, code))).toMatchObject({ code: "code_expired" });
    expect(await refusal(sendClaimCode(db(), token, new Date(now.getTime() + 30_000)))).toMatchObject({
      status: 429,
      code: "rate_limited",
    });
    const later = new Date(now.getTime() + 61_000);
    await sendClaimCode(db(), token, later);
    const fresh = await emailedCode(email);
    const stale = new Date(later.getTime() + claimCodeLifetimeMs + 1);
    expect(await refusal(claim(token, buyer, buyer, fresh, stale))).toMatchObject({ code: "code_expired" });
    expect(await claim(token, buyer, buyer, fresh, new Date(later.getTime() + 1000))).toMatchObject({
      status: "pending",
    });
    expect(await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      toAddress: buyer,
    });
  });

  it("a link has at most ten wrong tries across its codes and five codes; an owner's re-send opens it again", async () => {
    const email = `caps-${Date.now()}@example.com`;
    const { refund, token, organizationId } = await claimableRefund({ email });
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    await sendClaimCode(db(), token, now);
    const first = await emailedCode(email);
    for (let i = 0; i < 5; i++)
      await refusal(claim(token, buyer, buyer, first === "000000" ? "000001" : "000000"));
    await sendClaimCode(db(), token, at(61));
    const second = await emailedCode(email);
    const wrong = second === "000000" ? "000001" : "000000";
    for (let i = 0; i < 4; i++)
      expect(await refusal(claim(token, buyer, buyer, wrong, at(62)))).toMatchObject({
        code: "code_invalid",
      });
    // The tenth wrong code across the link's codes locks it: the right code, or a new one, no longer.
    const locked = { status: 409, code: "claim_locked" };
    expect(await refusal(claim(token, buyer, buyer, wrong, at(62)))).toMatchObject(locked);
    expect(await refusal(claim(token, buyer, buyer, second, at(63)))).toMatchObject(locked);
    expect(await refusal(sendClaimCode(db(), token, at(130)))).toMatchObject(locked);
    expect(await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: "PENDING_CLAIM",
      toAddress: null,
      claimLockedAt: at(62),
    });
    // The page says so, and every owner is told once, however many refusals follow.
    expect((await getPublicRefundClaim(db(), token, at(131))).status).toBe("locked");
    expect(await lockNotices(organizationId)).toEqual([refund.id]);

    // An owner re-sends the link: a new link with fresh caps (the old one is retired).
    const resent = await resendClaimLink(db(), organizationId, refund.id, at(200));
    const newToken = claimTokenFor(refund.id, resent.claimExpiresAt as Date);
    expect(resent).toMatchObject({
      claimCodesSent: 0,
      claimCodeFailures: 0,
      claimCodeHash: null,
      claimLockedAt: null,
    });
    expect((await getPublicRefundClaim(db(), newToken, at(201))).status).toBe("open");
    // Five codes at most per link, however slowly they are asked for: the new link locks, told once.
    await db().refund.update({ where: { id: refund.id }, data: { claimCodesSent: 5 } });
    expect(await refusal(sendClaimCode(db(), newToken, at(300)))).toMatchObject(locked);
    expect(await refusal(sendClaimCode(db(), newToken, at(400)))).toMatchObject(locked);
    expect(await lockNotices(organizationId)).toEqual([refund.id, refund.id]);
    await db().refund.update({ where: { id: refund.id }, data: { claimLockedAt: null } });
    await db().refund.update({ where: { id: refund.id }, data: { claimCodesSent: 4 } });
    await sendClaimCode(db(), newToken, at(300));
    expect(await claim(newToken, buyer, buyer, await emailedCode(email), at(301))).toMatchObject({
      status: "pending",
    });
  });

  it("answers 409 when the buyer's email is unknown (no code needed), and 404 for an unknown link", async () => {
    const { token } = await claimableRefund();
    expect(await refusal(sendClaimCode(db(), token, now))).toMatchObject({ code: "claim_code_not_needed" });
    expect(await refusal(sendClaimCode(db(), "A".repeat(43), now))).toMatchObject({ status: 404 });
  });
});

describe("refund claim links", () => {
  it("show the merchant's brand, amount, token and network, and a masked email", async () => {
    const { token } = await claimableRefund({ email: "jane@example.com" });
    expect(await getPublicRefundClaim(db(), token, now)).toMatchObject({
      status: "open",
      merchantName: "Claim Store Ltd",
      brandColor: "#1d4ed8",
      amount: "16.5",
      token: "USDC",
      network: "devnet",
      toAddress: null,
      txHash: null,
      emailHint: "j…@example.com",
    });
  });

  it("take the buyer's address once: pending with the checksummed address, a second use refused", async () => {
    const { refund, token } = await claimableRefund();
    const claimed = await claim(token, buyer.toLowerCase(), buyer);
    expect(claimed).toMatchObject({ status: "pending", toAddress: buyer });
    const row = await db().refund.findUniqueOrThrow({ where: { id: refund.id } });
    expect(row).toMatchObject({ status: "PENDING", toAddress: buyer, claimedAt: now });

    const other = getAddress(`0x${"ab".repeat(20)}`);
    expect(await refusal(claim(token, other))).toEqual({ status: 410, code: "claim_used", param: undefined });
    expect((await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).toAddress).toBe(buyer);
    expect((await getPublicRefundClaim(db(), token, now)).status).toBe("pending");
  });

  it("let only one of two simultaneous claims through", async () => {
    const { refund, token } = await claimableRefund();
    const second = getAddress(`0x${"cd".repeat(20)}`);
    const results = await Promise.allSettled([claim(token, buyer), claim(token, second)]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const row = await db().refund.findUniqueOrThrow({ where: { id: refund.id } });
    expect([buyer, second]).toContain(row.toAddress);
  });

  // Each refused input changes nothing: the claim stays open.
  it.each([
    ["not hex", "0xnot-an-address", undefined, "address_invalid", "address"],
    ["too short", "0x1234", undefined, "address_invalid", "address"],
    ["a wrong checksum", buyer.replace("C8", "c8"), undefined, "address_checksum", "address"],
    ["the zero address", `0x${"0".repeat(40)}`, undefined, "address_invalid", "address"],
    ["a second address that is invalid", buyer, "0x12", "address_invalid", "confirmAddress"],
    [
      "two different addresses",
      buyer,
      getAddress(`0x${"ab".repeat(20)}`),
      "address_mismatch",
      "confirmAddress",
    ],
  ])("refuse %s with 400 naming the field", async (_case, address, confirmAddress, code, param) => {
    const { refund, token } = await claimableRefund();
    expect(await refusal(claim(token, address, confirmAddress))).toEqual({ status: 400, code, param });
    expect(await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: "PENDING_CLAIM",
      toAddress: null,
      claimedAt: null,
    });
  });

  it.each([
    ["an unknown token", "A".repeat(43)],
    ["a malformed token", "not a token"],
  ])("answer 404 for %s", async (_case, token) => {
    expect(await refusal(getPublicRefundClaim(db(), token, now))).toMatchObject({ status: 404 });
    expect(await refusal(claim(token, buyer))).toMatchObject({ status: 404 });
  });

  it("answer 404 for a link that was re-sent (its expiry moved, so its token changed)", async () => {
    const { refund, token } = await claimableRefund();
    const later = new Date(now.getTime() + 2 * claimLinkLifetimeMs);
    // Same hash kept to prove the derived token is checked, not only the stored hash.
    await db().refund.update({ where: { id: refund.id }, data: { claimExpiresAt: later } });
    expect(await refusal(getPublicRefundClaim(db(), token, now))).toMatchObject({ status: 404 });
  });

  // Two sessions at once (the re-send's open transaction and the claim waiting on its lock): the
  // embedded database multiplexes its connections into one, where the claim could never start.
  if (inject("testDatabase").mode === "server") {
    it("never let a link retired by a re-send win, even one checked just before the re-send", async () => {
      const { refund, token, organizationId } = await claimableRefund();
      let resent!: () => void;
      const release = new Promise<void>((resolve) => {
        resent = resolve;
      });
      // The re-send takes the row and moves the link (a new expiry, a new token) but has not
      // committed: the claim reads the old link as current, then waits on the row.
      const resend = db().$transaction(async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "Refund" WHERE "id" = ${refund.id} FOR UPDATE`;
        await tx.refund.update({
          where: { id: refund.id },
          data: openClaim(refund.id, new Date(now.getTime() + 60_000)),
        });
        await release;
      });
      const claiming = claim(token, buyer).then(
        () => "claimed",
        (error: ServiceError) => error.code,
      );
      // Until the claim's statement waits on the re-send's lock.
      for (let waited = 0; waited < 100; waited++) {
        const [{ waiting }] = await db().$queryRaw<{ waiting: bigint }[]>`
        SELECT count(*) AS "waiting" FROM pg_stat_activity
        WHERE "wait_event_type" = 'Lock' AND "datname" = current_database()`;
        if (waiting > 0n) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      resent();
      await resend;
      expect(await claiming).not.toBe("claimed");
      expect(await db().refund.findFirstOrThrow({ where: { id: refund.id, organizationId } })).toMatchObject({
        status: "PENDING_CLAIM",
        toAddress: null,
        claimedAt: null,
      });
    });

    it("expire on access: the page shows it, the refund fails with refund.failed, and a claim is refused", async () => {
      const { refund, token, organizationId } = await claimableRefund({
        expiresAt: new Date(now.getTime() - 1),
      });
      expect((await getPublicRefundClaim(db(), token, now)).status).toBe("expired");
      const row = await db().refund.findUniqueOrThrow({ where: { id: refund.id } });
      expect(row.status).toBe("FAILED");
      expect(await refusal(claim(token, buyer))).toEqual({
        status: 410,
        code: "claim_expired",
        param: undefined,
      });
      const events = await db().event.findMany({ where: { organizationId } });
      expect(events.map((event) => event.type)).toEqual(["refund.failed"]);
    });
  }

  it("refuse a claim on a link that expired unseen, and fail it", async () => {
    const { refund, token } = await claimableRefund({ expiresAt: new Date(now.getTime() - 1) });
    expect(await refusal(claim(token, buyer))).toEqual({
      status: 410,
      code: "claim_expired",
      param: undefined,
    });
    expect((await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe("FAILED");
  });

  it("refuse a claim the merchant cancelled", async () => {
    const { token } = await claimableRefund({ status: "FAILED" });
    expect((await getPublicRefundClaim(db(), token, now)).status).toBe("cancelled");
    expect(await refusal(claim(token, buyer))).toEqual({
      status: 410,
      code: "claim_closed",
      param: undefined,
    });
  });

  it("the periodic job fails open claims past their expiry, and nothing else", async () => {
    const past = await claimableRefund({ expiresAt: new Date(now.getTime() - 1) });
    const open = await claimableRefund();
    const claimed = await claimableRefund({ expiresAt: new Date(now.getTime() + 1000) });
    await claim(claimed.token, buyer);
    const later = new Date(now.getTime() + 2000);
    expect(await expireRefundClaims(db(), later)).toBe(1);
    const statuses = await Promise.all(
      [past, open, claimed].map(({ refund }) => db().refund.findUniqueOrThrow({ where: { id: refund.id } })),
    );
    expect(statuses.map((row) => row.status)).toEqual(["FAILED", "PENDING_CLAIM", "PENDING"]);
    expect(await expireRefundClaims(db(), later)).toBe(0);
  });
});

describe("a credential's claim link, when the buyer's email is unknown", () => {
  // The API key's answer carries the link: a stolen key could claim it with its own address.
  it.each(["api_key", "agent_credential", "oauth_token"] as const)(
    "asked for by %s: the claim waits for an owner (announced), who decides the typed address",
    async (requestedByKind) => {
      const { refund, token, organizationId } = await claimableRefund({ requestedByKind });
      // The buyer's page says an owner reviews it, not that it is on its way.
      expect(await claim(token, buyer)).toMatchObject({ status: "in_review", toAddress: buyer });
      expect(await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
        status: "REQUIRES_APPROVAL",
        toAddress: buyer,
        claimedAt: now,
        decidedByUserId: null,
      });
      const owner = await db().membership.findFirstOrThrow({
        where: { organizationId, role: "OWNER" },
        include: { user: true },
      });
      const announced = await db().devEmail.findFirstOrThrow({
        where: { to: owner.user.email, subject: { contains: "Confirm or reject" } },
      });
      expect(announced.text).toContain(buyer);
      // The link stays used: a second claim cannot change the address the owner reads.
      const other = getAddress(`0x${"ab".repeat(20)}`);
      expect(await refusal(claim(token, other))).toMatchObject({ status: 410, code: "claim_used" });
      expect((await getPublicRefundClaim(db(), token, now)).status).toBe("in_review");
      const decided = await decideRefund(db(), organizationId, {
        id: refund.id,
        userId: owner.userId,
        decision: "confirm",
      });
      expect(decided).toMatchObject({ status: "PENDING", toAddress: buyer, decidedByUserId: owner.userId });
      expect((await getPublicRefundClaim(db(), token, now)).status).toBe("pending");
    },
  );

  it("asked for by an owner, or proven by the emailed code: pending at once", async () => {
    const byOwner = await claimableRefund({ requestedByKind: "user" });
    await claim(byOwner.token, buyer);
    expect((await db().refund.findUniqueOrThrow({ where: { id: byOwner.refund.id } })).status).toBe(
      "PENDING",
    );
    const email = `proven-${Date.now()}@example.com`;
    const proven = await claimableRefund({ requestedByKind: "api_key", email });
    await sendClaimCode(db(), proven.token, now);
    await claim(proven.token, buyer, buyer, await emailedCode(email));
    expect((await db().refund.findUniqueOrThrow({ where: { id: proven.refund.id } })).status).toBe("PENDING");
  });
});
