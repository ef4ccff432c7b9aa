import { createPublicClient, http, type PublicClient } from "viem";
import type { NetworkConfig } from "../networks";

const clients = new Map<string, PublicClient>();
/** One RPC client per network and process (the watcher's, the sweeper's, reconciliation's). */
export function clientFor(network: NetworkConfig) {
  let client = clients.get(network.id);
  if (!client) {
    // cacheTime 0: the watcher must see the current head, not viem's cached one.
    client = createPublicClient({ transport: http(network.rpcUrl), cacheTime: 0 });
    clients.set(network.id, client);
  }
  return client;
}
