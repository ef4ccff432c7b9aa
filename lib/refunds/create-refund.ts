import { chainFamilyOf, networkName } from "../config";
import type { AlongsideWork, Db } from "../db/client";
import { invalidRequest } from "../errors";
import type { Refund } from "../generated/prisma/client";
import { type IdempotencyClaim, replayIdempotentResponse } from "../idempotency/replay-idempotent-response";
import { consumeRateLimit } from "../rate-limit/rate-limit";
import { refuseServiceWallet } from "../wallets/find-service-wallet";
import { announceRefundProposal } from "./announce-refund-proposal";
import { checkWalletAddress } from "./check-wallet-address";
import { insertRefund, type RefundRequest, type RefundRequester } from "./insert-refund";
import { sendClaimLink } from "./send-claim-link";
import { type RefundReader, serializeRefund } from "./serialize-refund";

/**
 * Creates a refund of one of the organization's invoices, once per Idempotency-Key: the key's
 * claim is inserted in the refund's transaction, so a concurrent request with the same key waits
 * for it and then replays the stored answer (a failed request stores nothing). After commit, a
 * claim link is emailed to the buyer and a proposal to every owner (an agent's beyond its cap, or
 * any credential's refund to an address it names). The answer is the refund as `reader` may
 * see it; the stored one has no claim link (another credential may replay the key), so a replay
 * to a reader who may see it gets the link added.
 */
export async function createRefund(
  database: Db,
  input: {
    organizationId: string;
    request: RefundRequest;
    requestedBy: RefundRequester;
    idempotency: IdempotencyClaim | null;
    /** Committed with the refund or not at all (an MCP confirmation token's use). */
    alongside?: AlongsideWork;
    /** Who gets the answer (lib/refunds/serialize-refund.ts); absent: nobody who may see a claim link. */
    reader?: RefundReader;
  },
  now = new Date(),
): Promise<{ status: number; body: unknown; replayed: boolean; refund: Refund | null }> {
  const { organizationId, idempotency: claim } = input;
  // Each proposal emails every owner: a runaway (or hijacked) agent must not bury the one that counts.
  const namedAddress = !["payer", "claim"].includes(input.request.destination);
  if (input.requestedBy.decision === "propose" || (namedAddress && input.requestedBy.kind !== "user"))
    await consumeRateLimit("agentRefund", organizationId);
  if (namedAddress) await checkNamedAddress(database, organizationId, input.request);
  const created = await database.$transaction(async (tx) => {
    if (claim) {
      const inserted = await tx.$executeRaw`
        INSERT INTO "IdempotencyKey" ("organizationId", "key", "requestHash", "createdAt")
        VALUES (${organizationId}, ${claim.key}, ${claim.requestHash}, ${now})
        ON CONFLICT DO NOTHING`;
      if (inserted === 0) return null;
    }
    await input.alongside?.(tx);
    const refund = await insertRefund(tx, organizationId, input.request, input.requestedBy, now);
    if (claim) {
      await tx.idempotencyKey.update({
        where: { organizationId_key: { organizationId, key: claim.key } },
        data: { responseStatus: 200, responseBody: JSON.stringify(serializeRefund(refund, null)) },
      });
    }
    return refund;
  });
  if (!created && claim) {
    const stored = await replayIdempotentResponse(database, claim);
    return {
      ...stored,
      body: await withClaimLink(database, organizationId, stored.body, input.reader ?? null),
      replayed: true,
      refund: null,
    };
  }
  const refund = created as Refund;
  await sendClaimLink(database, refund);
  await announceRefundProposal(database, refund);
  return { status: 200, body: serializeRefund(refund, input.reader ?? null), replayed: false, refund };
}

/**
 * An address the request names must be one of the invoice's network (an EVM address on a Solana
 * invoice is refused, and the reverse) and, where its family can tell, a wallet's. Judged before
 * the refund's transaction opens: it reads the chain. An unknown invoice is insertRefund's 404.
 */
async function checkNamedAddress(database: Db, organizationId: string, request: RefundRequest) {
  const invoice = await database.invoice.findFirst({
    where: { id: request.invoiceId, organizationId },
    select: { network: true },
  });
  if (!invoice) return;
  const { addresses } = chainFamilyOf(invoice.network);
  const parsed = addresses.parse(request.destination);
  if ("problem" in parsed)
    throw invalidRequest(
      "parameter_invalid",
      `Invalid destination: this invoice was paid on ${networkName(invoice.network)}, so a refund goes to "payer", "claim" or ${addresses.format}.`,
      "destination",
    );
  await refuseServiceWallet(database, invoice.network, parsed.address, "destination");
  await checkWalletAddress(invoice.network, parsed.address, "destination");
}

/** A stored refund answer with the refund's current claim link, when `reader` may see it. */
async function withClaimLink(database: Db, organizationId: string, body: unknown, reader: RefundReader) {
  const stored = body as { id?: unknown };
  if (typeof stored.id !== "string") return body;
  const refund = await database.refund.findFirst({ where: { id: stored.id, organizationId } });
  if (!refund) return body;
  const { claimUrl } = serializeRefund(refund, reader);
  return claimUrl === undefined ? body : { ...stored, claimUrl };
}
