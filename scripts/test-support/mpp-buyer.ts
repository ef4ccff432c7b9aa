// An agent paying over MPP (the "Payment" HTTP authentication scheme) the way docs/agents.md shows
// it: mppx's client with its EVM charge method, signing EIP-3009 authorizations with a devnet key.
// It keeps every credential it sent, so a test can replay one as an attacker would; and it signs
// one challenge by hand, so a test can carry the same authorization over x402 and over MPP.
import type { PaymentRequirements } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { Challenge, Credential } from "mppx";
import { Mppx } from "mppx/client";
import { charge } from "mppx/evm/client";
import { getAddress, type Hex, keccak256, type LocalAccount, stringToBytes } from "viem";
import { testUsdcEip3009 } from "../../lib/chains/devnet";

/** mppx's client paying from `account`, told the test USDC's EIP-712 domain, as an operator would. */
export function mppBuyer(account: LocalAccount) {
  const credentials: string[] = [];
  const recording: typeof fetch = (input, init) => {
    const credential = new Request(input, init).headers.get("Authorization");
    if (credential) credentials.push(credential);
    return fetch(input, init);
  };
  const mppx = Mppx.create({
    methods: [charge({ account, authorization: testUsdcEip3009 })],
    fetch: recording,
    polyfill: false,
  });
  return { pay: (url: string) => mppx.fetch(url), credentials };
}

/** The MPP challenges of a 402. */
export const mppChallengesOf = (response: Response) => Challenge.fromResponseList(response);

type EvmChallenge = ReturnType<typeof Challenge.from> & {
  request: { amount: string; currency: string; recipient: string; methodDetails: { chainId: number } };
};

/**
 * What mppx's EVM client signs for `challenge` (nonce keccak256(id + realm) unless told another,
 * valid until the challenge expires): the authorization, the MPP credential carrying it, and the same
 * authorization as an x402 payment of `accepted` (the x402 option of the same 402).
 */
export async function signMppChallenge(
  account: LocalAccount,
  challenge: EvmChallenge,
  accepted: PaymentRequirements,
  nonce: Hex = keccak256(stringToBytes(`${challenge.id}${challenge.realm}`)),
) {
  const { request } = challenge;
  const authorization = {
    from: account.address,
    to: getAddress(request.recipient),
    value: request.amount,
    validAfter: "0",
    validBefore: String(Math.floor(Date.parse(challenge.expires as string) / 1000)),
    nonce,
  };
  const signature = await account.signTypedData({
    domain: {
      ...testUsdcEip3009,
      chainId: request.methodDetails.chainId,
      verifyingContract: request.currency as Hex,
    },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: 0n,
      validBefore: BigInt(authorization.validBefore),
    },
  });
  const credential = Credential.serialize(
    Credential.from({ challenge, payload: { type: "authorization", ...authorization, signature } }),
  );
  const x402 = { x402Version: 2, accepted, payload: { authorization, signature } };
  return { authorization, credential, x402 };
}
