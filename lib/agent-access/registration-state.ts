import type { AgentRegistrationStatus } from "../generated/prisma/client";

// Agent signup's state machine, pure: PENDING → (link opened) CONFIRMED → (agent collected)
// COMPLETED. Expiry ends it for good: an expired or abandoned signup is never revived.

/** What the agent gets when it polls with its check-in token. */
export function collectOutcome(
  status: AgentRegistrationStatus,
  expired: boolean,
): "pending" | "issue" | "completed" | "expired" {
  if (status === "COMPLETED") return "completed";
  if (expired) return "expired";
  return status === "CONFIRMED" ? "issue" : "pending";
}

/** What opening the confirmation link does. */
export function confirmOutcome(
  status: AgentRegistrationStatus,
  expired: boolean,
): "confirm" | "already_confirmed" | "expired" {
  if (status !== "PENDING") return "already_confirmed";
  return expired ? "expired" : "confirm";
}
