import { forbidden, ServiceError } from "../errors";
import { type OperationId, requirementOf } from "./operations";

/**
 * Who is asking, as the table sees it: a person signed in to the dashboard (owner or member), the
 * organization's API key, an agent credential, or an OAuth token (with its user's current role).
 */
export type Actor =
  | { kind: "owner" | "member" }
  | { kind: "api_key" }
  | { kind: "agent"; access: "read" | "write" }
  | { kind: "oauth"; access: "read" | "write"; role: "owner" | "member" };

/** `propose`: the caller may ask for it, and an owner decides (settlement wallets). */
export type Decision = "allow" | "propose";

/**
 * What the table reads of a merchant caller (lib/merchant-auth/merchant-caller.ts), written out so
 * lib/authority depends on no authentication code: the approval flows (lib/oauth,
 * lib/agent-access) that authentication reads can then ask the table too.
 */
type CallerGrant = {
  credential: { kind: "api_key" | "agent" | "oauth" };
  access: "read" | "write";
  role: "owner" | "member";
};

/** The actor a merchant credential stands for. */
export function actorOf(caller: CallerGrant): Actor {
  switch (caller.credential.kind) {
    case "api_key":
      return { kind: "api_key" };
    case "agent":
      return { kind: "agent", access: caller.access };
    case "oauth":
      return { kind: "oauth", access: caller.access, role: caller.role };
  }
}

/** A read-only token calling a write operation: MCP clients step up on this (scope "read write"). */
export const insufficientScope = (message: string) =>
  new ServiceError(403, "permission_error", "insufficient_scope", message, undefined, {
    "WWW-Authenticate": 'Bearer error="insufficient_scope", scope="read write"',
  });

function roleOf(actor: Actor): "owner" | "member" {
  switch (actor.kind) {
    case "owner":
    case "api_key":
    case "agent":
      return "owner";
    case "member":
      return "member";
    case "oauth":
      return actor.role;
  }
}

/**
 * What `actor` may do about `operation`: allow, turn it into a proposal, or throw the 403 that
 * says why. Pure: callers re-read the actor (role, access, revocation) on every request.
 */
export function authorize(actor: Actor, operation: OperationId): Decision {
  const requirement = requirementOf(operation);
  const credential = actor.kind === "agent" || actor.kind === "oauth" || actor.kind === "api_key";
  if (requirement.sessionOnly && credential) {
    throw forbidden("dashboard_only", "Only a person signed in to the dashboard can do this.");
  }
  if (requirement.access === "write" && "access" in actor && actor.access === "read") {
    throw actor.kind === "oauth"
      ? insufficientScope(
          "This connection has read access only. Sign in again and grant write access to make changes.",
        )
      : forbidden(
          "insufficient_access",
          "This credential has read-only access. Connect the agent with write access to make changes.",
        );
  }
  if (requirement.role === "owner" && roleOf(actor) !== "owner") {
    throw forbidden(
      "owner_only",
      actor.kind === "oauth"
        ? "Only an owner of the organization can do this; this connection acts for a member."
        : "Only an owner of the organization can do this.",
    );
  }
  if (requirement.decidersOnly && (actor.kind === "agent" || actor.kind === "oauth")) {
    throw forbidden("deciders_only", "Only an owner signed in to the dashboard or the API key can do this.");
  }
  if (requirement.routesMoney && (actor.kind === "agent" || actor.kind === "oauth")) return "propose";
  return "allow";
}

/** How recent a sign-in must be for an operation the table marks `recentSignIn`. */
export const recentSignInMs = 10 * 60 * 1000;

/**
 * Refuses an operation the table marks `recentSignIn` (code reauthentication_required) unless the
 * session doing it signed in within the last 10 minutes: a stale, perhaps stolen, session must not
 * hand out power over the organization. Every door a person uses calls it with their session's time.
 */
export function assertSignedInRecently(operation: OperationId, signedInAt: Date | null, now = new Date()) {
  if (!requirementOf(operation).recentSignIn) return;
  if (!signedInAt || now.getTime() - signedInAt.getTime() > recentSignInMs) {
    throw forbidden(
      "reauthentication_required",
      "For your safety, this needs a sign-in within the last 10 minutes.",
    );
  }
}

/** Whether `actor` may do `operation` (a read that shapes an answer rather than refuses it). */
export function allows(actor: Actor, operation: OperationId): boolean {
  try {
    authorize(actor, operation);
    return true;
  } catch (error) {
    if (error instanceof ServiceError) return false;
    throw error;
  }
}

/**
 * A refund's decision (`refunds.create`): an owner in the dashboard may decide alone; an API key
 * too, except to an address it names, which nobody has proven (neither the payer nor the buyer's
 * claim), so a stolen key cannot pay itself; an agent credential or OAuth token is allowed only a
 * refund to the payer within the organization's daily agent cap. Anything else becomes a proposal
 * an owner confirms.
 */
export function refundDecision(
  decision: Decision,
  refund: {
    destination: "PAYER" | "CLAIM" | "ADDRESS";
    withinAgentCap: boolean;
    /** A person signed in to the dashboard asked, rather than a credential or the service. */
    byPerson: boolean;
  },
): Decision {
  if (refund.destination === "ADDRESS" && !refund.byPerson) return "propose";
  if (decision === "allow") return "allow";
  return refund.destination === "PAYER" && refund.withinAgentCap ? "allow" : "propose";
}
