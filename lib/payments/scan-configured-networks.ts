import { createPublicClient, http, type PublicClient } from "viem";
import { config } from "../config";
import type { Db } from "../db/client";
import { scanNetwork } from "./scan-network";

const clients = new Map<string, PublicClient>();

/** One watcher pass over every configured network (the periodic task). */
export async function scanConfiguredNetworks(database: Db, now = new Date()) {
  for (const network of config().networks) {
    let client = clients.get(network.id);
    if (!client) {
      // cacheTime 0: the watcher must see the current head, not viem's cached one.
      client = createPublicClient({ transport: http(network.rpcUrl), cacheTime: 0 });
      clients.set(network.id, client);
    }
    await scanNetwork(database, network, client, now);
  }
}
