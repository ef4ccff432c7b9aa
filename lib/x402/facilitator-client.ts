import { type FacilitatorClient, HTTPFacilitatorClient } from "@x402/core/server";
import { type Config, config } from "../config";
import { db } from "../db/client";
import { processWide } from "../process-wide";
import {
  createBuiltInFacilitator,
  ownX402Payee,
  recordedX402Broadcasts,
  recordX402Broadcast,
} from "./create-built-in-facilitator";

/** How long the web tier waits on the facilitator; a settlement waits for its receipt. */
const facilitatorTimeoutMs = 150_000;

/**
 * Whether the facilitator records each settlement's transaction on its X402Settlement row before
 * broadcasting it (`recordX402Broadcast`): the built-in one in this process does. One over HTTP
 * may be anyone's (the web tier cannot tell the signing role's from another), and one that
 * broadcast and then answered a failure leaves no trace here, or may answer a success it did not
 * achieve: its answers, refusals and successes alike, are decided on chain.
 */
export const x402FacilitatorRecordsBroadcasts = (settings: Config = config()) =>
  !settings.x402.facilitatorUrl;

/**
 * The facilitator the web tier verifies and settles x402 payments with:
 * - SERVICE_X402_FACILITATOR_URL set: that facilitator over HTTP (x402's own client), with
 *   SERVICE_X402_FACILITATOR_TOKEN as its bearer token when set (an external facilitator, or the
 *   signing role's, `npm run sweeper` with SERVICE_X402_FACILITATOR_PORT);
 * - else, when this process signs (the zero-setup start, SERVICE_SWEEPER=in-process): the built-in
 *   facilitator in this process, one per process so its nonce queues are shared;
 * - else undefined: the web tier holds no key, and x402 is unavailable.
 */
export function x402FacilitatorClient(settings: Config = config()): FacilitatorClient | undefined {
  const { facilitatorUrl, facilitatorToken } = settings.x402;
  if (facilitatorUrl)
    return new HTTPFacilitatorClient({
      url: facilitatorUrl,
      timeoutMs: facilitatorTimeoutMs,
      createAuthHeaders: facilitatorToken
        ? async () => {
            const headers = { Authorization: `Bearer ${facilitatorToken}` };
            return { verify: headers, settle: headers, supported: headers };
          }
        : undefined,
    });
  const mnemonic = settings.hdMnemonic;
  if (settings.sweeper.inProcess && mnemonic)
    return processWide("x402-built-in-facilitator", () =>
      createBuiltInFacilitator({
        mnemonic,
        networks: settings.networks,
        // The database client is the process's, made when a settlement first needs it.
        ownsPayee: (payment) => ownX402Payee(db())(payment),
        recordsBroadcast: (key, transaction) => recordX402Broadcast(db())(key, transaction),
        recordedBroadcasts: (networks) => recordedX402Broadcasts(db())(networks),
      }),
    );
  return undefined;
}
