import { randomInt } from "node:crypto";
import { hashSecret, newSecret } from "../crypto/tokens";

// One-time tokens of the agent access flows. Each is random, shown to its holder once and stored
// as SHA-256; the prefix tells them apart in logs (where lib/log.ts masks them) and support.
const kinds = {
  setup: "cc_ast_",
  checkin: "cc_act_",
  registrationCheckin: "cc_rct_",
  registrationConfirm: "cc_arc_",
} as const;

export type AgentTokenKind = keyof typeof kinds;

export function newAgentToken(kind: AgentTokenKind) {
  const token = newSecret(kinds[kind]);
  return { token, hash: hashSecret(token) };
}

/** The stored hash of a presented token, or null when it is not of that kind's exact shape. */
export function agentTokenHash(kind: AgentTokenKind, token: string | null | undefined): string | null {
  if (!token || !new RegExp(`^${kinds[kind]}[0-9A-Za-z]{40}$`).test(token)) return null;
  return hashSecret(token);
}

// User codes (RFC 8628 style): consonants only, so no words and no 0/O or 1/I mix-ups; 20^8
// codes. A person types one (an agent setup's code on the approval page, a signup's pairing code
// on the confirmation page); a few wrong tries are allowed (lib/rate-limit "wrongCode"), so
// guessing among 20^8 gets nowhere. Approving still needs a signed-in owner, and the agent its
// check-in token.
const userCodeAlphabet = "BCDFGHJKLMNPQRSTVWXZ";

export function newUserCode(): string {
  const letters = Array.from({ length: 8 }, () => userCodeAlphabet[randomInt(userCodeAlphabet.length)]);
  return `${letters.slice(0, 4).join("")}-${letters.slice(4).join("")}`;
}

/** The stored hash of a typed user code (any case, with or without the dash), or null. */
export function userCodeHash(code: string | null | undefined): string | null {
  const letters = (code ?? "").toUpperCase().replace(/[\s-]/g, "");
  if (!new RegExp(`^[${userCodeAlphabet}]{8}$`).test(letters)) return null;
  return hashSecret(`${letters.slice(0, 4)}-${letters.slice(4)}`);
}
