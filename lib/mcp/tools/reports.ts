import { toolResult } from "crypto-checkout-agent/catalog";
import { paymentReportNote, reportToolRows } from "crypto-checkout-agent/contracts";
import { config } from "../../config";
import { listReport } from "../../reports/list-report";
import { readPaymentReport } from "../../reports/read-payment-report";
import { reportQuerySchema } from "../../reports/report-schemas";
import { listPage } from "../../validation/list-page";
import { parseOrThrow } from "../../validation/validation-error";
import type { ToolHandlers } from "./tool-context";

export const reportTools: ToolHandlers<"service_reports_"> = {
  service_reports_payments: async ({ from, to, page, rows }, { db, caller }) => {
    const query = parseOrThrow(reportQuerySchema, {
      from,
      to,
      format: "json",
      page,
      rows: rows ?? reportToolRows,
    });
    const report = readPaymentReport(db, caller.organizationId, query);
    const { rows: data, total } = await listReport(report.read, report.count, query);
    const answer = listPage(data, query, total);
    const csvUrl = new URL("/api/private/reports/payments", config().baseUrl);
    csvUrl.search = new URLSearchParams({ from, to, format: "csv" }).toString();
    return toolResult(answer, paymentReportNote(answer, csvUrl.toString()));
  },
};
