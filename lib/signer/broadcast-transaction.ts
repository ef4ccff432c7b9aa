import type { Hex, PublicClient } from "viem";

/** Sends signed bytes; a node that has them already, or has mined them, is not an error. */
export async function broadcastTransaction(client: PublicClient, raw: Hex) {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    const message = String((error as Error).message).toLowerCase();
    if (
      /already known|known transaction|nonce too low|already imported|nonce has already been used/.test(
        message,
      )
    )
      return;
    throw error;
  }
}
