import { hkdfSync } from "node:crypto";
import { config } from "../config";

let cached: { secretKey: Buffer; key: Uint8Array } | undefined;

/**
 * The key that signs MCP confirmation tokens, derived from SERVICE_SECRET_KEY so every app
 * instance accepts a token another one issued, and it is never the sealing key itself.
 */
export function confirmationKey(): Uint8Array {
  const secretKey = config().secretKey;
  if (!secretKey) throw new Error("SERVICE_SECRET_KEY is not set; it is needed to sign MCP confirmations");
  if (cached?.secretKey !== secretKey) {
    cached = {
      secretKey,
      key: new Uint8Array(hkdfSync("sha256", secretKey, "", "mcp-confirmation-token", 32)),
    };
  }
  return cached.key;
}
