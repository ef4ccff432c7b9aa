import type { AgentSetupStatus } from "../generated/prisma/client";

// The browser setup's state machine, pure: callers read the row, ask here what a request means,
// and write the result inside a transaction with a conditional update.

/** What the agent sees when it asks for the status. A completed setup stays "approved". */
export function setupView(
  status: AgentSetupStatus,
  expired: boolean,
): "pending" | "approved" | "denied" | "expired" {
  if (status === "DENIED") return "denied";
  if (status === "COMPLETED") return "approved";
  if (expired) return "expired";
  return status === "APPROVED" ? "approved" : "pending";
}

/** What a check-in gets: the credential only from an approved, unexpired, unused setup. */
export function checkinOutcome(
  status: AgentSetupStatus,
  expired: boolean,
): "issue" | "pending" | "denied" | "expired" | "used" {
  if (status === "COMPLETED") return "used";
  if (status === "DENIED") return "denied";
  if (expired) return "expired";
  return status === "APPROVED" ? "issue" : "pending";
}

/** Whether an owner may still approve or deny. */
export function decisionOutcome(
  status: AgentSetupStatus,
  expired: boolean,
): "decide" | "expired" | "already_decided" {
  if (status !== "PENDING") return "already_decided";
  return expired ? "expired" : "decide";
}
