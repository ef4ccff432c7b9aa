import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { type ToolResult, toolError } from "./results";

// Destructive tools act only after the user said yes (decisions doc). A bare `confirm: true` can
// be set by the model itself, so without elicitation the first call returns a preview and a
// short-lived token, HMAC-signed with the server's key and bound to the tool, the caller and a
// hash of the arguments: the second call acts only with exactly the arguments the user saw.

export const confirmationTtlSeconds = 300;
const prefix = "cct_";

type Binding = {
  tool: string;
  /** Who may use the token: e.g. the organization and credential id. */
  subject: string;
  /** The tool's arguments without confirmationToken. */
  args: Record<string, unknown>;
};

/** JSON with object keys sorted at every level, so equal arguments hash equally. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function argumentsHash(args: Record<string, unknown>): string {
  const { confirmationToken: _ignored, ...rest } = args;
  return createHash("sha256").update(canonicalJson(rest)).digest("base64url");
}

const sign = (key: Uint8Array, payload: string) => createHmac("sha256", key).update(payload).digest();

export function issueConfirmationToken(
  key: Uint8Array,
  binding: Binding,
  now = new Date(),
): { token: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + confirmationTtlSeconds * 1000);
  const payload = Buffer.from(
    JSON.stringify({
      t: binding.tool,
      s: binding.subject,
      h: argumentsHash(binding.args),
      e: Math.floor(expiresAt.getTime() / 1000),
    }),
  ).toString("base64url");
  return { token: `${prefix}${payload}.${sign(key, payload).toString("base64url")}`, expiresAt };
}

export type ConfirmationCheck = "valid" | "invalid" | "expired" | "arguments_changed";

export function checkConfirmationToken(
  key: Uint8Array,
  token: string,
  binding: Binding,
  now = new Date(),
): ConfirmationCheck {
  if (!token.startsWith(prefix)) return "invalid";
  const [payload, signature, extra] = token.slice(prefix.length).split(".");
  if (!payload || !signature || extra !== undefined) return "invalid";
  const expected = sign(key, payload);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
  let claims: { t?: unknown; s?: unknown; h?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return "invalid";
  }
  if (claims.t !== binding.tool || claims.s !== binding.subject) return "invalid";
  if (typeof claims.e !== "number" || claims.e * 1000 <= now.getTime()) return "expired";
  return claims.h === argumentsHash(binding.args) ? "valid" : "arguments_changed";
}

const refusals: Record<Exclude<ConfirmationCheck, "valid">, { code: string; message: string }> = {
  invalid: {
    code: "confirmation_invalid",
    message: "This confirmation token is not valid for this tool and connection.",
  },
  expired: { code: "confirmation_expired", message: "This confirmation token has expired." },
  arguments_changed: {
    code: "confirmation_mismatch",
    message: "The arguments differ from the ones the user confirmed.",
  },
};

/**
 * The confirmation step of a destructive tool: `proceed` once the call carries a valid token for
 * exactly these arguments; otherwise the result to return: a preview with a new token (code
 * confirmation_required, the REST API's code for a missing confirmation) or why the token failed.
 */
export function confirmDestructiveCall(
  key: Uint8Array,
  binding: Binding & { preview: string; requestId?: string },
  now = new Date(),
): { proceed: true } | { proceed: false; result: ToolResult } {
  const token = binding.args.confirmationToken;
  if (typeof token === "string") {
    const check = checkConfirmationToken(key, token, binding, now);
    if (check === "valid") return { proceed: true };
    const refusal = refusals[check];
    return {
      proceed: false,
      result: toolError({
        error: {
          code: refusal.code,
          message: `${refusal.message} Call without confirmationToken for a new preview.`,
        },
        requestId: binding.requestId,
      }),
    };
  }
  const issued = issueConfirmationToken(key, binding, now);
  const message = [
    `${binding.preview}`,
    "Show this to the user and ask whether to go ahead. Only if they agree, call",
    `${binding.tool} again with the same arguments and "confirmationToken": "${issued.token}"`,
    `(valid until ${issued.expiresAt.toISOString()}). Never confirm on the user's behalf.`,
  ].join(" ");
  return {
    proceed: false,
    result: toolError({
      error: { code: "confirmation_required", message, param: "confirmationToken" },
      requestId: binding.requestId,
    }),
  };
}
