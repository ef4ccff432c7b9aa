import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { evmAddresses } from "../chains/evm/evm-addresses";
import { checkRefundDestination } from "./check-refund-destination";

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const other = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const base = {
  id: "rfd_1",
  amount: "16",
  destination: "PAYER",
  toAddress: payer,
  claimedAt: null,
  claimEmail: null,
  requestedByKind: "api_key",
  decidedByUserId: null,
};
const paid = { fromAddress: payer, amount: "40", status: "CONFIRMED" };

// A refund, its invoice's payments and other refunds → the refusal's reason (null: may be signed).
const table: [string, Record<string, unknown>, object[], object[], string | null][] = [
  ["to the payer", {}, [paid], [], null],
  ["to the payer, address in lower case", { toAddress: payer.toLowerCase() }, [paid], [], null],
  ["to someone who did not pay", { toAddress: other }, [paid], [], "not_the_payer"],
  ["to the payer of a reorganised payment", {}, [{ ...paid, status: "REORGED" }], [], "not_the_payer"],
  [
    "to the zero address (payer unknown)",
    { toAddress: zeroAddress },
    [{ ...paid, fromAddress: zeroAddress }],
    [],
    "no_destination",
  ],
  ["with no address", { toAddress: null }, [paid], [], "no_destination"],
  ["to a malformed address", { toAddress: "0x1234" }, [paid], [], "no_destination"],
  ["a claim not claimed", { destination: "CLAIM", toAddress: other }, [paid], [], "not_claimed"],
  [
    "a claim an API key asked for, claimed with no emailed code",
    { destination: "CLAIM", toAddress: other, claimedAt: new Date() },
    [paid],
    [],
    "claim_not_decided_by_owner",
  ],
  [
    "a claim an API key asked for, claimed with the emailed code",
    { destination: "CLAIM", toAddress: other, claimedAt: new Date(), claimEmail: "buyer@example.com" },
    [paid],
    [],
    null,
  ],
  [
    "a claim an API key asked for, an owner decided the claimed address",
    { destination: "CLAIM", toAddress: other, claimedAt: new Date(), decidedByUserId: "usr_1" },
    [paid],
    [],
    null,
  ],
  [
    "a claim an owner asked for, claimed",
    { destination: "CLAIM", toAddress: other, claimedAt: new Date(), requestedByKind: "user" },
    [paid],
    [],
    null,
  ],
  [
    "an address an API key asked for",
    { destination: "ADDRESS", toAddress: other },
    [paid],
    [],
    "address_not_decided_by_owner",
  ],
  [
    "an address an API key asked for, an owner confirmed",
    { destination: "ADDRESS", toAddress: other, decidedByUserId: "usr_1" },
    [paid],
    [],
    null,
  ],
  [
    "an address a user asked for",
    { destination: "ADDRESS", toAddress: other, requestedByKind: "user" },
    [paid],
    [],
    null,
  ],
  [
    "an address an agent asked for",
    { destination: "ADDRESS", toAddress: other, requestedByKind: "agent_credential" },
    [paid],
    [],
    "address_not_decided_by_owner",
  ],
  [
    "an address an agent asked for, an owner confirmed",
    { destination: "ADDRESS", toAddress: other, requestedByKind: "oauth_token", decidedByUserId: "usr_1" },
    [paid],
    [],
    null,
  ],
  ["more than was confirmed", { amount: "41" }, [paid], [], "exceeds_payment"],
  ["paid but not yet confirmed", {}, [{ ...paid, status: "CONFIRMING" }], [], "exceeds_payment"],
  [
    "more than other refunds leave",
    { amount: "25" },
    [paid],
    [{ id: "rfd_2", amount: "16", status: "SUCCEEDED" }],
    "exceeds_payment",
  ],
  [
    "exactly what other refunds leave",
    { amount: "24" },
    [paid],
    [{ id: "rfd_2", amount: "16", status: "PENDING" }],
    null,
  ],
  [
    "beside a failed refund",
    { amount: "40" },
    [paid],
    [{ id: "rfd_2", amount: "16", status: "FAILED" }],
    null,
  ],
  [
    "counting itself once",
    { amount: "40" },
    [paid],
    [{ id: "rfd_1", amount: "40", status: "PENDING" }],
    null,
  ],
  ["a zero amount", { amount: "0" }, [paid], [], "not_positive"],
];

describe("the signer's check of a refund", () => {
  it.each(table)("%s", (_, refund, payments, refunds, reason) => {
    const refusal = checkRefundDestination(
      { ...base, ...refund } as never,
      { payments: payments as never, refunds: refunds as never },
      evmAddresses,
    );
    expect(refusal?.reason ?? null).toBe(reason);
  });
});
