import { hkdfSync } from "node:crypto";
import type { PaymentRequired } from "@x402/core/types";
import { Challenge } from "mppx";
import { getAddress } from "viem";
import { config } from "../config";
import { readX402Quote } from "../x402/x402-quote-token";
import { findX402Payable, x402MaxTimeoutSeconds } from "../x402/x402-requirements";

// MPP (the "Payment" HTTP authentication scheme) beside x402 on the same URL: each x402 option on
// an EIP-3009 token is also offered as an MPP `evm` `charge` challenge, in the wire format of
// mppx's EVM charge server. Like the x402 quote, a challenge stores nothing: its id is an HMAC over
// realm|method|intent|request|expires|digest|opaque under a key derived from SERVICE_SECRET_KEY,
// and its `opaque` carries the signed x402 quote, so a credential brings back all we priced.

export const mppMethod = "evm";
export const mppIntent = "charge";

/** The HMAC key of challenge ids, apart from the quote's (lib/x402/x402-quote-token.ts). */
export function mppChallengeKey(): string {
  const secretKey = config().secretKey;
  if (!secretKey) throw new Error("SERVICE_SECRET_KEY is not set; MPP challenges need it");
  return Buffer.from(hkdfSync("sha256", secretKey, "", "mpp-challenge", 32)).toString("base64url");
}

/** The protection space of our challenges: this service's host name, as mppx's servers name it. */
export const mppRealm = () => new URL(config().baseUrl).hostname;

export type MppChallenge = ReturnType<typeof Challenge.from>;

/**
 * One challenge per x402 option whose quote pays an EIP-3009 token (the same price, token and
 * deposit address), valid as long as an authorization for it may be (x402's maxTimeoutSeconds),
 * never past its quote. The agent's authorization is valid until the challenge expires.
 */
export function mppChallenges(paymentRequired: PaymentRequired, now = new Date()): MppChallenge[] {
  const secretKey = mppChallengeKey();
  const realm = mppRealm();
  return paymentRequired.accepts.flatMap((option) => {
    const token = option.extra?.quote;
    const quote = readX402Quote(token);
    const payable = quote && findX402Payable(quote.network, quote.token);
    if (!quote || !payable?.x402.eip712) return [];
    const { x402 } = payable;
    const expires = new Date(
      Math.min(Date.parse(quote.expiresAt), now.getTime() + x402MaxTimeoutSeconds * 1000),
    );
    return [
      Challenge.from({
        realm,
        method: mppMethod,
        intent: mppIntent,
        request: {
          amount: quote.amount,
          currency: getAddress(x402.asset),
          methodDetails: {
            chainId: x402.chainId,
            credentialTypes: ["authorization"],
            decimals: x402.decimals,
          },
          recipient: getAddress(quote.payTo),
        },
        ...(paymentRequired.resource.description
          ? { description: headerText(paymentRequired.resource.description) }
          : {}),
        expires,
        meta: { quote: token as string },
        secretKey,
      }),
    ];
  });
}

/**
 * A description as a header's quoted string can carry it: a merchant's two-line paylink text (or
 * organization name) has line breaks and may have other control characters, which a header
 * refuses, and the 402 must still be answered.
 */
const headerText = (text: string) =>
  Array.from(text, (char) => (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f ? " " : char))
    .join("")
    .replace(/\s+/g, " ")
    .trim();

/** The WWW-Authenticate values of the challenges, one header line each. */
export const serializeMppChallenges = (challenges: MppChallenge[]) =>
  challenges.map((challenge) => Challenge.serialize(challenge));
