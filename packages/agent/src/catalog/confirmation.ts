import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { type ToolResult, toolError } from "./results";

// Destructive tools act only after the user said yes. A bare `confirm: true` can be set by the
// model itself, so without elicitation the first call returns a preview and a short-lived token,
// HMAC-signed with the server's key and bound to the tool, the caller, a hash of the arguments and
// a hash of the state the preview showed: the second call acts only with exactly the arguments
// the user saw, on the state they saw. The caller records a used token (single use). A preview is
// a courtesy to the user, never the authority: who may act is decided by the server's roles.

export const confirmationTtlSeconds = 300;
const prefix = "cct_";

type Binding = {
  tool: string;
  /** Who may use the token: e.g. the organization and credential id. */
  subject: string;
  /** The tool's arguments without confirmationToken. */
  args: Record<string, unknown>;
  /** What the preview showed (e.g. the wallet list); a token is refused once it changed. */
  state?: unknown;
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

const hashOf = (value: unknown) => createHash("sha256").update(canonicalJson(value)).digest("base64url");

function argumentsHash(args: Record<string, unknown>): string {
  const { confirmationToken: _ignored, ...rest } = args;
  return hashOf(rest);
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
      st: hashOf(binding.state ?? null),
      e: Math.floor(expiresAt.getTime() / 1000),
    }),
  ).toString("base64url");
  return { token: `${prefix}${payload}.${sign(key, payload).toString("base64url")}`, expiresAt };
}

export type ConfirmationCheck = "valid" | "invalid" | "expired" | "arguments_changed" | "state_changed";

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
  let claims: { t?: unknown; s?: unknown; h?: unknown; st?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return "invalid";
  }
  if (claims.t !== binding.tool || claims.s !== binding.subject) return "invalid";
  if (typeof claims.e !== "number" || claims.e * 1000 <= now.getTime()) return "expired";
  if (claims.h !== argumentsHash(binding.args)) return "arguments_changed";
  return claims.st === hashOf(binding.state ?? null) ? "valid" : "state_changed";
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
  state_changed: {
    code: "confirmation_stale",
    message: "What the user confirmed has changed since the preview, so the confirmation no longer holds.",
  },
};

/** What a used confirmation token is refused with (the caller keeps the record of use). */
export const confirmationUsed = {
  code: "confirmation_used",
  message:
    "This confirmation token was used already; each confirms one action. Call without confirmationToken for a new preview.",
};

/**
 * The confirmation step of a destructive tool: `proceed` (with the token, for the caller to
 * record as used together with the action) once the call carries a valid token for exactly these
 * arguments and this state; otherwise the result to return: a preview with a new token (code
 * confirmation_required, the REST API's code for a missing confirmation) or why the token failed.
 */
export function confirmDestructiveCall(
  key: Uint8Array,
  binding: Binding & { preview: string; requestId?: string },
  now = new Date(),
): { proceed: true; token: string } | { proceed: false; result: ToolResult } {
  const token = binding.args.confirmationToken;
  if (typeof token === "string") {
    const check = checkConfirmationToken(key, token, binding, now);
    if (check === "valid") return { proceed: true, token };
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
