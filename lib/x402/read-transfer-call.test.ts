import { eip3009ABI } from "@x402/evm";
import { type Abi, encodeFunctionData, type Hex, parseAbi } from "viem";
import { describe, expect, it } from "vitest";
import { encodeCall, readTransferCall } from "./read-transfer-call";

const payer = "0x1111111111111111111111111111111111111111";
const payee = "0x2222222222222222222222222222222222222222";
const nonce = `0x${"ab".repeat(32)}` as Hex;
const withSignature = [payer, payee, 10_000n, 0n, 9_999_999_999n, nonce, `0x${"cd".repeat(65)}`] as const;
const withVrs = [
  payer,
  payee,
  10_000n,
  0n,
  9_999_999_999n,
  nonce,
  27,
  `0x${"01".repeat(32)}`,
  `0x${"02".repeat(32)}`,
] as const;
const viem = (functionName: string, args: readonly unknown[], abi: Abi = eip3009ABI as Abi) =>
  encodeFunctionData({ abi, functionName, args } as never);

describe("encodeCall", () => {
  it.each([
    ["transferWithAuthorization with a bytes signature", "transferWithAuthorization", withSignature],
    ["transferWithAuthorization with v, r, s", "transferWithAuthorization", withVrs],
    ["balanceOf", "balanceOf", [payer]],
  ] as const)("encodes %s as viem does", (_, functionName, args) => {
    expect(encodeCall(eip3009ABI as Abi, functionName, args)).toBe(viem(functionName, args));
  });

  it("leaves two overloads of one arity to viem's resolution by type", () => {
    const abi = parseAbi(["function pay(address to)", "function pay(uint256 amount)"]);
    expect(encodeCall(abi, "pay", [7n])).toBe(viem("pay", [7n], abi));
    expect(encodeCall(abi, "pay", [payee])).toBe(viem("pay", [payee], abi));
  });
});

describe("readTransferCall", () => {
  it.each([
    ["a transfer with a bytes signature", viem("transferWithAuthorization", withSignature), { payer, nonce }],
    ["a transfer with v, r, s", viem("transferWithAuthorization", withVrs), { payer, nonce }],
    [
      "upper-case hex",
      viem("transferWithAuthorization", withSignature).toUpperCase().replace("0X", "0x"),
      { payer, nonce },
    ],
    ["another function of the token", viem("balanceOf", [payer]), undefined],
    ["a transfer cut short", viem("transferWithAuthorization", withSignature).slice(0, 80), undefined],
    ["nothing", "0x", undefined],
  ] as const)("reads %s", (_, data, expected) => {
    expect(readTransferCall(data as Hex)).toEqual(expected);
  });
});
