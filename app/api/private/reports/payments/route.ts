import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { reportReply } from "@/lib/http/report-reply";
import { apiKeyOrMemberRoute } from "@/lib/http/route";
import { readReportMerchant } from "@/lib/organizations/read-report-merchant";
import { paymentReportColumns, readPaymentReport } from "@/lib/reports/read-payment-report";
import { reportQuerySchema } from "@/lib/reports/report-schemas";

export const GET = apiKeyOrMemberRoute("reports.read", async ({ request, organizationId }) => {
  const query = readQuery(request, reportQuerySchema);
  return reportReply(
    "payments",
    query,
    paymentReportColumns,
    readPaymentReport(db(), organizationId, query),
    async () => ({ merchant: await readReportMerchant(db(), organizationId) }),
  );
});
