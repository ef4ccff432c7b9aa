import { actorOf, authorize } from "../authority/authorize";

/**
 * The monthly report email (which sends payers' addresses and amounts to the owners) changes only
 * by an owner or an API key: an agent credential or OAuth token asking is refused
 * (reports.schedule is decidersOnly), as is a member. Does nothing when the request leaves it alone.
 */
export function assertMayScheduleReports(
  caller: Parameters<typeof actorOf>[0],
  input: { monthlyReportEmail?: boolean; monthlyReportTo?: string | null },
) {
  if (input.monthlyReportEmail === undefined && input.monthlyReportTo === undefined) return;
  authorize(actorOf(caller), "reports.schedule");
}
