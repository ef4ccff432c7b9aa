// The checkout session state machine (decisions doc, "Session and invoice states"), pure.
//   OPEN --begin_payment--> PROCESSING --invoice_created--> COMPLETED
//   PROCESSING --payment_start_failed--> OPEN
//   OPEN | PROCESSING past expiresAt --> EXPIRED (on read as well as by the job)

export type SessionStatus = "OPEN" | "PROCESSING" | "COMPLETED" | "EXPIRED";
export type SessionEvent = "begin_payment" | "invoice_created" | "payment_start_failed" | "expire";

export const sessionStatuses: readonly SessionStatus[] = ["OPEN", "PROCESSING", "COMPLETED", "EXPIRED"];
export const sessionEvents: readonly SessionEvent[] = [
  "begin_payment",
  "invoice_created",
  "payment_start_failed",
  "expire",
];

type SessionClock = { status: SessionStatus; expiresAt: Date };

/** The status as of `now`: an open or processing session past its expiry is expired, job or no job. */
export function effectiveSessionStatus(session: SessionClock, now: Date): SessionStatus {
  const live = session.status === "OPEN" || session.status === "PROCESSING";
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
      case "payment_start_failed":
        return status === "PROCESSING" ? "OPEN" : null;
      case "expire":
        return status === "EXPIRED" && session.status !== "EXPIRED" ? "EXPIRED" : null;
    }
  })();
  return next === null ? { ok: false, status } : { ok: true, status: next };
}
