import { CheckoutSessionStatus } from "../generated/prisma/enums";

// The checkout session state machine, pure. Its own folder, below lib/checkout and
// lib/subscriptions, since both move sessions (a renewal is withdrawn when its subscription ends).
//   OPEN --begin_payment--> PROCESSING --invoice_created--> COMPLETED
//   OPEN | PROCESSING past expiresAt --> EXPIRED (on read as well as by the job)
//   any but EXPIRED --withdraw--> EXPIRED (a subscription's renewal once the subscription ends;
//   the caller withdraws only a session whose invoice is unpaid)
// PROCESSING is the claim of startPayment's one transaction (the session row lock): a start that
// fails rolls back to OPEN with it, so no event leads back.

export type SessionStatus = CheckoutSessionStatus;
export type SessionEvent = "begin_payment" | "invoice_created" | "expire" | "withdraw";

/** Every session status, from the database enum: the one list filters and serializers use. */
export const sessionStatuses = Object.values(CheckoutSessionStatus);
/** Statuses a session can still expire from. */
export const liveSessionStatuses: readonly SessionStatus[] = [
  CheckoutSessionStatus.OPEN,
  CheckoutSessionStatus.PROCESSING,
];
export const sessionEvents: readonly SessionEvent[] = [
  "begin_payment",
  "invoice_created",
  "expire",
  "withdraw",
];

type SessionClock = { status: SessionStatus; expiresAt: Date };

/** The status as of `now`: an open or processing session past its expiry is expired, job or no job. */
export function effectiveSessionStatus(session: SessionClock, now: Date): SessionStatus {
  const live = liveSessionStatuses.includes(session.status);
  return live && now.getTime() >= session.expiresAt.getTime() ? "EXPIRED" : session.status;
}

export type SessionTransition = { ok: true; status: SessionStatus } | { ok: false; status: SessionStatus };

/** The status after `event`, or `ok: false` (with the effective status) when the event is not allowed. */
export function transitionSession(session: SessionClock, event: SessionEvent, now: Date): SessionTransition {
  const status = effectiveSessionStatus(session, now);
  const next = ((): SessionStatus | null => {
    switch (event) {
      case "begin_payment":
        return status === "OPEN" ? "PROCESSING" : null;
      case "invoice_created":
        return status === "PROCESSING" ? "COMPLETED" : null;
      case "expire":
        return status === "EXPIRED" && session.status !== "EXPIRED" ? "EXPIRED" : null;
      case "withdraw":
        return session.status !== "EXPIRED" ? "EXPIRED" : null;
    }
  })();
  return next === null ? { ok: false, status } : { ok: true, status: next };
}
