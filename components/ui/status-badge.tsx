// Statuses of sessions, invoices, payments and deliveries in one palette: green is done,
// amber is waiting on someone, red needs attention, grey is over.
const tones: Record<string, string> = {
  green: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
  blue: "bg-sky-50 text-sky-700 ring-sky-600/20",
  red: "bg-red-50 text-red-700 ring-red-600/20",
  grey: "bg-slate-100 text-slate-600 ring-slate-500/20",
};

const toneOf: Record<string, keyof typeof tones> = {
  CONFIRMED: "green",
  COMPLETED: "green",
  DELIVERED: "green",
  ACTIVE: "green",
  ENABLED: "green",
  OPEN: "blue",
  PROCESSING: "blue",
  AWAITING_PAYMENT: "blue",
  CONFIRMING: "amber",
  PARTIALLY_PAID: "amber",
  PENDING: "amber",
  COOLDOWN: "amber",
  OVERDUE: "red",
  PAST_DUE: "red",
  CANCELLED: "grey",
  FAILED: "red",
  REORGED: "red",
  REVOKED: "grey",
  EXPIRED: "grey",
  DISABLED: "grey",
  PROPOSED: "amber",
  SCHEDULED: "blue",
  APPLIED: "green",
  REJECTED: "grey",
  REQUIRES_APPROVAL: "amber",
  PENDING_CLAIM: "amber",
  SUBMITTED: "blue",
  SUCCEEDED: "green",
};

/** "PARTIALLY_PAID" → "Partially paid" */
export function humanize(status: string): string {
  const words = status.replaceAll("_", " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function StatusBadge({ status }: { status: string }) {
  const tone = tones[toneOf[status.toUpperCase()] ?? "grey"];
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}
    >
      {humanize(status)}
    </span>
  );
}
