import { historyMethods } from "./solana-rpc-history";
import type { RpcMethod } from "./solana-rpc-params";
import { readMethods } from "./solana-rpc-reads";
import { transactionMethods } from "./solana-rpc-transactions";

/** Every Solana JSON-RPC method the local chain answers, by name. */
export const solanaRpcMethods: Record<string, RpcMethod> = {
  ...readMethods,
  ...transactionMethods,
  ...historyMethods,
};
