import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { reportReply } from "@/lib/http/report-reply";
import { apiKeyOrMemberRoute } from "@/lib/http/route";
import { readRefundReport, refundReportColumns } from "@/lib/reports/read-refund-report";
import { reportQuerySchema } from "@/lib/reports/report-schemas";

export const GET = apiKeyOrMemberRoute("reports.read", async ({ request, organizationId }) => {
  const query = readQuery(request, reportQuerySchema);
  return reportReply("refunds", query, refundReportColumns, readRefundReport(db(), organizationId, query));
});
