import { describe, expect, it } from "vitest";
import type { PaymentRequestInput } from "./chain-family";
import { evmPaymentUri } from "./evm/evm-payment-uri";
import { solanaPaymentUri } from "./solana/solana-payment-uri";

const deposit = "0x52908400098527886E0F7030069857D2E4169EE7";
const usdc = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const request = (overrides: Partial<PaymentRequestInput>): PaymentRequestInput => ({
  receiver: { address: deposit, reference: null },
  remaining: "25.500000",
  token: { symbol: "USDC", decimals: 6, address: usdc },
  label: "Crypto Checkout",
  message: "Invoice inv_1",
  ...overrides,
});

describe("evmPaymentUri (EIP-681)", () => {
  it.each<[string, number | undefined, Partial<PaymentRequestInput>, string]>([
    ["an ERC-20 transfer", 1, {}, `ethereum:${usdc}@1/transfer?address=${deposit}&uint256=25500000`],
    [
      "a native value",
      8453,
      { remaining: "0.008333333333333334", token: { symbol: "ETH", decimals: 18 } },
      `ethereum:${deposit}@8453?value=8333333333333334`,
    ],
  ])("%s", (_case, chainId, overrides, uri) => {
    expect(evmPaymentUri(chainId, request(overrides))).toBe(uri);
  });
});

describe("solanaPaymentUri (Solana Pay transfer request)", () => {
  const recipient = "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD";
  const mint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
  const reference = "CqMbRgMuEhQi9BUS8xP44Wk5nENm48FqJnfjEi4eNb1k";
  it("names the recipient wallet, the amount, the mint and the reference, and escapes the texts", () => {
    const uri = solanaPaymentUri(
      request({
        receiver: { address: recipient, reference },
        remaining: "16.5",
        token: { symbol: "USDC", decimals: 6, address: mint },
        label: "Café & Co",
        message: "Invoice inv_1",
      }),
    );
    expect(uri).toBe(
      `solana:${recipient}?amount=16.5&spl-token=${mint}&reference=${reference}&label=Caf%C3%A9%20%26%20Co&message=Invoice%20inv_1`,
    );
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe("solana:");
    expect(parsed.pathname).toBe(recipient);
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      amount: "16.5",
      "spl-token": mint,
      reference,
      label: "Café & Co",
      message: "Invoice inv_1",
    });
  });
});
