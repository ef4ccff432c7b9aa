import { eip3009ABI } from "@x402/evm";
import {
  type Abi,
  type AbiFunction,
  decodeAbiParameters,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  toFunctionSelector,
} from "viem";

/**
 * The facilitator's calls, encoded and read with each function's selector hashed once: viem's
 * encodeFunctionData and decodeFunctionData hash the signature of every function they look at,
 * each call, which was a few percent of the web process's CPU per settlement under load.
 */
const selectors = new WeakMap<AbiFunction, Hex>();
function selectorOf(item: AbiFunction): Hex {
  let selector = selectors.get(item);
  if (!selector) {
    selector = toFunctionSelector(item);
    selectors.set(item, selector);
  }
  return selector;
}

const transfers = (eip3009ABI as readonly AbiFunction[]).filter(
  (item) => item.type === "function" && item.name === "transferWithAuthorization",
);

/** The payer and nonce of a transferWithAuthorization call (either of its overloads); undefined for any other data. */
export function readTransferCall(data: Hex): { payer: string; nonce: string } | undefined {
  const item = transfers.find((candidate) => data.slice(0, 10).toLowerCase() === selectorOf(candidate));
  if (!item) return undefined;
  try {
    const args = decodeAbiParameters(item.inputs, `0x${data.slice(10)}`);
    return { payer: String(args[0]).toLowerCase(), nonce: String(args[5]).toLowerCase() };
  } catch {
    return undefined;
  }
}

/** `functionName(args)` of `abi` as call data: the one function of that name and arity, else viem's overload resolution. */
export function encodeCall(abi: Abi, functionName: string, args: readonly unknown[]): Hex {
  const matches = abi.filter(
    (item): item is AbiFunction =>
      item.type === "function" && item.name === functionName && item.inputs.length === args.length,
  );
  const item = matches[0];
  if (matches.length !== 1 || !item) return encodeFunctionData({ abi, functionName, args } as never);
  return `${selectorOf(item)}${encodeAbiParameters(item.inputs, args).slice(2)}`;
}
