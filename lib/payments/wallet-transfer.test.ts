import {
  ChainDisconnectedError,
  decodeFunctionData,
  erc20Abi,
  InsufficientFundsError,
  ProviderDisconnectedError,
  SwitchChainError,
  TransactionExecutionError,
  UserRejectedRequestError,
} from "viem";
import { describe, expect, it } from "vitest";
import { classifyWalletError, transferRequest, WalletStepError } from "./wallet-transfer";

const deposit = "0x52908400098527886E0F7030069857D2E4169EE7";
const usdc = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const usdcPayment = {
  chainId: 1,
  tokenAddress: usdc,
  depositAddress: deposit,
  remaining: "25.500000",
  tokenDecimals: 6,
};
const ethPayment = {
  chainId: 8453,
  tokenAddress: null,
  depositAddress: deposit,
  remaining: "0.008333333333333334",
  tokenDecimals: 18,
};

describe("transferRequest", () => {
  it("sends USDC with transfer(deposit, exact units) to the token contract", () => {
    const request = transferRequest(usdcPayment);
    expect(request.to).toBe(usdc);
    expect(request.value).toBeUndefined();
    expect(decodeFunctionData({ abi: erc20Abi, data: request.data as `0x${string}` })).toEqual({
      functionName: "transfer",
      args: [deposit, 25_500_000n],
    });
  });

  it("sends the native coin as a value to the deposit address, to the wei", () => {
    expect(transferRequest(ethPayment)).toEqual({ to: deposit, value: 8_333_333_333_333_334n });
  });
});

describe("classifyWalletError", () => {
  it.each<[string, unknown, string]>([
    ["a raw EIP-1193 rejection", { code: 4001, message: "User rejected the request." }, "rejected"],
    ["viem's rejection", new UserRejectedRequestError(new Error("no")), "rejected"],
    [
      "a rejection wrapped by sendTransaction",
      new TransactionExecutionError(new UserRejectedRequestError(new Error("no")), { account: null }),
      "rejected",
    ],
    ["an unknown chain", new SwitchChainError(new Error("unknown chain")), "wrongChain"],
    ["a disconnected provider", new ProviderDisconnectedError(new Error("gone")), "gone"],
    ["a provider off every chain", new ChainDisconnectedError(new Error("gone")), "gone"],
    ["the node's insufficient funds", new InsufficientFundsError(), "insufficient"],
    [
      "a raw insufficient funds message",
      new Error("sender doesn't have enough funds: insufficient funds"),
      "insufficient",
    ],
    ["the page's own balance check", new WalletStepError("insufficient"), "insufficient"],
    ["anything else", new Error("boom"), "failed"],
    ["a thrown string", "boom", "failed"],
  ])("%s → %s", (_case, error, problem) => {
    expect(classifyWalletError(error)).toBe(problem);
  });
});
