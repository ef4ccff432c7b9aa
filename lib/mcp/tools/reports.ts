import { toolResult } from "crypto-checkout-agent/catalog";
import {
  type ReportContract,
  reportNote,
  reportPayments,
  reportRefunds,
  reportToolRows,
} from "crypto-checkout-agent/contracts";
import { config } from "../../config";
import type { Db } from "../../db/client";
import { readReportMerchant } from "../../organizations/read-report-merchant";
import { listReport } from "../../reports/list-report";
import { readPaymentReport } from "../../reports/read-payment-report";
import { readRefundReport } from "../../reports/read-refund-report";
import type { ReportReader } from "../../reports/report-reader";
import { type ReportRange, reportQuerySchema } from "../../reports/report-schemas";
import { listPage } from "../../validation/list-page";
import { parseOrThrow } from "../../validation/validation-error";
import type { ToolContext, ToolHandlers } from "./tool-context";

type ReadReport = (
  database: Db,
  organizationId: string,
  range: ReportRange,
) => { read: ReportReader<unknown>; count: () => Promise<number> };

/**
 * A report's tool: a page of its rows for the caller's organization, and its CSV link for the
 * range; `envelope` adds what REST's JSON page carries beside the rows.
 */
const reportTool =
  (
    contract: ReportContract,
    readReport: ReadReport,
    envelope: (database: Db, organizationId: string) => Promise<Record<string, unknown>> = async () => ({}),
  ) =>
  async (
    { from, to, page, rows }: { from: string; to: string; page?: number; rows?: number },
    { db, caller }: ToolContext,
  ) => {
    const query = parseOrThrow(reportQuerySchema, {
      from,
      to,
      format: "json",
      page,
      rows: rows ?? reportToolRows,
    });
    const report = readReport(db, caller.organizationId, query);
    const { rows: data, total } = await listReport(report.read, report.count, query);
    const answer = { ...listPage(data, query, total), ...(await envelope(db, caller.organizationId)) };
    const csvUrl = new URL(contract.path, config().baseUrl);
    csvUrl.search = new URLSearchParams({ from, to, format: "csv" }).toString();
    return toolResult(answer, reportNote(answer, csvUrl.toString()));
  };

export const reportTools: ToolHandlers<"service_reports_"> = {
  service_reports_payments: reportTool(
    reportPayments,
    readPaymentReport,
    async (database, organizationId) => ({
      merchant: await readReportMerchant(database, organizationId),
    }),
  ),
  service_reports_refunds: reportTool(reportRefunds, readRefundReport),
};
